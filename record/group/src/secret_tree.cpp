// SPDX-License-Identifier: Apache-2.0
// RFC 9420 section 9: the secret tree, its ratchets and the deletion
// schedule of 9.2.
#include <sealwire/record/group/secret_tree.hpp>

#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/tree_math.hpp>

#include <bit>
#include <limits>

namespace sealwire::record::group {
namespace {

constexpr std::uint32_t last_generation = std::numeric_limits<std::uint32_t>::max();

std::size_t index_of(ratchet_type type) noexcept { return type == ratchet_type::handshake ? 0 : 1; }

}  // namespace

secret_tree::secret_tree(const suite_algorithms& suite, std::uint32_t leaf_count, const secret_tree_limits& limits)
    : suite_(suite), leaf_count_(leaf_count), limits_(limits) {}

result<secret_tree> secret_tree::create(const suite_algorithms& suite, bytes_view encryption_secret,
                                        std::uint32_t leaf_count, const secret_tree_limits& limits) {
  if (encryption_secret.size() != suite.hash_size()) return group_errc::invalid_argument;
  if (!std::has_single_bit(leaf_count) || leaf_count > tree_math::max_leaves) return group_errc::invalid_argument;
  secret_tree tree(suite, leaf_count, limits);
  tree.nodes_.resize(tree_math::node_width(leaf_count));
  tree.leaves_.resize(leaf_count);
  // tree_node_[root]_secret = encryption_secret (RFC 9420 9).
  tree.nodes_[tree_math::root(leaf_count)].emplace(encryption_secret);
  return tree;
}

result<void> secret_tree::start(std::uint32_t leaf) {
  const std::uint32_t x = tree_math::leaf_node(leaf);
  // Find the nearest ancestor (or x itself) whose secret is still held.
  std::vector<std::uint32_t> path{x};
  while (!nodes_[path.back()]) {
    const auto p = tree_math::parent(path.back(), leaf_count_);
    if (!p) return group_errc::generation_too_old;  // the leaf's secrets were deleted
    path.push_back(*p);
  }
  const std::size_t nh = suite_.hash_size();
  // Walk down: each node's children are derived and the node deleted
  //   left  = ExpandWithLabel(node, "tree", "left", Nh)
  //   right = ExpandWithLabel(node, "tree", "right", Nh)  (RFC 9420 9).
  for (std::size_t i = path.size() - 1; i > 0; --i) {
    const std::uint32_t node = path[i];
    crypto::secret_bytes left(nh);
    crypto::secret_bytes right(nh);
    const bytes_view secret = nodes_[node]->span();
    if (auto r = expand_with_label(suite_, left.span(), secret, "tree", bytes_of("left")); !r) return r;
    if (auto r = expand_with_label(suite_, right.span(), secret, "tree", bytes_of("right")); !r) return r;
    derivations_ += 2;
    nodes_[*tree_math::left(node)].emplace(std::move(left));
    nodes_[*tree_math::right(node)].emplace(std::move(right));
    nodes_[node].reset();
  }
  // handshake_ratchet_secret_[N]_[0] = ExpandWithLabel(tree_node_[N]_secret, "handshake", "", Nh),
  // application_ratchet_secret_[N]_[0] likewise with "application" (RFC 9420 9.1).
  leaf_state& state = leaves_[leaf];
  const bytes_view secret = nodes_[x]->span();
  if (auto r = expand_with_label(suite_, state.ratchets[0].secret.span().first(nh), secret, "handshake", {}); !r) {
    return r;
  }
  if (auto r = expand_with_label(suite_, state.ratchets[1].secret.span().first(nh), secret, "application", {}); !r) {
    return r;
  }
  derivations_ += 2;
  state.ratchets[0].started = true;
  state.ratchets[1].started = true;
  nodes_[x].reset();
  return {};
}

result<secret_tree::ratchet*> secret_tree::ratchet_of(std::uint32_t leaf, ratchet_type type) {
  if (leaf >= leaf_count_) return group_errc::invalid_argument;
  leaf_state& state = leaves_[leaf];
  if (state.erased) return group_errc::generation_too_old;
  ratchet& r = state.ratchets[index_of(type)];
  if (!r.started) {
    if (auto s = start(leaf); !s) return s.error();
  }
  return &r;
}

result<void> secret_tree::derive_key(ratchet_key& out, bytes_view secret, std::uint32_t generation) const {
  // ratchet_key_[i]_[j] = DeriveTreeSecret(ratchet_secret_[i]_[j], "key", j, AEAD.Nk)
  // ratchet_nonce_[i]_[j] = DeriveTreeSecret(ratchet_secret_[i]_[j], "nonce", j, AEAD.Nn)  (RFC 9420 9.1)
  out.generation = generation;
  out.key_size = suite_.key_size();
  derivations_ += 2;
  if (auto r = derive_tree_secret(suite_, out.key.span().first(out.key_size), secret, "key", generation); !r) {
    return r;
  }
  return derive_tree_secret(suite_, out.nonce.span(), secret, "nonce", generation);
}

result<void> secret_tree::step(std::span<std::uint8_t> secret, std::uint32_t generation) const {
  // ratchet_secret_[i]_[j+1] = DeriveTreeSecret(ratchet_secret_[i]_[j], "secret", j, KDF.Nh) (RFC 9420 9.1)
  crypto::secret_array<max_hash_size> next;
  const std::size_t nh = suite_.hash_size();
  ++derivations_;
  if (auto r = derive_tree_secret(suite_, next.span().first(nh), secret.first(nh), "secret", generation); !r) {
    return r;
  }
  std::copy_n(next.data(), nh, secret.data());
  return {};
}

result<ratchet_key> secret_tree::next_key(std::uint32_t leaf, ratchet_type type) {
  auto rr = ratchet_of(leaf, type);
  if (!rr) return rr.error();
  ratchet& r = **rr;
  if (r.exhausted) return group_errc::generation_exhausted;
  const std::size_t nh = suite_.hash_size();
  ratchet_key key;
  if (auto d = derive_key(key, r.secret.span().first(nh), r.next_generation); !d) return d.error();
  if (r.next_generation == last_generation) {
    r.exhausted = true;
    crypto::ct::wipe(r.secret.span());
  } else {
    if (auto s = step(r.secret.span(), r.next_generation); !s) return s.error();
    ++r.next_generation;
  }
  return key;
}

result<void> secret_tree::check_distance(std::uint32_t leaf, ratchet_type type,
                                         std::uint32_t generation) const noexcept {
  if (leaf >= leaf_count_) return group_errc::invalid_argument;
  // A generation too far ahead is refused before anything is derived (RFC 9420 9.2).
  const ratchet& r = leaves_[leaf].ratchets[index_of(type)];
  const std::uint32_t next = r.started ? r.next_generation : 0;
  if (generation >= next && !r.exhausted && generation - next > limits_.max_forward_distance) {
    return group_errc::generation_too_far;
  }
  return {};
}

result<ratchet_key> secret_tree::key_for(std::uint32_t leaf, ratchet_type type, std::uint32_t generation) {
  if (auto far = check_distance(leaf, type, generation); !far) return far.error();
  auto rr = ratchet_of(leaf, type);
  if (!rr) return rr.error();
  ratchet& r = **rr;
  if (generation < r.next_generation || r.exhausted) {
    const auto it = r.skipped.find(generation);
    if (it == r.skipped.end()) return group_errc::generation_too_old;
    ratchet_key copy;
    copy.generation = it->second.generation;
    copy.key_size = it->second.key_size;
    copy.key = it->second.key.copy();
    copy.nonce = it->second.nonce.copy();
    return copy;
  }
  // Walk a copy of the ratchet forward; the ratchet itself changes only in consume.
  const std::size_t nh = suite_.hash_size();
  crypto::secret_array<max_hash_size> secret = r.secret.copy();
  for (std::uint32_t j = r.next_generation; j < generation; ++j) {
    if (auto s = step(secret.span(), j); !s) return s.error();
  }
  ratchet_key key;
  if (auto d = derive_key(key, secret.span().first(nh), generation); !d) return d.error();
  return key;
}

result<void> secret_tree::consume(std::uint32_t leaf, ratchet_type type, std::uint32_t generation) {
  if (auto far = check_distance(leaf, type, generation); !far) return far;
  auto rr = ratchet_of(leaf, type);
  if (!rr) return rr.error();
  ratchet& r = **rr;
  if (generation < r.next_generation || r.exhausted) {
    // An out-of-order generation: its kept key is deleted once used.
    if (r.skipped.erase(generation) == 0) return group_errc::generation_too_old;
    return {};
  }
  // Work on a copy so that a failure leaves the ratchet as it was.
  const std::size_t nh = suite_.hash_size();
  crypto::secret_array<max_hash_size> secret = r.secret.copy();
  std::map<std::uint32_t, ratchet_key> kept;
  const std::uint64_t new_next = std::uint64_t{generation} + 1;
  for (std::uint32_t j = r.next_generation; j < generation; ++j) {
    // Keep a skipped generation's key only when it stays inside the window.
    if (std::uint64_t{j} + limits_.max_skipped_keys + 1 >= new_next) {
      ratchet_key key;
      if (auto d = derive_key(key, secret.span().first(nh), j); !d) return d.error();
      kept.emplace(j, std::move(key));
    }
    if (auto s = step(secret.span(), j); !s) return s.error();
  }
  if (generation == last_generation) {
    r.exhausted = true;
    crypto::ct::wipe(secret.span());
  } else if (auto s = step(secret.span(), generation); !s) {
    return s.error();
  }
  // Commit: the new ratchet secret, the kept keys, and the window's pruning.
  r.secret = std::move(secret);
  r.next_generation = r.exhausted ? last_generation : generation + 1;
  r.skipped.merge(kept);
  for (auto it = r.skipped.begin(); it != r.skipped.end();) {
    if (std::uint64_t{it->first} + limits_.max_skipped_keys + 1 < new_next) {
      it = r.skipped.erase(it);
    } else {
      break;  // the map is ordered: the rest are newer
    }
  }
  return {};
}

result<std::uint32_t> secret_tree::next_generation(std::uint32_t leaf, ratchet_type type) {
  if (leaf >= leaf_count_) return group_errc::invalid_argument;
  const ratchet& r = leaves_[leaf].ratchets[index_of(type)];
  return r.started ? r.next_generation : 0;
}

std::size_t secret_tree::kept_keys(std::uint32_t leaf, ratchet_type type) const noexcept {
  if (leaf >= leaf_count_) return 0;
  return leaves_[leaf].ratchets[index_of(type)].skipped.size();
}

void secret_tree::erase_leaf(std::uint32_t leaf) noexcept {
  if (leaf >= leaf_count_) return;
  leaf_state& state = leaves_[leaf];
  state.erased = true;
  for (ratchet& r : state.ratchets) {
    crypto::ct::wipe(r.secret.span());
    r.skipped.clear();
    r.started = false;
  }
  nodes_[tree_math::leaf_node(leaf)].reset();
}

}  // namespace sealwire::record::group
