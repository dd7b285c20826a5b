// SPDX-License-Identifier: Apache-2.0
// BLAKE3 for AVX-512F/VL, row-wise (the BLAKE3 specification, 2020):
// hash_many for the small parent levels of a tree (the tree sends it levels
// of 2 and 4 parents; any count up to 8 and beyond works and is tested), the
// three levels from sixteen chaining values to two in one call, a single
// compression, and (on Intel) sixteen chunks through the column-wise
// assembly loop followed by those three levels. Each input's sixteen state
// words are four rows of four words in one 128-bit lane; four inputs share a
// 512-bit vector (eight: two vectors, their chains interleaved), two a
// 256-bit one, one a 128-bit one. G runs on whole rows (the four columns at
// once, then the four diagonals), so a compression is about as long as one
// input's dependency chain whatever the number of inputs, where the
// column-wise kernels need sixteen vectors per input group and a full group
// to pay.
//
// Diagonals: rows a, c and d are rotated within their lane (b, the last
// row G finishes, stays put, so the rotation is off the critical path), so
// that column j holds diagonal j - 1 (mod 4); the message words are ordered
// to match.
//
// Message: per round four vectors, each lane holding one input's words
//   x = (m0, m2, m4, m6), y = (m1, m3, m5, m7)     for the columns,
//   z = (m14, m8, m10, m12), w = (m15, m9, m11, m13) for the diagonals,
// in the round's permuted order (spec 2.2, table 2). The next round's four
// come from these with lane-local two-source permutations (vpermt2d, the
// index repeated per lane), seven per round; for a single state, whose
// time is G's chain, with eleven one-cycle shuffles and blends instead.
#include <immintrin.h>

#include "detail/blake3_avx512.hpp"
#include "detail/blake3_core.hpp"

namespace sealwire::crypto::detail {
namespace {

// The three vector widths as lane types for blake3_g (blake3_core.hpp):
// +, ^ and rotr<N> (vprord) on 32-bit words, plus the lane-local shuffles.
struct rows512 {
  static constexpr int lanes = 4;
  __m512i v;
  template <int Imm>
  static rows512 shuffle(rows512 x) {
    return {_mm512_shuffle_epi32(x.v, static_cast<_MM_PERM_ENUM>(Imm))};
  }
  static rows512 perm2(rows512 a, __m512i idx, rows512 b) { return {_mm512_permutex2var_epi32(a.v, idx, b.v)}; }
  template <int Imm>
  static rows512 shuffle2(rows512 a, rows512 b) {
    return {_mm512_castps_si512(_mm512_shuffle_ps(_mm512_castsi512_ps(a.v), _mm512_castsi512_ps(b.v), Imm))};
  }
  template <int Mask>
  static rows512 blend(rows512 a, rows512 b) {
    return {_mm512_mask_blend_epi32(static_cast<__mmask16>(Mask * 0x1111), a.v, b.v)};
  }
  static rows512 unpacklo(rows512 a, rows512 b) { return {_mm512_unpacklo_epi32(a.v, b.v)}; }
  static __m512i index(const int (&i)[16]) {
    return _mm512_setr_epi32(i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7], i[8], i[9], i[10], i[11], i[12], i[13],
                             i[14], i[15]);
  }
};
inline rows512 operator+(rows512 a, rows512 b) { return {_mm512_add_epi32(a.v, b.v)}; }
inline rows512 operator^(rows512 a, rows512 b) { return {_mm512_xor_si512(a.v, b.v)}; }
template <int N>
inline rows512 rotr(rows512 x) {
  return {_mm512_ror_epi32(x.v, N)};
}

struct rows256 {
  static constexpr int lanes = 2;
  __m256i v;
  template <int Imm>
  static rows256 shuffle(rows256 x) {
    return {_mm256_shuffle_epi32(x.v, Imm)};
  }
  static rows256 perm2(rows256 a, __m256i idx, rows256 b) { return {_mm256_permutex2var_epi32(a.v, idx, b.v)}; }
  template <int Imm>
  static rows256 shuffle2(rows256 a, rows256 b) {
    return {_mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a.v), _mm256_castsi256_ps(b.v), Imm))};
  }
  template <int Mask>
  static rows256 blend(rows256 a, rows256 b) {
    return {_mm256_blend_epi32(a.v, b.v, Mask * 0x11)};
  }
  static rows256 unpacklo(rows256 a, rows256 b) { return {_mm256_unpacklo_epi32(a.v, b.v)}; }
  static __m256i index(const int (&i)[16]) { return _mm256_setr_epi32(i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7]); }
};
inline rows256 operator+(rows256 a, rows256 b) { return {_mm256_add_epi32(a.v, b.v)}; }
inline rows256 operator^(rows256 a, rows256 b) { return {_mm256_xor_si256(a.v, b.v)}; }
template <int N>
inline rows256 rotr(rows256 x) {
  return {_mm256_ror_epi32(x.v, N)};
}

struct rows128 {
  static constexpr int lanes = 1;
  __m128i v;
  template <int Imm>
  static rows128 shuffle(rows128 x) {
    return {_mm_shuffle_epi32(x.v, Imm)};
  }
  static rows128 perm2(rows128 a, __m128i idx, rows128 b) { return {_mm_permutex2var_epi32(a.v, idx, b.v)}; }
  template <int Imm>
  static rows128 shuffle2(rows128 a, rows128 b) {
    return {_mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a.v), _mm_castsi128_ps(b.v), Imm))};
  }
  template <int Mask>
  static rows128 blend(rows128 a, rows128 b) {
    return {_mm_blend_epi32(a.v, b.v, Mask)};
  }
  static rows128 unpacklo(rows128 a, rows128 b) { return {_mm_unpacklo_epi32(a.v, b.v)}; }
  static __m128i index(const int (&i)[16]) { return _mm_setr_epi32(i[0], i[1], i[2], i[3]); }
};
inline rows128 operator+(rows128 a, rows128 b) { return {_mm_add_epi32(a.v, b.v)}; }
inline rows128 operator^(rows128 a, rows128 b) { return {_mm_xor_si128(a.v, b.v)}; }
template <int N>
inline rows128 rotr(rows128 x) {
  return {_mm_ror_epi32(x.v, N)};
}

// lane_perm: the vpermt2d index that gives, in every lane L, word k = a's
// word s_k of lane L for s_k < 4, b's word s_k - 4 of lane L otherwise.
template <class V, int S0, int S1, int S2, int S3>
[[gnu::always_inline]] inline V lane_perm(V a, V b) {
  constexpr int sel[4] = {S0, S1, S2, S3};
  int idx[16] = {};
  for (int l = 0; l < V::lanes; ++l) {
    for (int k = 0; k < 4; ++k) idx[4 * l + k] = 4 * l + (sel[k] & 3) + (sel[k] >= 4 ? 4 * V::lanes : 0);
  }
  return V::perm2(a, V::index(idx), b);
}

// g_rows is blake3_g (blake3_core.hpp) on S independent states, step by
// step so that their chains interleave, with the message word added to `a`
// kept apart from b: the compiler would otherwise reassociate a + m + b into
// (b + m) + a, one more step on the chain through b, the last row G
// finishes.
template <class V, std::size_t S>
[[gnu::always_inline]] inline void g_rows(V (&a)[S], V (&b)[S], V (&c)[S], V (&d)[S], const V (&mx)[S],
                                          const V (&my)[S]) noexcept {
  for (std::size_t s = 0; s < S; ++s) {
    a[s] = a[s] + mx[s];
    asm("" : "+v"(a[s].v));
  }
  for (std::size_t s = 0; s < S; ++s) a[s] = a[s] + b[s];
  for (std::size_t s = 0; s < S; ++s) d[s] = rotr<16>(d[s] ^ a[s]);
  for (std::size_t s = 0; s < S; ++s) c[s] = c[s] + d[s];
  for (std::size_t s = 0; s < S; ++s) b[s] = rotr<12>(b[s] ^ c[s]);
  for (std::size_t s = 0; s < S; ++s) {
    a[s] = a[s] + my[s];
    asm("" : "+v"(a[s].v));
  }
  for (std::size_t s = 0; s < S; ++s) a[s] = a[s] + b[s];
  for (std::size_t s = 0; s < S; ++s) d[s] = rotr<8>(d[s] ^ a[s]);
  for (std::size_t s = 0; s < S; ++s) c[s] = c[s] + d[s];
  for (std::size_t s = 0; s < S; ++s) b[s] = rotr<7>(b[s] ^ c[s]);
}

// compress_rows: the seven rounds on S states' rows a-d with their message
// vectors x, y, z, w (the first round's order, see the top of the file).
template <class V, std::size_t S>
[[gnu::always_inline]] inline void compress_rows(V (&a)[S], V (&b)[S], V (&c)[S], V (&d)[S], V (&x)[S], V (&y)[S],
                                                 V (&z)[S], V (&w)[S]) {
#pragma GCC unroll 7
  for (int r = 0; r < 7; ++r) {
    g_rows(a, b, c, d, x, y);
    // a[j] <- a[j - 1], c[j] <- c[j + 1], d[j] <- d[j + 2]: column j is
    // diagonal j - 1.
    for (std::size_t s = 0; s < S; ++s) {
      a[s] = V::template shuffle<_MM_SHUFFLE(2, 1, 0, 3)>(a[s]);
      c[s] = V::template shuffle<_MM_SHUFFLE(0, 3, 2, 1)>(c[s]);
      d[s] = V::template shuffle<_MM_SHUFFLE(1, 0, 3, 2)>(d[s]);
    }
    g_rows(a, b, c, d, z, w);
    for (std::size_t s = 0; s < S; ++s) {
      a[s] = V::template shuffle<_MM_SHUFFLE(0, 3, 2, 1)>(a[s]);
      c[s] = V::template shuffle<_MM_SHUFFLE(2, 1, 0, 3)>(c[s]);
      d[s] = V::template shuffle<_MM_SHUFFLE(1, 0, 3, 2)>(d[s]);
    }
    if (r == 6) break;
    // The next round's message (spec 2.2, table 2: position i takes word
    // p[i] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8][i]).
    // With x = (m0, m2, m4, m6), y = (m1, m3, m5, m7), z = (m14, m8, m10,
    // m12), w = (m15, m9, m11, m13) this round:
    //   x' = (m2, m3, m7, m4)   = (x1, y1, y3, x2)
    //   y' = (m6, m10, m0, m13) = (x3, z2, x0, w3)
    //   z' = (m15, m1, m12, m9) = (w0, y0, z3, w1)
    //   w' = (m8, m11, m5, m14) = (z1, w2, y2, z0)
    if constexpr (S == 1) {
      // One state is bound by G's chain, which vpermt2d's three cycles of
      // latency (and its one port) lengthened: the same words with one-
      // cycle shuffles and blends, eleven instead of seven (sixteen chained
      // compressions, TSC cycles: 2,474 to 2,148, the official BLAKE3's
      // 2,090). Two or more states are bound by throughput instead, where
      // the seven vpermt2d cost fewer uops.
      const V tx = V::template shuffle2<_MM_SHUFFLE(3, 1, 2, 1)>(x[0], y[0]);  // x1, x2, y1, y3
      const V ty = V::template shuffle2<_MM_SHUFFLE(2, 2, 0, 3)>(x[0], z[0]);  // x3, x0, z2, z2
      const V tz = V::template blend<0x8>(V::unpacklo(w[0], y[0]), z[0]);      // w0, y0, w1, z3
      const V tw = V::template blend<0x4>(V::template shuffle2<_MM_SHUFFLE(2, 2, 0, 1)>(z[0], w[0]),
                                          y[0]);                               // z1, z0, y2, w2
      x[0] = V::template shuffle<_MM_SHUFFLE(1, 3, 2, 0)>(tx);
      y[0] = V::template blend<0x8>(V::template shuffle<_MM_SHUFFLE(3, 1, 2, 0)>(ty), w[0]);
      z[0] = V::template shuffle<_MM_SHUFFLE(2, 3, 1, 0)>(tz);
      w[0] = V::template shuffle<_MM_SHUFFLE(1, 2, 3, 0)>(tw);
      continue;
    }
    for (std::size_t s = 0; s < S; ++s) {
      const V nx = lane_perm<V, 1, 5, 7, 2>(x[s], y[s]);
      const V ny = lane_perm<V, 0, 1, 2, 7>(lane_perm<V, 3, 6, 0, 0>(x[s], z[s]), w[s]);
      const V nz = lane_perm<V, 0, 1, 7, 3>(lane_perm<V, 0, 4, 0, 1>(w[s], y[s]), z[s]);
      const V nw = lane_perm<V, 0, 1, 6, 3>(lane_perm<V, 1, 6, 0, 0>(z[s], w[s]), y[s]);
      x[s] = nx, y[s] = ny, z[s] = nz, w[s] = nw;
    }
  }
}

// load_block reads a 64-byte block as two 32-byte halves: the kernels before
// write chaining values with 32-byte stores, and a load that spans two
// stores cannot take its data from them before they retire.
[[gnu::always_inline]] inline __m512i load_block(const std::uint8_t* p) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)), 1);
}

// The message of one block per input, as the first round's x, y, z, w:
// u holds x (lanes 0, 1) and y (lanes 2, 3) of two 64-byte blocks p and q,
// v their z and w.
[[gnu::always_inline]] inline void message_pair(__m512i p, __m512i q, __m512i& u, __m512i& v) {
  u = _mm512_permutex2var_epi32(p, _mm512_setr_epi32(0, 2, 4, 6, 16, 18, 20, 22, 1, 3, 5, 7, 17, 19, 21, 23), q);
  v = _mm512_permutex2var_epi32(p, _mm512_setr_epi32(14, 8, 10, 12, 30, 24, 26, 28, 15, 9, 11, 13, 31, 25, 27, 29), q);
}

// Row 3 of each lane: the 64-bit counter (counter + lane with increment),
// the block length and the flags, as two 64-bit words per lane.
[[gnu::always_inline]] inline __m512i row3_512(std::uint64_t counter, bool increment, std::uint32_t flags) {
  const auto hi = static_cast<long long>(blake3_block_len | (std::uint64_t{flags} << 32));
  const auto c = static_cast<long long>(counter);
  const __m512i base = _mm512_setr_epi64(c, hi, c, hi, c, hi, c, hi);
  return increment ? _mm512_add_epi64(base, _mm512_setr_epi64(0, 0, 1, 0, 2, 0, 3, 0)) : base;
}

// store_lanes writes the chaining values of the first k (1-4) lanes of a
// set of four: o0 holds lanes 0 and 1, o1 lanes 2 and 3.
[[gnu::always_inline]] inline void store_lanes(std::uint8_t* out, __m512i o0, __m512i o1, std::size_t k) {
  if (k >= 2) {
    _mm512_storeu_si512(out, o0);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_castsi512_si256(o0));
  }
  if (k == 4) {
    _mm512_storeu_si512(out + 64, o1);
  } else if (k == 3) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 64), _mm512_castsi512_si256(o1));
  }
}

// rows4 hashes up to 4 * S inputs, S sets of four side by side; lanes
// beyond `count` (more than 4 * (S - 1)) repeat an input and are not stored.
template <std::size_t S>
[[gnu::always_inline]] inline void rows4(const std::uint8_t* const (&in)[4 * S], std::size_t count, std::size_t blocks,
                                         const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                         std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                         std::uint8_t* out) noexcept {
  rows512 h0[S], h1[S];
  for (std::size_t s = 0; s < S; ++s) {
    h0[s] = {_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key)))};
    h1[s] = {_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key + 4)))};
  }
  const rows512 iv{_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blake3_iv)))};
  std::uint32_t block_flags = flags | flags_start;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (b + 1 == blocks) block_flags |= flags_end;
    const std::size_t at = b * blake3_block_len;
    rows512 a[S], bb[S], c[S], d[S], x[S], y[S], z[S], w[S];
    for (std::size_t s = 0; s < S; ++s) {
      __m512i u01, v01, u23, v23;
      message_pair(load_block(in[4 * s] + at), load_block(in[4 * s + 1] + at), u01, v01);
      message_pair(load_block(in[4 * s + 2] + at), load_block(in[4 * s + 3] + at), u23, v23);
      x[s] = {_mm512_shuffle_i32x4(u01, u23, _MM_SHUFFLE(1, 0, 1, 0))};
      y[s] = {_mm512_shuffle_i32x4(u01, u23, _MM_SHUFFLE(3, 2, 3, 2))};
      z[s] = {_mm512_shuffle_i32x4(v01, v23, _MM_SHUFFLE(1, 0, 1, 0))};
      w[s] = {_mm512_shuffle_i32x4(v01, v23, _MM_SHUFFLE(3, 2, 3, 2))};
      a[s] = h0[s], bb[s] = h1[s], c[s] = iv;
      d[s] = {row3_512(increment ? counter + 4 * s : counter, increment, block_flags)};
    }
    compress_rows(a, bb, c, d, x, y, z, w);
    for (std::size_t s = 0; s < S; ++s) {
      h0[s] = a[s] ^ c[s];
      h1[s] = bb[s] ^ d[s];
    }
    block_flags = flags;
  }
  // Lane l's chaining value is h0's lane l then h1's.
  for (std::size_t s = 0; s < S; ++s) {
    const __m512i o0 = _mm512_permutex2var_epi64(h0[s].v, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), h1[s].v);
    const __m512i o1 = _mm512_permutex2var_epi64(h0[s].v, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), h1[s].v);
    store_lanes(out + 128 * s, o0, o1, s + 1 == S ? count - 4 * s : 4);
  }
}

[[gnu::always_inline]] inline void rows2(const std::uint8_t* in0, const std::uint8_t* in1, std::size_t blocks,
                                         const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                         std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                         std::uint8_t* out) noexcept {
  rows256 h0{_mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key)))};
  rows256 h1{_mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key + 4)))};
  const rows256 iv{_mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blake3_iv)))};
  std::uint32_t block_flags = flags | flags_start;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (b + 1 == blocks) block_flags |= flags_end;
    const std::size_t at = b * blake3_block_len;
    __m512i u, v;
    message_pair(load_block(in0 + at), load_block(in1 + at), u, v);
    rows256 a[1] = {h0}, bb[1] = {h1}, c[1] = {iv};
    rows256 d[1] = {{_mm512_castsi512_si256(row3_512(counter, increment, block_flags))}};
    rows256 x[1] = {{_mm512_castsi512_si256(u)}}, y[1] = {{_mm512_extracti64x4_epi64(u, 1)}};
    rows256 z[1] = {{_mm512_castsi512_si256(v)}}, w[1] = {{_mm512_extracti64x4_epi64(v, 1)}};
    compress_rows(a, bb, c, d, x, y, z, w);
    h0 = a[0] ^ c[0];
    h1 = bb[0] ^ d[0];
    block_flags = flags;
  }
  // One 64-byte store: the two chaining values are the next level's block.
  _mm512_storeu_si512(out, _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 1, 4, 5, 2, 3, 6, 7),
                                                    _mm512_inserti64x4(_mm512_castsi256_si512(h0.v), h1.v, 1)));
}

// message_one: the first round's x, y, z, w of one 64-byte block (see the
// top of the file), from its four 16-byte quarters with one-cycle shuffles,
// so that the first G waits only for a load and a shuffle.
[[gnu::always_inline]] inline void message_one(const std::uint8_t* p, rows128& x, rows128& y, rows128& z,
                                               rows128& w) {
  const __m128 q0 = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  const __m128 q1 = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)));
  const __m128 q2 = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32)));
  const __m128 q3 = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 48)));
  x = {_mm_castps_si128(_mm_shuffle_ps(q0, q1, _MM_SHUFFLE(2, 0, 2, 0)))};  // m0, m2, m4, m6
  y = {_mm_castps_si128(_mm_shuffle_ps(q0, q1, _MM_SHUFFLE(3, 1, 3, 1)))};  // m1, m3, m5, m7
  // (m8, m10, m12, m14) and (m9, m11, m13, m15), turned by one word.
  z = {_mm_shuffle_epi32(_mm_castps_si128(_mm_shuffle_ps(q2, q3, _MM_SHUFFLE(2, 0, 2, 0))), _MM_SHUFFLE(2, 1, 0, 3))};
  w = {_mm_shuffle_epi32(_mm_castps_si128(_mm_shuffle_ps(q2, q3, _MM_SHUFFLE(3, 1, 3, 1))), _MM_SHUFFLE(2, 1, 0, 3))};
}

// rows1: one input's blocks, the chaining value in registers from one to the
// next; each block's message by message_one's one-cycle shuffles (a 1 KiB
// hash through blake3_chunk_blocks_rows_avx512: 1,002 ns with a vpermd and
// extracts per block, 855 with them).
[[gnu::always_inline]] inline void rows1(const std::uint8_t* in0, std::size_t blocks, const std::uint32_t key[8],
                                         std::uint64_t counter, std::uint32_t flags, std::uint32_t flags_start,
                                         std::uint32_t flags_end, std::uint8_t* out) noexcept {
  rows128 h0{_mm_loadu_si128(reinterpret_cast<const __m128i*>(key))};
  rows128 h1{_mm_loadu_si128(reinterpret_cast<const __m128i*>(key + 4))};
  const __m128i iv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(blake3_iv));
  std::uint32_t block_flags = flags | flags_start;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (b + 1 == blocks) block_flags |= flags_end;
    rows128 a[1] = {h0}, bb[1] = {h1}, c[1] = {{iv}};
    rows128 d[1] = {{_mm_setr_epi32(static_cast<int>(static_cast<std::uint32_t>(counter)),
                                    static_cast<int>(static_cast<std::uint32_t>(counter >> 32)),
                                    static_cast<int>(blake3_block_len), static_cast<int>(block_flags))}};
    rows128 x[1], y[1], z[1], w[1];
    message_one(in0 + b * blake3_block_len, x[0], y[0], z[0], w[0]);
    compress_rows(a, bb, c, d, x, y, z, w);
    h0 = a[0] ^ c[0];
    h1 = bb[0] ^ d[0];
    block_flags = flags;
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), h0.v);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), h1.v);
}

}  // namespace

// One compression in 128-bit rows, all sixteen output words.
void blake3_compress_rows_avx512(const std::uint32_t cv[8], const std::uint8_t* block, std::uint32_t block_len,
                                 std::uint64_t counter, std::uint32_t flags, std::uint32_t out[16]) noexcept {
  const __m128i h0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(cv));
  const __m128i h1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(cv + 4));
  rows128 a[1] = {{h0}}, b[1] = {{h1}};
  rows128 c[1] = {{_mm_loadu_si128(reinterpret_cast<const __m128i*>(blake3_iv))}};
  rows128 d[1] = {{_mm_setr_epi32(static_cast<int>(static_cast<std::uint32_t>(counter)),
                                  static_cast<int>(static_cast<std::uint32_t>(counter >> 32)),
                                  static_cast<int>(block_len), static_cast<int>(flags))}};
  rows128 x[1], y[1], z[1], w[1];
  message_one(block, x[0], y[0], z[0], w[0]);
  compress_rows(a, b, c, d, x, y, z, w);
  // Spec 2.2: the first half is state 0-7 xor 8-15, the second 8-15 xor the input chaining value.
  auto* o = reinterpret_cast<__m128i*>(out);
  _mm_storeu_si128(o, _mm_xor_si128(a[0].v, c[0].v));
  _mm_storeu_si128(o + 1, _mm_xor_si128(b[0].v, d[0].v));
  _mm_storeu_si128(o + 2, _mm_xor_si128(c[0].v, h0));
  _mm_storeu_si128(o + 3, _mm_xor_si128(d[0].v, h1));
}

// A chunk's blocks one after another (rows1), where compressions one at a
// time store the chaining value and load it back in between.
void blake3_chunk_blocks_rows_avx512(std::uint32_t cv[8], const std::uint8_t* in, std::size_t blocks,
                                     std::uint64_t counter, std::uint32_t flags, std::uint32_t flags_start) noexcept {
  rows1(in, blocks, cv, counter, flags, flags_start, 0, reinterpret_cast<std::uint8_t*>(cv));
}

// Any number of inputs: eight at a time (two sets of four, their chains
// interleaved), five to seven the same way with repeated lanes, then three
// or four in one set, two or one. Everything stays in registers (no stack
// copy of the key, chaining values or message to wipe).
void blake3_hash_many_rows_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                  const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                  std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                  std::uint8_t* out) noexcept {
  const std::size_t stride = blocks * blake3_block_len;
  for (; n_inputs >= 5; n_inputs -= n_inputs >= 8 ? 8 : n_inputs) {
    const std::size_t count = n_inputs >= 8 ? 8 : n_inputs;
    const std::uint8_t* p[8];
    for (std::size_t l = 0; l < 8; ++l) p[l] = in + (l < count ? l : count - 1) * stride;
    rows4<2>(p, count, blocks, key, counter, increment, flags, flags_start, flags_end, out);
    in += count * stride;
    out += count * blake3_cv_len;
    if (increment) counter += count;
  }
  if (n_inputs >= 3) {
    const std::uint8_t* const p[4] = {in, in + stride, in + 2 * stride, in + (n_inputs - 1) * stride};
    rows4<1>(p, n_inputs, blocks, key, counter, increment, flags, flags_start, flags_end, out);
  } else if (n_inputs == 2) {
    rows2(in, in + stride, blocks, key, counter, increment, flags, flags_start, flags_end, out);
  } else if (n_inputs == 1) {
    rows1(in, blocks, key, counter, flags, flags_start, flags_end, out);
  }
}

}  // namespace sealwire::crypto::detail

namespace sealwire::crypto::detail {
namespace {

// next_level: the first round's message of the parents of the four chaining
// values of a set (h0 lane l holds words 0-3 of value l, h1 words 4-7):
// parent 0 is values 0 and 1, parent 1 values 2 and 3. u gets x (lanes 0, 1)
// and y (lanes 2, 3) of parents 0 and 1, v their z and w (see the top of the
// file): x, y come from the left value, z, w from the right one.
[[gnu::always_inline]] inline void next_level(__m512i h0, __m512i h1, __m512i& u, __m512i& v) {
  u = _mm512_permutex2var_epi32(h0, _mm512_setr_epi32(0, 2, 16, 18, 8, 10, 24, 26, 1, 3, 17, 19, 9, 11, 25, 27), h1);
  v = _mm512_permutex2var_epi32(h0, _mm512_setr_epi32(22, 4, 6, 20, 30, 12, 14, 28, 23, 5, 7, 21, 31, 13, 15, 29), h1);
}


// GCC 12 at -O1 with ThreadSanitizer stops with an internal compiler error
// in early scalar replacement (esra) on reduce_levels3 when it is
// always_inline (-O2 and -O3, or -O1 without ThreadSanitizer, are fine), so
// such builds leave the inlining to the compiler.
#if defined(__SANITIZE_THREAD__)
#define SW_REDUCE_LEVELS_INLINE inline
#else
#define SW_REDUCE_LEVELS_INLINE [[gnu::always_inline]] inline
#endif

// reduce_levels3: the three parent levels from the eight parents whose
// first round's message is x, y, z, w (two sets of four lanes) to the two
// chaining values written to out: 8 parents, 4 (one set), 2 (a 256-bit
// vector); only the last two chaining values are stored.
SW_REDUCE_LEVELS_INLINE void reduce_levels3(rows512 (&x)[2], rows512 (&y)[2], rows512 (&z)[2],
                                                  rows512 (&w)[2], const std::uint32_t key[8], std::uint32_t flags,
                                                  std::uint8_t* out) noexcept {
  const rows512 k0{_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key)))};
  const rows512 k1{_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key + 4)))};
  const rows512 iv{_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blake3_iv)))};
  const rows512 r3{row3_512(0, false, flags)};
  rows512 a[2] = {k0, k0}, b[2] = {k1, k1}, c[2] = {iv, iv}, d[2] = {r3, r3};
  compress_rows(a, b, c, d, x, y, z, w);
  // Four parents: set s's values are parents 2s and 2s + 1's children.
  __m512i u[2], v[2];
  for (std::size_t s = 0; s < 2; ++s) next_level((a[s] ^ c[s]).v, (b[s] ^ d[s]).v, u[s], v[s]);
  rows512 a2[1] = {k0}, b2[1] = {k1}, c2[1] = {iv}, d2[1] = {r3};
  rows512 x2[1] = {{_mm512_shuffle_i32x4(u[0], u[1], _MM_SHUFFLE(1, 0, 1, 0))}};
  rows512 y2[1] = {{_mm512_shuffle_i32x4(u[0], u[1], _MM_SHUFFLE(3, 2, 3, 2))}};
  rows512 z2[1] = {{_mm512_shuffle_i32x4(v[0], v[1], _MM_SHUFFLE(1, 0, 1, 0))}};
  rows512 w2[1] = {{_mm512_shuffle_i32x4(v[0], v[1], _MM_SHUFFLE(3, 2, 3, 2))}};
  compress_rows(a2, b2, c2, d2, x2, y2, z2, w2);
  // Two parents, from the four values.
  __m512i u3, v3;
  next_level((a2[0] ^ c2[0]).v, (b2[0] ^ d2[0]).v, u3, v3);
  rows256 a3[1] = {{_mm512_castsi512_si256(k0.v)}}, b3[1] = {{_mm512_castsi512_si256(k1.v)}};
  rows256 c3[1] = {{_mm512_castsi512_si256(iv.v)}}, d3[1] = {{_mm512_castsi512_si256(r3.v)}};
  rows256 x3[1] = {{_mm512_castsi512_si256(u3)}}, y3[1] = {{_mm512_extracti64x4_epi64(u3, 1)}};
  rows256 z3[1] = {{_mm512_castsi512_si256(v3)}}, w3[1] = {{_mm512_extracti64x4_epi64(v3, 1)}};
  compress_rows(a3, b3, c3, d3, x3, y3, z3, w3);
  const __m256i h0 = _mm256_xor_si256(a3[0].v, c3[0].v), h1 = _mm256_xor_si256(b3[0].v, d3[0].v);
  _mm512_storeu_si512(out, _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 1, 4, 5, 2, 3, 6, 7),
                                                    _mm512_inserti64x4(_mm512_castsi256_si512(h0), h1, 1)));
}
#undef SW_REDUCE_LEVELS_INLINE

}  // namespace

// Three parent levels in registers: 8 parents (two sets of four lanes), 4
// (one set), 2 (a 256-bit vector); only the last two chaining values are
// stored. Saves two stores and reloads of a level and two calls.
void blake3_reduce16_rows_avx512(const std::uint8_t* in, const std::uint32_t key[8], std::uint32_t flags,
                                 std::uint8_t* out) noexcept {
  // Eight parents: blocks 4s .. 4s + 3 in set s.
  rows512 x[2], y[2], z[2], w[2];
  for (std::size_t s = 0; s < 2; ++s) {
    const std::uint8_t* p = in + 4 * blake3_block_len * s;
    __m512i u01, v01, u23, v23;
    message_pair(load_block(p), load_block(p + blake3_block_len), u01, v01);
    message_pair(load_block(p + 2 * blake3_block_len), load_block(p + 3 * blake3_block_len), u23, v23);
    x[s] = {_mm512_shuffle_i32x4(u01, u23, _MM_SHUFFLE(1, 0, 1, 0))};
    y[s] = {_mm512_shuffle_i32x4(u01, u23, _MM_SHUFFLE(3, 2, 3, 2))};
    z[s] = {_mm512_shuffle_i32x4(v01, v23, _MM_SHUFFLE(1, 0, 1, 0))};
    w[s] = {_mm512_shuffle_i32x4(v01, v23, _MM_SHUFFLE(3, 2, 3, 2))};
  }
  reduce_levels3(x, y, z, w, key, flags, out);
}

// Sixteen chunks and the three parent levels above them. The 16-lane
// loop's chaining values (vector j: word j of the sixteen chunks) become
// the first level's message in registers, sixteen shuffles, where
// blake3_hash_many_x16_avx512 and blake3_reduce16_rows_avx512 take 48 and
// a store and reload in between.
void blake3_hash16_reduce_avx512(const std::uint8_t* in, const std::uint32_t key[8], std::uint64_t counter,
                                 std::uint32_t flags, std::uint8_t* out) noexcept {
  alignas(64) lanes16 cv[8];
  alignas(64) lanes16 ctr[2];
  for (int i = 0; i < 8; ++i) cv[i] = lanes16::splat(key[i]);
  lanes16::counters(counter, true, ctr[0], ctr[1]);  // chunk l's counter is counter + l
  const std::uint32_t block_flags[3] = {flags, blake3_chunk_start, blake3_chunk_end};
  sealwire_blake3_x16_blocks_avx512(in, blake3_chunk_len, blake3_blocks_per_chunk, cv, ctr, block_flags);
  const __m512i w0 = cv[0].v, w1 = cv[1].v, w2 = cv[2].v, w3 = cv[3].v, w4 = cv[4].v, w5 = cv[5].v, w6 = cv[6].v,
                w7 = cv[7].v;
  // The chaining values (for a keyed hash, derived from the key) leave the stack.
  wipe_vectors(cv, 8);
  // Parent 4s + l (set s, lane l) has chunks 8s + 2l (left) and 8s + 2l + 1
  // (right). left pairs two vectors' words of the left chunks, lane l
  // getting set 0's pair then set 1's; right the same for the right chunks.
  // An unpack of two such pairs gives set 0 (low halves) or set 1.
  const __m512i left = _mm512_setr_epi32(0, 16, 8, 24, 2, 18, 10, 26, 4, 20, 12, 28, 6, 22, 14, 30);
  const __m512i right = _mm512_setr_epi32(1, 17, 9, 25, 3, 19, 11, 27, 5, 21, 13, 29, 7, 23, 15, 31);
  const __m512i t02 = _mm512_permutex2var_epi32(w0, left, w2), t46 = _mm512_permutex2var_epi32(w4, left, w6);
  const __m512i t13 = _mm512_permutex2var_epi32(w1, left, w3), t57 = _mm512_permutex2var_epi32(w5, left, w7);
  const __m512i t60 = _mm512_permutex2var_epi32(w6, right, w0), t24 = _mm512_permutex2var_epi32(w2, right, w4);
  const __m512i t71 = _mm512_permutex2var_epi32(w7, right, w1), t35 = _mm512_permutex2var_epi32(w3, right, w5);
  // x = (m0, m2, m4, m6), y = (m1, m3, m5, m7): left words 0, 2, 4, 6 and
  // 1, 3, 5, 7; z = (m14, m8, m10, m12), w = (m15, m9, m11, m13): right
  // words 6, 0, 2, 4 and 7, 1, 3, 5.
  rows512 x[2] = {{_mm512_unpacklo_epi64(t02, t46)}, {_mm512_unpackhi_epi64(t02, t46)}};
  rows512 y[2] = {{_mm512_unpacklo_epi64(t13, t57)}, {_mm512_unpackhi_epi64(t13, t57)}};
  rows512 z[2] = {{_mm512_unpacklo_epi64(t60, t24)}, {_mm512_unpackhi_epi64(t60, t24)}};
  rows512 w[2] = {{_mm512_unpacklo_epi64(t71, t35)}, {_mm512_unpackhi_epi64(t71, t35)}};
  reduce_levels3(x, y, z, w, key, flags | blake3_parent, out);
}

}  // namespace sealwire::crypto::detail
