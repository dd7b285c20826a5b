// SPDX-License-Identifier: Apache-2.0
// The secret tree of RFC 9420 section 9: per-leaf handshake and application
// ratchets derived from an epoch's encryption_secret, keys and nonces per
// generation, and the deletion schedule of 9.2 (a consumed key is deleted,
// skipped keys are kept only within a window, replays and generations too far
// ahead are refused without deriving anything).
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/record/group/cipher_suite.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

namespace sealwire::record::group {

// ratchet_type chooses one of a leaf's two ratchets (RFC 9420 9.1): the
// handshake ratchet protects proposals and commits, the application
// ratchet application data.
enum class ratchet_type : std::uint8_t { handshake, application };

// secret_tree_limits is the deletion schedule's window (RFC 9420 9.2).
struct secret_tree_limits {
  // max_forward_distance is how far past a ratchet's next generation a
  // message may jump; one further is refused before any key is derived.
  std::uint32_t max_forward_distance = 1000;
  // max_skipped_keys is how many generations just below the newest one a
  // ratchet consumed keep their (unused) keys for out-of-order messages;
  // older keys are deleted and their messages refused as too old.
  std::uint32_t max_skipped_keys = 100;
};

// ratchet_key is one generation's AEAD key and nonce (RFC 9420 9.1:
// ratchet_key_[i]_[j], ratchet_nonce_[i]_[j]). Wiped on destruction.
struct ratchet_key {
  std::uint32_t generation = 0;                     // j
  std::size_t key_size = 0;                         // AEAD.Nk
  crypto::secret_array<max_aead_key_size> key;      // the first key_size bytes hold the key
  crypto::secret_array<aead_nonce_size> nonce;      // AEAD.Nn bytes
  // key_bytes views the key.
  [[nodiscard]] bytes_view key_bytes() const noexcept { return key.span().first(key_size); }
};

// secret_tree holds one epoch's secret tree. Node secrets are deleted as
// soon as their children are derived, ratchet secrets as soon as the next
// one is (RFC 9420 9.2). Movable, not copyable; destruction wipes.
class SEALWIRE_API secret_tree {
 public:
  // create starts the tree with encryption_secret (Nh bytes) at the root of
  // a tree of leaf_count leaves (a power of two, as RFC 9420 trees are).
  // Errors: group_errc::invalid_argument (secret size, leaf count, limits).
  [[nodiscard]] static result<secret_tree> create(const suite_algorithms& suite, bytes_view encryption_secret,
                                                  std::uint32_t leaf_count, const secret_tree_limits& limits = {});

  secret_tree(secret_tree&&) noexcept = default;  // movable
  secret_tree& operator=(secret_tree&&) noexcept = default;  // move-assignable
  secret_tree(const secret_tree&) = delete;
  secret_tree& operator=(const secret_tree&) = delete;
  ~secret_tree() = default;

  // leaf_count is the number of leaves.
  [[nodiscard]] std::uint32_t leaf_count() const noexcept { return leaf_count_; }
  // limits is the deletion schedule's window.
  [[nodiscard]] const secret_tree_limits& limits() const noexcept { return limits_; }

  // next_key is the sender's key: the leaf's ratchet's next generation,
  // consumed at once (the ratchet moves past it). Errors: invalid_argument
  // (leaf out of range), generation_exhausted, generation_too_old (the
  // leaf's secrets were erased).
  [[nodiscard]] result<ratchet_key> next_key(std::uint32_t leaf, ratchet_type type);

  // key_for is the receiver's key for generation of leaf's ratchet, without
  // consuming it: derive it, try it, then consume() it once the message
  // authenticated. Deriving a generation ahead of the ratchet computes the
  // skipped keys but changes nothing until consume. Errors: invalid_argument
  // (leaf out of range), generation_too_old (already consumed, or older than
  // the kept window), generation_too_far (beyond max_forward_distance: no
  // key is derived).
  [[nodiscard]] result<ratchet_key> key_for(std::uint32_t leaf, ratchet_type type, std::uint32_t generation);

  // consume deletes generation's key of leaf's ratchet after a message
  // under it authenticated: the ratchet moves past it, keeping the skipped
  // generations' keys within the window. Errors as key_for.
  [[nodiscard]] result<void> consume(std::uint32_t leaf, ratchet_type type, std::uint32_t generation);

  // next_generation is the first generation leaf's ratchet has not passed
  // (0 for a ratchet not started). Error: invalid_argument.
  [[nodiscard]] result<std::uint32_t> next_generation(std::uint32_t leaf, ratchet_type type);

  // kept_keys is the number of skipped keys leaf's ratchet holds (tests).
  [[nodiscard]] std::size_t kept_keys(std::uint32_t leaf, ratchet_type type) const noexcept;

  // derivations counts the KDF calls this tree made so far (tests and
  // benchmarks: a refused generation must not have derived anything).
  [[nodiscard]] std::uint64_t derivations() const noexcept { return derivations_; }

  // erase_leaf deletes every secret of a leaf (a removed member): later
  // requests for it fail with generation_too_old.
  void erase_leaf(std::uint32_t leaf) noexcept;

 private:
  struct ratchet {
    bool started = false;
    bool exhausted = false;
    std::uint32_t next_generation = 0;
    crypto::secret_array<max_hash_size> secret;  // ratchet_secret_[i]_[next_generation]
    std::map<std::uint32_t, ratchet_key> skipped;
  };
  struct leaf_state {
    bool erased = false;
    ratchet ratchets[2];
  };

  secret_tree(const suite_algorithms& suite, std::uint32_t leaf_count, const secret_tree_limits& limits);
  // start derives a leaf's two ratchet secrets from its node secret, taking
  // the path down from the nearest ancestor still held (RFC 9420 9).
  [[nodiscard]] result<void> start(std::uint32_t leaf);
  // check_distance refuses a leaf out of range or a generation beyond the
  // maximum forward distance, touching nothing.
  [[nodiscard]] result<void> check_distance(std::uint32_t leaf, ratchet_type type,
                                            std::uint32_t generation) const noexcept;
  [[nodiscard]] result<ratchet*> ratchet_of(std::uint32_t leaf, ratchet_type type);
  // derive_key writes generation's key and nonce from that generation's secret.
  [[nodiscard]] result<void> derive_key(ratchet_key& out, bytes_view secret, std::uint32_t generation) const;
  // step replaces secret (generation j) with generation j + 1's.
  [[nodiscard]] result<void> step(std::span<std::uint8_t> secret, std::uint32_t generation) const;

  suite_algorithms suite_;
  std::uint32_t leaf_count_ = 0;
  secret_tree_limits limits_;
  std::vector<std::optional<crypto::secret_bytes>> nodes_;  // tree_node_[N]_secret while held
  std::vector<leaf_state> leaves_;
  mutable std::uint64_t derivations_ = 0;
};

}  // namespace sealwire::record::group
