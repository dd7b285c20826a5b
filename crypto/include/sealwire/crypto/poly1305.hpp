// SPDX-License-Identifier: Apache-2.0
// Poly1305 (RFC 8439 section 2.5): a one-time authenticator, incremental or
// one-shot, with a constant-time tag check.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace sealwire::crypto {
namespace detail {

// Which vector kernel's powers of r a state holds.
enum class poly1305_powers : std::uint8_t { none, radix26x4, radix44x8 };

// poly1305_state is the accumulator h (radix 2^64, h[2] holds bits 128 and
// up) and the key halves r (clamped) and s. Every kernel leaves h in this
// form, so kernels can alternate within a message. The vector kernels also
// use powers of r, computed once a message is long enough.
struct poly1305_state {
  std::uint64_t h[3];
  std::uint64_t r[2];
  std::uint64_t s[2];
  std::uint64_t absorbed;  // blocks absorbed with this key
  poly1305_powers powers;  // what pw holds
  // Per-lane powers of r, limb by limb (see poly1305.cpp); wiped only when set.
  alignas(64) std::uint64_t pw[5 * 8];
};

}  // namespace detail

// poly1305 computes a tag over a message given in pieces of any size. A key
// must never be used for two messages.
class poly1305 {
 public:
  static constexpr std::size_t key_size = 32;
  static constexpr std::size_t tag_size = 16;
  static constexpr std::size_t block_size = 16;

  poly1305() noexcept : buf_len_(0) { st_.powers = detail::poly1305_powers::none; }
  explicit poly1305(std::span<const std::uint8_t, key_size> key) noexcept : poly1305() { init(key); }
  ~poly1305() { wipe(); }
  poly1305(const poly1305&) = delete;
  poly1305& operator=(const poly1305&) = delete;
  // Moving hands the state over and wipes the source.
  poly1305(poly1305&& other) noexcept : st_(other.st_), buf_len_(other.buf_len_) {
    std::memcpy(buf_, other.buf_, sizeof buf_);
    other.wipe();
  }
  poly1305& operator=(poly1305&& other) noexcept {
    if (this != &other) {
      st_ = other.st_;
      std::memcpy(buf_, other.buf_, sizeof buf_);
      buf_len_ = other.buf_len_;
      other.wipe();
    }
    return *this;
  }

  // init starts a new message with key = r || s.
  void init(std::span<const std::uint8_t, key_size> key) noexcept;

  // update absorbs message bytes. Whole 16-byte blocks go straight from `in`
  // to the kernel; only a partial block is buffered.
  void update(std::span<const std::uint8_t> in) noexcept;

  // pad16 zero-pads the message so far to a multiple of 16 bytes, as the
  // RFC 8439 AEAD construction does between AAD, ciphertext and lengths.
  void pad16() noexcept;

  // finish writes the tag and wipes the state; init before reuse.
  void finish(std::span<std::uint8_t, tag_size> tag) noexcept;

  // verify finishes and compares with `expected` in constant time.
  [[nodiscard]] bool verify(std::span<const std::uint8_t, tag_size> expected) noexcept;

  // mac computes the tag of a whole message.
  static void mac(std::span<std::uint8_t, tag_size> tag, std::span<const std::uint8_t> msg,
                  std::span<const std::uint8_t, key_size> key) noexcept;

  // provider names the kernel that runs for long inputs at the current CPU level.
  [[nodiscard]] static std::string_view provider() noexcept;

  // wipe clears the key, the accumulator, any powers of r and the buffer.
  void wipe() noexcept;

 private:
  detail::poly1305_state st_;
  std::uint8_t buf_[block_size];
  std::uint8_t buf_len_;
};

}  // namespace sealwire::crypto
