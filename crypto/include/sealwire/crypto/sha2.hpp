// SPDX-License-Identifier: Apache-2.0
// SHA-256, SHA-384 and SHA-512 (FIPS 180-4): incremental and one-shot, with
// copyable state. hmac.hpp and hkdf.hpp build on these; kdf.hpp chooses the
// hash at run time.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {
namespace detail {

struct SEALWIRE_API sha256_traits {
  using word = std::uint32_t;
  static constexpr std::size_t digest_size = 32;
  static constexpr std::size_t block_size = 64;
  static constexpr std::size_t length_bytes = 8;  // the message length field
  static const word iv[8];
  static void compress(word h[8], const std::uint8_t* blocks, std::size_t n) noexcept;
  static std::string_view provider() noexcept;
};

struct SEALWIRE_API sha512_traits {
  using word = std::uint64_t;
  static constexpr std::size_t digest_size = 64;
  static constexpr std::size_t block_size = 128;
  static constexpr std::size_t length_bytes = 16;
  static const word iv[8];
  static void compress(word h[8], const std::uint8_t* blocks, std::size_t n) noexcept;
  static std::string_view provider() noexcept;
};

// SHA-384 is SHA-512 with its own initial value, truncated (FIPS 180-4 6.5).
struct SEALWIRE_API sha384_traits : sha512_traits {
  static constexpr std::size_t digest_size = 48;
  static const word iv[8];
};

}  // namespace detail

// md_hash is the Merkle-Damgard driver shared by the SHA-2 hashes: whole
// blocks go straight from the input to the compression function, a partial
// block is buffered. Copy it to snapshot a hash mid-stream.
template <class Traits>
class SEALWIRE_API md_hash {
 public:
  // digest_size is the digest length in bytes: 32, 48 or 64.
  static constexpr std::size_t digest_size = Traits::digest_size;
  // block_size is the compression function's block in bytes: 64 or 128.
  static constexpr std::size_t block_size = Traits::block_size;
  // digest_span is an output of exactly digest_size bytes.
  using digest_span = std::span<std::uint8_t, digest_size>;

  md_hash() noexcept { reset(); }

  // reset starts a new message.
  void reset() noexcept;

  // update absorbs message bytes in pieces of any size.
  void update(std::span<const std::uint8_t> in) noexcept;

  // finish writes the digest; the object is reset for a new message.
  void finish(digest_span out) noexcept;

  // wipe clears the state (for keyed uses such as HMAC); reset before reuse.
  void wipe() noexcept;

  // hash computes the digest of a whole message.
  static void hash(digest_span out, std::span<const std::uint8_t> in) noexcept {
    md_hash h;
    h.update(in);
    h.finish(out);
  }

  // provider names the compression function that runs at the current CPU level.
  [[nodiscard]] static std::string_view provider() noexcept { return Traits::provider(); }

 private:
  typename Traits::word h_[8];
  std::uint8_t buf_[block_size];
  std::size_t buf_len_;
  std::uint64_t total_;  // bytes absorbed
};

// sha256 is SHA-256.
using sha256 = md_hash<detail::sha256_traits>;
// sha384 is SHA-384.
using sha384 = md_hash<detail::sha384_traits>;
// sha512 is SHA-512.
using sha512 = md_hash<detail::sha512_traits>;

extern template class md_hash<detail::sha256_traits>;
extern template class md_hash<detail::sha384_traits>;
extern template class md_hash<detail::sha512_traits>;

}  // namespace sealwire::crypto
