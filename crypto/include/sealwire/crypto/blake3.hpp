// SPDX-License-Identifier: Apache-2.0
// BLAKE3 (the BLAKE3 specification, O'Connor, Aumasson, Neves and
// Wilcox-O'Hearn, 2020): hash, keyed_hash and derive_key with extendable output.
// A primitive for hashing, MACs and key derivation of your own; for
// encryption start from box.hpp or hpke/single_shot.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// blake3 hashes a message given in pieces of any size, in one of the three
// modes of spec section 2.3, and produces output of any length (spec 2.6).
// It is copyable: copy it to snapshot a hash mid-stream and continue both
// copies. In keyed_hash and derive_key mode the state (which holds the key or
// the key material) is wiped on destruction.
//
// Whole chunks of the input go straight to the SIMD kernels of the current
// CPU level (provider()), many chunks at a time; only a partial chunk is
// buffered. Messages are limited to 2^64 - 1 bytes, outputs to 2^64 bytes.
class SEALWIRE_API blake3 {
 public:
  // key_size is the key length of keyed_hash mode in bytes.
  static constexpr std::size_t key_size = 32;
  // default_out_size is the standard output length in bytes.
  static constexpr std::size_t default_out_size = 32;
  // block_size is the compression function's block in bytes.
  static constexpr std::size_t block_size = 64;
  // chunk_size is the length in bytes of the chunks that form the tree's leaves.
  static constexpr std::size_t chunk_size = 1024;

  // blake3() starts a hash in the default (hash) mode.
  blake3() noexcept;

  // blake3(key) starts a hash in keyed_hash mode (a MAC or PRF).
  explicit blake3(std::span<const std::uint8_t, key_size> key) noexcept;

  // derive_key starts a hash in derive_key mode for a context string (spec
  // 2.3: hard-coded, globally unique, application specific); update() it with
  // the key material, then finalize to get the derived key.
  [[nodiscard]] static blake3 derive_key(std::string_view context) noexcept;

  // Copying snapshots the hash so far; both copies may continue.
  blake3(const blake3&) noexcept = default;
  // Copy assignment snapshots the hash so far, as the copy constructor does.
  blake3& operator=(const blake3&) noexcept = default;
  ~blake3();

  // update absorbs message bytes in pieces of any size.
  void update(std::span<const std::uint8_t> in) noexcept;

  // finalize writes the first out.size() bytes of the output (any length;
  // default_out_size is the standard hash). It does not change the state:
  // more input may follow, and finalize may be called again.
  void finalize(std::span<std::uint8_t> out) const noexcept;

  // output_reader reads the extendable output in pieces of any size and from
  // any offset. Reads in small pieces compress each 64-byte output block once.
  class output_reader {
   public:
    // Copying snapshots the reader at its position.
    output_reader(const output_reader&) noexcept = default;
    // Copy assignment snapshots the reader at its position.
    output_reader& operator=(const output_reader&) noexcept = default;
    ~output_reader();

    // read writes the next out.size() output bytes and advances the position.
    void read(std::span<std::uint8_t> out) noexcept;
    // seek moves to a byte offset in the output.
    void seek(std::uint64_t offset) noexcept { position_ = offset; }
    // position is the byte offset in the output that the next read starts at.
    [[nodiscard]] std::uint64_t position() const noexcept { return position_; }

   private:
    friend class blake3;
    output_reader() noexcept = default;

    // The root node's compression input (spec 2.6); output block i is its
    // compression with counter i and the ROOT flag.
    std::uint32_t cv_[8];
    std::uint8_t block_[block_size];
    std::uint32_t block_len_ = 0;
    std::uint32_t flags_ = 0;
    std::uint64_t position_ = 0;
    std::uint64_t cached_index_ = ~std::uint64_t{0};  // output block held in cached_, if any
    std::uint8_t cached_[block_size];
  };

  // finalize_xof returns a reader positioned at output offset 0. Like
  // finalize, it does not change the state.
  [[nodiscard]] output_reader finalize_xof() const noexcept;

  // reset returns to the initial state of this object's mode; the key (and
  // derive_key's context) is kept.
  void reset() noexcept;

  // hash, keyed_hash and derive_key compute out.size() bytes of output for a
  // whole message in one call.
  static void hash(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept;
  // keyed_hash is hash in keyed_hash mode under key.
  static void keyed_hash(std::span<std::uint8_t> out, std::span<const std::uint8_t, key_size> key,
                         std::span<const std::uint8_t> in) noexcept;
  // derive_key (one call) derives out.size() bytes from key_material for a
  // context string, in derive_key mode.
  static void derive_key(std::span<std::uint8_t> out, std::string_view context,
                         std::span<const std::uint8_t> key_material) noexcept;

  // hash_parallel is hash() spread over up to `threads` threads for large
  // inputs (opt-in); the output is identical to hash(). The calling thread
  // counts as one and works too; the others are helpers from a process-wide
  // pool, started on first use (as many as a call asks for, at most 63) and
  // kept until the process exits, so a call costs at most a wake-up rather
  // than a thread start. Between calls a helper polls for up to 100 us, then
  // sleeps; the caller, once its own share is done, polls for up to 200 us
  // for the helpers, then sleeps. The input is cut into aligned subtrees (a
  // power of two chunks) that shrink toward the end, from about a quarter
  // of a thread's share down to 32 KiB and then to whatever is left, which
  // the threads take in turn, so that they finish close together. Inputs
  // under 256 KiB, or threads <= 1, run on the
  // calling thread alone. The pool runs one call at a time: a call made
  // while another thread's call is running, or when a thread cannot be
  // started, continues with fewer helpers (at worst the calling thread
  // alone) instead of waiting or throwing. It is safe across fork(): a child
  // starts its own pool on first use. It pays only when other cores are
  // idle: a helper that is preempted holds up the result until it runs again.
  static void hash_parallel(std::span<std::uint8_t> out, std::span<const std::uint8_t> in, unsigned threads);

  // provider names the kernel set that runs at the current CPU level:
  // "portable", "sse41", "avx2" or "avx512".
  [[nodiscard]] static std::string_view provider() noexcept;

 private:
  blake3(const std::uint32_t key[8], std::uint32_t flags) noexcept;

  [[nodiscard]] std::size_t chunk_len() const noexcept { return blocks_done_ * block_size + buf_len_; }
  void chunk_update(const std::uint8_t* in, std::size_t n) noexcept;
  void compress_chunk_block(const std::uint8_t* block) noexcept;
  void finish_chunk() noexcept;
  void merge_stack(std::uint64_t counter) noexcept;
  void push_cv(const std::uint8_t* cv, std::uint64_t counter) noexcept;
  [[nodiscard]] bool holds_secrets() const noexcept;

  // The chaining-value stack (spec 5.1.2): one entry per level of a tree of
  // up to 2^54 chunks, plus one, as merges wait for the next push.
  static constexpr std::size_t max_stack = 55;

  std::uint32_t key_[8];           // key words: the IV, the key, or derive_key's context key
  std::uint32_t flags_;            // the mode's flags (spec 2.2, table 3)
  std::uint32_t chunk_cv_[8];      // chaining value of the chunk in progress
  std::uint64_t chunk_counter_;    // index of the chunk in progress
  std::uint8_t buf_[block_size];   // the chunk's last, not yet compressed, block
  std::uint8_t buf_len_;           // bytes in buf_
  std::uint8_t blocks_done_;       // blocks of the chunk in progress already compressed
  std::uint8_t stack_len_;         // entries in cv_stack_
  std::uint8_t cv_stack_[max_stack * 32];  // chaining values of finished subtrees, as bytes
};

}  // namespace sealwire::crypto
