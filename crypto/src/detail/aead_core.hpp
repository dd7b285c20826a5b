// SPDX-License-Identifier: Apache-2.0
// The states behind aead_key, aead_sealer and aead_opener's opaque storage:
// a keyed algorithm, the cipher and MAC of one message, and the opener's
// held-back tag bytes.
#pragma once

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/poly1305.hpp>

#include "gcm_state.hpp"
#include "stream_state.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto::detail {

enum class aead_phase : std::uint8_t { idle, aad, text, done, failed };

// How the Poly1305 input is laid out around the AAD and the ciphertext.
enum class aead_mac_format : std::uint8_t {
  rfc8439,    // aad, pad16, ct, pad16, le64(aad len), le64(ct len)
  original,   // aad, le64(aad len), ct, le64(ct len)
  secretbox,  // ct only
};

// aead_key_state is a key prepared for many messages: the raw key for the
// ChaCha/Salsa family (their per-message setup is a few word loads), the
// round keys, H and powers of H for AES-GCM.
struct aead_key_state {
  aead_algorithm alg = aead_algorithm::chacha20_poly1305;
  bool keyed = false;
  std::uint8_t key[32];  // ChaCha/Salsa family
  gcm_key gcm;           // AES-GCM (J0 and the accumulator unused)

  [[nodiscard]] result<void> init(aead_algorithm a, std::span<const std::uint8_t> k) noexcept;
  void wipe() noexcept;
};

// Bytes of ciphertext an opener of the ChaCha/Salsa family may stage for
// its MAC (see aead_core::stage): the room the GCM state leaves unused.
inline constexpr std::size_t aead_stage_bytes = 1408;
inline constexpr std::size_t aead_stage_group = 128;  // the IFMA lanes' 8 blocks

// aead_core is the keyed cipher and MAC of one message shared by sealer and
// opener: the stream cipher and Poly1305 for the ChaCha/Salsa family, the
// GCM state for AES-GCM. Only the part the current algorithm uses is
// initialised, copied on a move and wiped.
struct aead_core {
  stream_state cipher;
  poly1305 mac;
  union {
    gcm_state gcm;  // AES-GCM
    // ChaCha20-Poly1305 opened in small pieces: the MAC input not yet in the
    // MAC (ciphertext; at first possibly the last AAD bytes the lanes held),
    // from a group boundary of its live IFMA lanes (stage_len bytes). It
    // waits for the next keystream refill, whose stitched step takes its
    // whole groups, instead of a lanes call per group between refills.
    std::uint8_t stage[aead_stage_bytes];
  };
  // The MAC's live IFMA lanes once the opener's stitched path has checked
  // the CPU level and readied them (null otherwise): later pieces go
  // straight to chacha20_poly1305_open_ifma (see open_fused in aead.cpp).
  poly1305_state* lanes = nullptr;
  std::uint64_t aad_len = 0;
  std::uint64_t text_len = 0;
  std::uint64_t max_text = 0;
  aead_algorithm alg = aead_algorithm::chacha20_poly1305;
  aead_phase phase = aead_phase::idle;
  aead_mac_format format = aead_mac_format::rfc8439;
  // The Poly1305 key block is not generated yet: a one-shot call gets it
  // from the kernel that runs its first 1024 bytes (start_text), an
  // incremental opener beside the keystream for its first piece
  // (key_deferred), holding the associated data in the stage meanwhile.
  bool key_pending = false;
  // Bytes in stage: the text phase's MAC input (see stage), or the
  // associated data held while key_pending.
  std::uint16_t stage_len = 0;

  aead_core() noexcept = default;
  aead_core(const aead_core&) = delete;
  aead_core& operator=(const aead_core&) = delete;
  // move_from takes other's message state and wipes other.
  void move_from(aead_core& other) noexcept;
  ~aead_core() { wipe(); }

  // start begins a message under a prepared key; `text` is the message's
  // length when known (one-shot calls), else 0; `defer_key` (the
  // incremental opener) defers the Poly1305 key block to the first text
  // (key_deferred) where the CPU level has the key kernel. Error: invalid_nonce.
  [[nodiscard]] result<void> start(const aead_key_state& key, std::span<const std::uint8_t> nonce,
                                   std::size_t text = 0, bool defer_key = false) noexcept;
  // start_gcm begins an AES-GCM message with an IV of any non-zero length
  // (SP 800-38D 7.1). Error: invalid_nonce.
  [[nodiscard]] result<void> start_gcm(const aead_key_state& key, std::span<const std::uint8_t> iv) noexcept;
  // start_text, for a one-shot call whose start left key_pending: runs the
  // first 1024 bytes of text (in to out, in place or not) together with
  // the key block when it can (out not null) and keys the MAC, else
  // generates the key block alone; returns the bytes of text done (1024 or 0), which the
  // caller then MACs after the associated data.
  std::size_t start_text(std::uint8_t* out, const std::uint8_t* in) noexcept;
  // key_deferred keys the MAC of a message whose start deferred the key
  // block (key_pending, nothing generated yet) and feeds it the associated
  // data held in the stage. With a first piece of `first_text` bytes from
  // open_stitch_min (aead.cpp) to under two stitched steps (2048) the key
  // block comes from the kernel that generates the buffer's sixteen blocks
  // of keystream, else alone.
  void key_deferred(std::size_t first_text) noexcept;
  void add_aad(std::span<const std::uint8_t> aad) noexcept;
  // begin_text ends the associated data (keying a deferred MAC first, see
  // key_deferred; `first_text` is the first piece's size, 0 if unknown).
  void begin_text(std::size_t first_text = 0) noexcept;
  // crypt runs the cipher only; encrypt and decrypt also feed the MAC with
  // the ciphertext, chunk by chunk while it is in L1.
  void crypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
  // encrypt's `after`: text bytes the caller encrypts next (the second part
  // of aead_sealer's two-part update), so that a short rest can share the
  // stitched kernel's last block.
  void encrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n, std::size_t after = 0) noexcept;
  void decrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
  // decrypt_parts decrypts the text a (an bytes) followed by b (bn bytes)
  // into out as one piece (the trailing-tag opener's held bytes and input),
  // without joining them first. out may equal b only when an is 0.
  void decrypt_parts(std::uint8_t* out, const std::uint8_t* a, std::size_t an, const std::uint8_t* b,
                     std::size_t bn) noexcept;
  // flush_stage hands the staged ciphertext to the MAC (update).
  void flush_stage() noexcept;
  void compute_tag(std::span<std::uint8_t, aead_tag_size> tag) noexcept;
  void wipe() noexcept;
  [[nodiscard]] std::string_view provider() const noexcept;
};

// aead_opener_state adds the opener's held-back bytes and sticky failure.
struct aead_opener_state {
  aead_core core;
  std::uint8_t held[aead_tag_size] = {};
  std::uint8_t held_len = 0;
  tag_position position = tag_position::detached;
  crypto_errc failure{};
};

static_assert(sizeof(aead_key_state) <= aead_key_storage && alignof(aead_key_state) <= 64);
static_assert(aead_stage_bytes <= sizeof(gcm_state) && aead_stage_bytes % aead_stage_group == 0);
static_assert(sizeof(aead_core) <= aead_core_storage && alignof(aead_core) <= 64);
static_assert(sizeof(aead_opener_state) <= aead_opener_storage && alignof(aead_opener_state) <= 64);

}  // namespace sealwire::crypto::detail
