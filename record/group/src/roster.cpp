// SPDX-License-Identifier: Apache-2.0
// RFC 9420 7.7, 7.8 and 12.4.3.3 for a tree whose parent nodes are blank:
// adding and removing leaves, the tree hash, the ratchet_tree extension form.
#include <sealwire/record/group/roster.hpp>

#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/tree_math.hpp>

#include <algorithm>
#include <array>
#include <bit>

namespace sealwire::record::group {
namespace {

// subtree_hash is the tree hash of leaves [first, first + count) (count a
// power of two). A leaf hashes TreeHashInput{leaf, LeafNodeHashInput{index,
// optional<LeafNode>}}, a parent TreeHashInput{parent,
// ParentNodeHashInput{optional<ParentNode> (blank here), left_hash,
// right_hash}} (RFC 9420 7.8).
result<bytes> subtree_hash(const suite_algorithms& suite, const std::vector<std::optional<leaf_node>>& leaves,
                           std::uint32_t first, std::uint32_t count) {
  writer w;
  if (count == 1) {
    w.u8(static_cast<std::uint8_t>(node_type::leaf));
    w.u32(first);
    w.presence(leaves[first].has_value());
    if (leaves[first]) encode(w, *leaves[first]);
  } else {
    auto left = subtree_hash(suite, leaves, first, count / 2);
    if (!left) return left.error();
    auto right = subtree_hash(suite, leaves, first + count / 2, count / 2);
    if (!right) return right.error();
    w.u8(static_cast<std::uint8_t>(node_type::parent));
    w.presence(false);
    w.opaque(*left);
    w.opaque(*right);
  }
  if (!w.ok()) return w.error();
  bytes out(suite.hash_size());
  suite.digest(out, {w.data()});
  return out;
}

}  // namespace

roster::roster(leaf_node first) { leaves_.emplace_back(std::move(first)); }

std::size_t roster::member_count() const noexcept {
  return static_cast<std::size_t>(std::ranges::count_if(leaves_, [](const auto& l) { return l.has_value(); }));
}

result<std::uint32_t> roster::add(leaf_node leaf) {
  const auto blank = std::ranges::find_if(leaves_, [](const auto& l) { return !l.has_value(); });
  if (blank != leaves_.end()) {
    *blank = std::move(leaf);
    return static_cast<std::uint32_t>(blank - leaves_.begin());
  }
  if (leaves_.size() > tree_math::max_leaves / 2) return group_errc::invalid_argument;
  const auto index = static_cast<std::uint32_t>(leaves_.size());
  leaves_.resize(leaves_.empty() ? 1 : leaves_.size() * 2);
  leaves_[index] = std::move(leaf);
  return index;
}

void roster::remove(std::uint32_t i) {
  if (i >= leaves_.size()) return;
  leaves_[i].reset();
  // Truncate while the right subtree of the root is blank (RFC 9420 7.7).
  while (leaves_.size() > 1) {
    const std::size_t half = leaves_.size() / 2;
    if (std::any_of(leaves_.begin() + static_cast<std::ptrdiff_t>(half), leaves_.end(),
                    [](const auto& l) { return l.has_value(); })) {
      break;
    }
    leaves_.resize(half);
  }
}

void roster::replace(std::uint32_t i, leaf_node leaf) { leaves_[i] = std::move(leaf); }

std::optional<std::uint32_t> roster::find(const leaf_node& leaf) const noexcept {
  for (std::uint32_t i = 0; i < leaves_.size(); ++i) {
    if (leaves_[i] && *leaves_[i] == leaf) return i;
  }
  return std::nullopt;
}

bool roster::holds_key(bytes_view key) const noexcept {
  return std::ranges::any_of(leaves_, [&](const auto& l) {
    return l && (std::ranges::equal(l->encryption_key, key) || std::ranges::equal(l->signature_key, key));
  });
}

result<bytes> roster::tree_hash(const suite_algorithms& suite) const {
  if (leaves_.empty()) return group_errc::invalid_tree;
  return subtree_hash(suite, leaves_, 0, leaf_count());
}

ratchet_tree roster::to_ratchet_tree() const {
  ratchet_tree t;
  if (leaves_.empty()) return t;
  t.nodes.resize(leaves_.size() * 2 - 1);
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    if (leaves_[i]) t.nodes[2 * i] = node{*leaves_[i]};
  }
  while (!t.nodes.empty() && !t.nodes.back()) t.nodes.pop_back();
  return t;
}

result<roster> roster::from_ratchet_tree(const ratchet_tree& tree) {
  // The last node is a leaf (RFC 9420 12.4.3.3: no trailing blank), so the
  // array has odd length; the full tree has the next power of two of leaves.
  if (tree.nodes.empty() || tree.nodes.size() % 2 == 0 || !tree.nodes.back()) return group_errc::invalid_tree;
  const std::size_t given_leaves = (tree.nodes.size() + 1) / 2;
  if (given_leaves > tree_math::max_leaves) return group_errc::invalid_tree;
  roster r;
  r.leaves_.resize(std::bit_ceil(given_leaves));
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const auto& n = tree.nodes[i];
    if (!n) continue;
    if (i % 2 == 1 || n->type() != node_type::leaf) return group_errc::invalid_tree;
    r.leaves_[i / 2] = std::get<leaf_node>(n->value);
  }
  return r;
}

std::vector<bytes> roster::signature_keys() const {
  std::vector<bytes> keys(leaves_.size());
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    if (leaves_[i]) keys[i] = leaves_[i]->signature_key;
  }
  return keys;
}

}  // namespace sealwire::record::group
