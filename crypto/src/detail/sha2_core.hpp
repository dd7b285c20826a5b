// SPDX-License-Identifier: Apache-2.0
// The SHA-256 and SHA-512 compression functions (FIPS 180-4 6.2.2, 6.4.2)
// with the eight working variables in locals. Internal linkage, so the BMI2
// build of the same code can include it.
#pragma once

#include "bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sealwire::crypto::detail {

static inline std::uint32_t load32_be(const std::uint8_t* p) noexcept { return __builtin_bswap32(load32_le(p)); }
static inline std::uint64_t load64_be(const std::uint8_t* p) noexcept { return __builtin_bswap64(load64_le(p)); }

template <class W, int N>
static inline W rotr(W x) noexcept {
  return (x >> N) | (x << (8 * sizeof(W) - N));
}

// FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube
// roots of the first 64 primes.
alignas(64) static constexpr std::uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// FIPS 180-4 4.2.3: the first 64 bits of the fractional parts of the cube
// roots of the first 80 primes.
alignas(64) static constexpr std::uint64_t sha512_k[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
    0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
    0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
    0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
    0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
    0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
    0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
    0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
    0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
    0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817};

// The rotation and shift amounts of the two hash sizes (FIPS 180-4 4.1.2, 4.1.3).
template <class W>
struct sha2_sigma;
template <>
struct sha2_sigma<std::uint32_t> {
  static constexpr int S0[3] = {2, 13, 22}, S1[3] = {6, 11, 25}, s0[3] = {7, 18, 3}, s1[3] = {17, 19, 10};
};
template <>
struct sha2_sigma<std::uint64_t> {
  static constexpr int S0[3] = {28, 34, 39}, S1[3] = {14, 18, 41}, s0[3] = {1, 8, 7}, s1[3] = {19, 61, 6};
};

template <class W>
[[gnu::always_inline]] static inline W big_sigma0(W x) noexcept {
  using s = sha2_sigma<W>;
  return rotr<W, s::S0[0]>(x) ^ rotr<W, s::S0[1]>(x) ^ rotr<W, s::S0[2]>(x);
}
template <class W>
[[gnu::always_inline]] static inline W big_sigma1(W x) noexcept {
  using s = sha2_sigma<W>;
  return rotr<W, s::S1[0]>(x) ^ rotr<W, s::S1[1]>(x) ^ rotr<W, s::S1[2]>(x);
}
template <class W>
[[gnu::always_inline]] static inline W small_sigma0(W x) noexcept {
  using s = sha2_sigma<W>;
  return rotr<W, s::s0[0]>(x) ^ rotr<W, s::s0[1]>(x) ^ (x >> s::s0[2]);
}
template <class W>
[[gnu::always_inline]] static inline W small_sigma1(W x) noexcept {
  using s = sha2_sigma<W>;
  return rotr<W, s::s1[0]>(x) ^ rotr<W, s::s1[1]>(x) ^ (x >> s::s1[2]);
}

// The order a round sums its terms in. Both orders compute the same round;
// they differ only in how g++ schedules and allocates them, and which is
// faster depends on the kernel around the rounds (measured 2026-12-04 on
// this project's AMD Zen 5 machine, g++ 12): `late` makes the AVX-512 kernel
// about 1.5% faster from 16 KiB up (and 2% slower on 1 KiB) and the AVX2
// kernel about 15% slower. A third order, with the new e summed as d + h + K
// + W before Ch and Sigma1, was 40% slower: g++ ran out of registers.
enum class sha2_order { standard, late };

// One round; the caller rotates the roles of a..h instead of moving values.
// standard: Ch and Maj in their three-operation forms; h + K + W does not
// wait for e. late: Sigma1(e) is the last term of T1 and Maj is split into
// (b & c) + (a & (b ^ c)), which never share a set bit, so its part that
// waits for a is one AND; Sigma0(a) is the last term of the new a.
template <class W, sha2_order O = sha2_order::standard>
[[gnu::always_inline]] static inline void sha2_round(W a, W b, W c, W& d, W e, W f, W g, W& h, W kw) noexcept {
  if constexpr (O == sha2_order::standard) {
    const W t1 = (h + kw) + (big_sigma1(e) + (((f ^ g) & e) ^ g));
    const W t2 = big_sigma0(a) + (((a ^ b) & (b ^ c)) ^ b);
    d += t1;
    h = t1 + t2;
  } else {
    const W t1 = ((h + kw) + (((f ^ g) & e) ^ g)) + big_sigma1(e);
    d += t1;
    h = ((t1 + (b & c)) + (a & (b ^ c))) + big_sigma0(a);
  }
}

// sha2_eight_rounds runs rounds t..t+7 on the working variables v[0..7],
// taking K[i] + W[i] from kw(i) and calling between(std::integral_constant<
// int, K>) after rounds t+1, t+3, t+5 and t+7 (K = 0..3): the vector kernels
// compute message-schedule words there while the scalar rounds run.
template <class W, sha2_order O = sha2_order::standard, class KW, class Between>
[[gnu::always_inline]] static inline void sha2_eight_rounds(W v[8], int t, KW kw, Between between) noexcept {
  W a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
  sha2_round<W, O>(a, b, c, d, e, f, g, h, kw(t + 0));
  sha2_round<W, O>(h, a, b, c, d, e, f, g, kw(t + 1));
  between(std::integral_constant<int, 0>{});
  sha2_round<W, O>(g, h, a, b, c, d, e, f, kw(t + 2));
  sha2_round<W, O>(f, g, h, a, b, c, d, e, kw(t + 3));
  between(std::integral_constant<int, 1>{});
  sha2_round<W, O>(e, f, g, h, a, b, c, d, kw(t + 4));
  sha2_round<W, O>(d, e, f, g, h, a, b, c, kw(t + 5));
  between(std::integral_constant<int, 2>{});
  sha2_round<W, O>(c, d, e, f, g, h, a, b, kw(t + 6));
  sha2_round<W, O>(b, c, d, e, f, g, h, a, kw(t + 7));
  between(std::integral_constant<int, 3>{});
  v[0] = a;
  v[1] = b;
  v[2] = c;
  v[3] = d;
  v[4] = e;
  v[5] = f;
  v[6] = g;
  v[7] = h;
}

// sha2_add_state ends a block: h += v, and v starts the next block from h.
template <class W>
[[gnu::always_inline]] static inline void sha2_add_state(W h[8], W v[8]) noexcept {
  for (int j = 0; j < 8; ++j) {
    v[j] += h[j];
    h[j] = v[j];
  }
}

// sha2_compress runs `rounds` rounds over n blocks, with the message
// schedule in a rolling window of sixteen words.
template <class W, int Rounds>
[[gnu::always_inline]] static inline void sha2_compress(W st[8], const std::uint8_t* in, std::size_t n,
                                                        const W* k) noexcept {
  constexpr std::size_t wb = sizeof(W);
  for (; n != 0; --n, in += 16 * wb) {
    W w[16];
    for (int i = 0; i < 16; ++i) {
      if constexpr (wb == 4) {
        w[i] = load32_be(in + 4 * i);
      } else {
        w[i] = load64_be(in + 8 * i);
      }
    }
    W a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    // Fully unrolled, so every schedule index is a constant.
#pragma GCC unroll 16
    for (int t = 0; t < Rounds; t += 8) {
      if (t >= 16) {
#pragma GCC unroll 8
        for (int i = 0; i < 8; ++i) {
          const int j = (t + i) & 15;
          w[j] += small_sigma1(w[(j + 14) & 15]) + w[(j + 9) & 15] + small_sigma0(w[(j + 1) & 15]);
        }
      }
      const int j = t & 15;
      sha2_round(a, b, c, d, e, f, g, h, k[t + 0] + w[j + 0]);
      sha2_round(h, a, b, c, d, e, f, g, k[t + 1] + w[j + 1]);
      sha2_round(g, h, a, b, c, d, e, f, k[t + 2] + w[j + 2]);
      sha2_round(f, g, h, a, b, c, d, e, k[t + 3] + w[j + 3]);
      sha2_round(e, f, g, h, a, b, c, d, k[t + 4] + w[j + 4]);
      sha2_round(d, e, f, g, h, a, b, c, k[t + 5] + w[j + 5]);
      sha2_round(c, d, e, f, g, h, a, b, k[t + 6] + w[j + 6]);
      sha2_round(b, c, d, e, f, g, h, a, k[t + 7] + w[j + 7]);
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
    st[4] += e;
    st[5] += f;
    st[6] += g;
    st[7] += h;
  }
}

}  // namespace sealwire::crypto::detail
