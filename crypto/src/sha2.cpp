// SPDX-License-Identifier: Apache-2.0
// SHA-256, SHA-384 and SHA-512 (FIPS 180-4): initial values, the portable
// compression functions, kernel selection and the Merkle-Damgard driver.
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/sha2.hpp>

#include "detail/cpu_features.hpp"
#include "detail/sha2_core.hpp"

#include <algorithm>
#include <cstring>

namespace sealwire::crypto {
namespace detail {

// FIPS 180-4 5.3.3, 5.3.5, 5.3.4.
const std::uint32_t sha256_traits::iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
const std::uint64_t sha512_traits::iv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                            0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                            0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
const std::uint64_t sha384_traits::iv[8] = {0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17,
                                            0x152fecd8f70e5939, 0x67332667ffc00b31, 0x8eb44a8768581511,
                                            0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4};

void sha256_compress_portable(std::uint32_t h[8], const std::uint8_t* in, std::size_t n) noexcept {
  sha2_compress<std::uint32_t, 64>(h, in, n, sha256_k);
}

void sha512_compress_portable(std::uint64_t h[8], const std::uint8_t* in, std::size_t n) noexcept {
  sha2_compress<std::uint64_t, 80>(h, in, n, sha512_k);
}

#if SEALWIRE_X86_KERNELS
void sha256_compress_shani(std::uint32_t h[8], const std::uint8_t* in, std::size_t n) noexcept;
void sha256_compress_bmi2(std::uint32_t h[8], const std::uint8_t* in, std::size_t n) noexcept;
void sha512_compress_bmi2(std::uint64_t h[8], const std::uint8_t* in, std::size_t n) noexcept;
void sha512_compress_avx2(std::uint64_t h[8], const std::uint8_t* in, std::size_t n) noexcept;
void sha512_compress_avx512(std::uint64_t h[8], const std::uint8_t* in, std::size_t n) noexcept;
#endif

namespace {

template <class Fn>
struct compress_kernel {
  std::string_view name;
  Fn fn;
};
using sha256_fn = void (*)(std::uint32_t*, const std::uint8_t*, std::size_t) noexcept;
using sha512_fn = void (*)(std::uint64_t*, const std::uint8_t*, std::size_t) noexcept;

compress_kernel<sha256_fn> sha256_kernel() noexcept {
#if SEALWIRE_X86_KERNELS
  const std::uint32_t f = detail::cpu_features();
  if ((f & (cpu::sha_ni | cpu::sse41 | cpu::ssse3)) == (cpu::sha_ni | cpu::sse41 | cpu::ssse3)) {
    return {"sha_ni", &sha256_compress_shani};
  }
  if ((f & cpu::bmi2) != 0) return {"bmi2", &sha256_compress_bmi2};
#endif
  return {"portable", &sha256_compress_portable};
}

compress_kernel<sha512_fn> sha512_kernel() noexcept {
#if SEALWIRE_X86_KERNELS
  const std::uint32_t f = detail::cpu_features();
  constexpr std::uint32_t avx512_needs = cpu::avx512f | cpu::avx512vl | cpu::avx512bw | cpu::avx2 | cpu::bmi2;
  if ((f & avx512_needs) == avx512_needs) return {"avx512", &sha512_compress_avx512};
  if ((f & (cpu::avx2 | cpu::bmi2)) == (cpu::avx2 | cpu::bmi2)) return {"avx2", &sha512_compress_avx2};
  if ((f & cpu::bmi2) != 0) return {"bmi2", &sha512_compress_bmi2};
#endif
  return {"portable", &sha512_compress_portable};
}

template <class W>
void store_be(std::uint8_t* out, W v) noexcept {
  if constexpr (sizeof(W) == 4) {
    store32_le(out, __builtin_bswap32(v));
  } else {
    store64_le(out, __builtin_bswap64(v));
  }
}

}  // namespace

void sha256_traits::compress(word h[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  sha256_kernel().fn(h, blocks, n);
}
std::string_view sha256_traits::provider() noexcept { return sha256_kernel().name; }

void sha512_traits::compress(word h[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  sha512_kernel().fn(h, blocks, n);
}
std::string_view sha512_traits::provider() noexcept { return sha512_kernel().name; }

}  // namespace detail

template <class Traits>
void md_hash<Traits>::reset() noexcept {
  std::memcpy(h_, Traits::iv, sizeof h_);
  buf_len_ = 0;
  total_ = 0;
}

template <class Traits>
void md_hash<Traits>::wipe() noexcept {
  ct::wipe(h_, sizeof h_);
  ct::wipe(buf_, sizeof buf_);
  buf_len_ = 0;
  total_ = 0;
}

template <class Traits>
void md_hash<Traits>::update(std::span<const std::uint8_t> in) noexcept {
  if (in.empty()) return;
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  total_ += n;
  if (buf_len_ != 0) {
    const std::size_t take = std::min(n, block_size - buf_len_);
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    n -= take;
    if (buf_len_ < block_size) return;
    Traits::compress(h_, buf_, 1);
    buf_len_ = 0;
  }
  if (n >= block_size) {
    const std::size_t blocks = n / block_size;
    Traits::compress(h_, p, blocks);
    p += blocks * block_size;
    n -= blocks * block_size;
  }
  if (n != 0) {
    std::memcpy(buf_, p, n);
    buf_len_ = n;
  }
}

template <class Traits>
void md_hash<Traits>::finish(digest_span out) noexcept {
  // FIPS 180-4 5.1: a 1 bit, zeros, then the length in bits, big-endian.
  buf_[buf_len_++] = 0x80;
  if (buf_len_ > block_size - Traits::length_bytes) {
    std::memset(buf_ + buf_len_, 0, block_size - buf_len_);
    Traits::compress(h_, buf_, 1);
    buf_len_ = 0;
  }
  std::memset(buf_ + buf_len_, 0, block_size - buf_len_);
  detail::store64_le(buf_ + block_size - 8, __builtin_bswap64(total_ << 3));
  if constexpr (Traits::length_bytes == 16) {
    detail::store64_le(buf_ + block_size - 16, __builtin_bswap64(total_ >> 61));
  }
  Traits::compress(h_, buf_, 1);
  using word = typename Traits::word;
  std::uint8_t full[8 * sizeof(word)];
  for (int i = 0; i < 8; ++i) detail::store_be(full + sizeof(word) * static_cast<std::size_t>(i), h_[i]);
  std::memcpy(out.data(), full, digest_size);
  ct::wipe(full, sizeof full);
  ct::wipe(buf_, sizeof buf_);
  reset();
}

template class md_hash<detail::sha256_traits>;
template class md_hash<detail::sha384_traits>;
template class md_hash<detail::sha512_traits>;

}  // namespace sealwire::crypto
