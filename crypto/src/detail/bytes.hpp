// SPDX-License-Identifier: Apache-2.0
// Little-endian loads and stores and rotations. The functions have internal
// linkage (static) so instruction-set files may include this header without
// sharing an inline copy compiled for a newer CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sealwire::crypto::detail {

// 128-bit arithmetic for carries and 64x64 products (GCC and Clang).
__extension__ typedef unsigned __int128 u128;

static inline std::uint32_t load32_le(const std::uint8_t* p) noexcept {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

static inline void store32_le(std::uint8_t* p, std::uint32_t v) noexcept {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  std::memcpy(p, &v, 4);
}

static inline std::uint64_t load64_le(const std::uint8_t* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

static inline void store64_le(std::uint8_t* p, std::uint64_t v) noexcept {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  std::memcpy(p, &v, 8);
}

static inline std::uint32_t rotl32(std::uint32_t x, int n) noexcept {
  return (x << n) | (x >> (32 - n));
}

// rotl<N> on one word; the vector headers overload it for their lane types,
// so the round functions are written once for scalars and vectors.
template <int N>
static inline std::uint32_t rotl(std::uint32_t x) noexcept {
  return (x << N) | (x >> (32 - N));
}

// A 16-byte vector (GCC/Clang vector extension; SSE2, the x86-64 baseline,
// or plain registers elsewhere). Loaded and stored with memcpy: unaligned.
typedef std::uint8_t v16u8 __attribute__((vector_size(16)));

// xor_bytes writes a ^ b to out for n bytes, 16 at a time; out may equal a
// (in place) or not overlap it. The last 16 bytes of a run that is not a
// multiple of 16 overlap the chunk before; they are loaded before anything is
// stored, so an in-place call does not XOR them twice.
static inline void xor_bytes(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  if (n >= 16) {
    v16u8 x, y;
    std::memcpy(&x, a + n - 16, 16);
    std::memcpy(&y, b + n - 16, 16);
    const v16u8 last = x ^ y;
    for (std::size_t i = 0; i + 16 <= n; i += 16) {
      std::memcpy(&x, a + i, 16);
      std::memcpy(&y, b + i, 16);
      x ^= y;
      std::memcpy(out + i, &x, 16);
    }
    std::memcpy(out + n - 16, &last, 16);
    return;
  }
  if (n >= 8) {
    std::uint64_t x, y, z, w;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    std::memcpy(&z, a + n - 8, 8);
    std::memcpy(&w, b + n - 8, 8);
    x ^= y;
    z ^= w;
    std::memcpy(out + n - 8, &z, 8);
    std::memcpy(out, &x, 8);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(a[i] ^ b[i]);
}

// copy_small copies n <= 16 bytes with at most two overlapping moves per size
// class instead of a call into the C library (partial blocks, held-back tags).
static inline void copy_small(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) noexcept {
  if (n >= 8) {
    std::uint64_t a, b;
    std::memcpy(&a, src, 8);
    std::memcpy(&b, src + n - 8, 8);
    std::memcpy(dst, &a, 8);
    std::memcpy(dst + n - 8, &b, 8);
  } else if (n >= 4) {
    std::uint32_t a, b;
    std::memcpy(&a, src, 4);
    std::memcpy(&b, src + n - 4, 4);
    std::memcpy(dst, &a, 4);
    std::memcpy(dst + n - 4, &b, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

}  // namespace sealwire::crypto::detail
