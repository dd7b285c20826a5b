// SPDX-License-Identifier: Apache-2.0
// AES-GCM kernels (NIST SP 800-38D) on VAES and VPCLMULQDQ with 512-bit
// registers: four blocks per register, sixteen blocks per step, GHASH over
// sixteen blocks with H^16..H^1 and one reduction. Multiples of 16 blocks only.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "detail/gcm_kernels.hpp"

namespace sealwire::crypto::detail {
namespace {

// The bit order and the x^-1 form of the stored powers are described in
// aes_gcm_aesni.cpp; this file uses the same layout, four blocks at a time.

inline __m128i bswap_mask() noexcept { return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }

inline __m512i load512(const std::uint8_t* p) noexcept { return _mm512_loadu_si512(p); }
inline void store512(std::uint8_t* p, __m512i v) noexcept { _mm512_storeu_si512(p, v); }

struct ctx {
  __m512i rk[15];
  __m512i pw[4];  // pw[g] lanes: H^(16 - 4g), ..., H^(13 - 4g)
  __m512i bswap;
  std::uint32_t rounds;
};

inline void load_ctx(const gcm_key& k, ctx& c, bool powers) noexcept {
  c.rounds = k.rounds;
  for (std::uint32_t r = 0; r <= k.rounds; ++r)
    c.rk[r] = _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(k.rk + 16 * r)));
  if (powers)
    for (int g = 0; g < 4; ++g) c.pw[g] = load512(k.hpow + 64 * g);
  c.bswap = _mm512_broadcast_i32x4(bswap_mask());
}

// Four counter registers from a byte-reversed base whose lanes hold
// counters ctr, ctr + 1, ctr + 2, ctr + 3 in their lowest 32 bits.
inline __m512i counter_base(const gcm_key& k, std::uint32_t ctr) noexcept {
  const __m128i b = _mm_insert_epi32(_mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(k.j0)),
                                                      bswap_mask()),
                                     static_cast<int>(ctr), 0);
  return _mm512_add_epi32(_mm512_broadcast_i32x4(b), _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));
}
inline __m512i lane_add(int n) noexcept { return _mm512_set_epi32(0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n); }

inline void mul_acc(__m512i x, __m512i h, __m512i& lo, __m512i& mid, __m512i& hi) noexcept {
  lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(x, h, 0x00));
  hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(x, h, 0x11));
  mid = _mm512_ternarylogic_epi64(mid, _mm512_clmulepi64_epi128(x, h, 0x01), _mm512_clmulepi64_epi128(x, h, 0x10),
                                  0x96);
}

inline __m128i fold_lanes(__m512i v) noexcept {
  const __m256i a = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  return _mm_xor_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
}

// reduce: sum the four lanes' products and reduce once (as in the AES-NI file).
inline __m128i reduce(__m512i lo4, __m512i mid4, __m512i hi4) noexcept {
  __m128i lo = fold_lanes(lo4), mid = fold_lanes(mid4), hi = fold_lanes(hi4);
  lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
  hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
  const __m128i q = _mm_set_epi64x(0, static_cast<long long>(0xC200000000000000ULL));
  __m128i t = _mm_clmulepi64_si128(lo, q, 0x00);
  lo = _mm_xor_si128(lo, _mm_slli_si128(t, 8));
  hi = _mm_xor_si128(hi, _mm_srli_si128(t, 8));
  t = _mm_clmulepi64_si128(lo, q, 0x01);
  return _mm_ternarylogic_epi64(hi, t, lo, 0x96);
}

// hash16 multiplies 16 blocks (the first with y added) by H^16..H^1.
inline __m128i hash16(const ctx& c, __m128i y, const std::uint8_t* in) noexcept {
  __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
  for (int g = 0; g < 4; ++g) {
    __m512i x = _mm512_shuffle_epi8(load512(in + 64 * g), c.bswap);
    if (g == 0) x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
    mul_acc(x, c.pw[g], lo, mid, hi);
  }
  return reduce(lo, mid, hi);
}

inline void start16(const ctx& c, __m512i base, __m512i (&b)[4]) noexcept {
  for (int g = 0; g < 4; ++g)
    b[g] = _mm512_xor_si512(_mm512_shuffle_epi8(_mm512_add_epi32(base, lane_add(4 * g)), c.bswap), c.rk[0]);
}

inline void round16(__m512i (&b)[4], __m512i key) noexcept {
  for (int g = 0; g < 4; ++g) b[g] = _mm512_aesenc_epi128(b[g], key);
}

inline void finish16(const ctx& c, __m512i (&b)[4], std::uint8_t* out, const std::uint8_t* in) noexcept {
  for (std::uint32_t r = 10; r < c.rounds; ++r) round16(b, c.rk[r]);
  for (int g = 0; g < 4; ++g) b[g] = _mm512_aesenclast_epi128(b[g], c.rk[c.rounds]);
  for (int g = 0; g < 4; ++g) store512(out + 64 * g, _mm512_xor_si512(b[g], load512(in + 64 * g)));
}

inline void crypt16(const ctx& c, __m512i base, std::uint8_t* out, const std::uint8_t* in) noexcept {
  __m512i b[4];
  start16(c, base, b);
  for (std::uint32_t r = 1; r <= 9; ++r) round16(b, c.rk[r]);
  finish16(c, b, out, in);
}

// crypt16_hash16 encrypts 16 counter blocks while hashing 16 blocks of
// `hash`, which is read before anything is stored (it may equal in).
inline __m128i crypt16_hash16(const ctx& c, __m512i base, std::uint8_t* out, const std::uint8_t* in,
                              const std::uint8_t* hash, __m128i y) noexcept {
  __m512i b[4];
  start16(c, base, b);
  __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
  for (int g = 0; g < 4; ++g) {
    round16(b, c.rk[2 * g + 1]);
    __m512i x = _mm512_shuffle_epi8(load512(hash + 64 * g), c.bswap);
    if (g == 0) x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
    mul_acc(x, c.pw[g], lo, mid, hi);
    round16(b, c.rk[2 * g + 2]);
  }
  round16(b, c.rk[9]);
  y = reduce(lo, mid, hi);
  finish16(c, b, out, in);
  return y;
}

// The register forms for the lagged decryption below: the text is loaded
// once into registers and kept there for the next step's hash, so a unit is
// hashed one step after its AES (out may equal in: nothing is read back).

inline void load16(const std::uint8_t* p, __m512i (&v)[4]) noexcept {
  for (int g = 0; g < 4; ++g) v[g] = load512(p + 64 * g);
}

// crypt16_regs writes the 16 counter blocks from base XOR `text` to out.
inline void crypt16_regs(const ctx& c, __m512i base, std::uint8_t* out, const __m512i (&text)[4]) noexcept {
  __m512i b[4];
  start16(c, base, b);
  for (std::uint32_t r = 1; r < c.rounds; ++r) round16(b, c.rk[r]);
  for (int g = 0; g < 4; ++g) store512(out + 64 * g, _mm512_xor_si512(_mm512_aesenclast_epi128(b[g], c.rk[c.rounds]), text[g]));
}

// crypt16_hash16_regs is crypt16_regs with 16 blocks of `hash` (as loaded,
// the first with y added) absorbed beside the AES rounds.
inline __m128i crypt16_hash16_regs(const ctx& c, __m512i base, std::uint8_t* out, const __m512i (&text)[4],
                                   const __m512i (&hash)[4], __m128i y) noexcept {
  __m512i b[4];
  start16(c, base, b);
  __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
  for (int g = 0; g < 4; ++g) {
    round16(b, c.rk[2 * g + 1]);
    __m512i x = _mm512_shuffle_epi8(hash[g], c.bswap);
    if (g == 0) x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
    mul_acc(x, c.pw[g], lo, mid, hi);
    round16(b, c.rk[2 * g + 2]);
  }
  for (std::uint32_t r = 9; r < c.rounds; ++r) round16(b, c.rk[r]);
  for (int g = 0; g < 4; ++g) store512(out + 64 * g, _mm512_xor_si512(_mm512_aesenclast_epi128(b[g], c.rk[c.rounds]), text[g]));
  return reduce(lo, mid, hi);
}

inline __m128i hash16_regs(const ctx& c, __m128i y, const __m512i (&hash)[4]) noexcept {
  __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
  for (int g = 0; g < 4; ++g) {
    __m512i x = _mm512_shuffle_epi8(hash[g], c.bswap);
    if (g == 0) x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
    mul_acc(x, c.pw[g], lo, mid, hi);
  }
  return reduce(lo, mid, hi);
}

inline __m128i load_y(const gcm_key& k) noexcept {
  return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(k.y)), bswap_mask());
}
inline void store_y(gcm_key& k, __m128i y) noexcept {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(k.y), _mm_shuffle_epi8(y, bswap_mask()));
}

}  // namespace

void gcm_ctr_x16_vaes(const gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                      std::size_t nblocks) noexcept {
  ctx c;
  load_ctx(k, c, false);
  __m512i base = counter_base(k, ctr);
  for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256) {
    crypt16(c, base, out, in);
    base = _mm512_add_epi32(base, lane_add(16));
  }
}

void gcm_ghash_x16_vaes(gcm_key& k, const std::uint8_t* in, std::size_t nblocks) noexcept {
  ctx c;
  load_ctx(k, c, true);
  __m128i y = load_y(k);
  for (; nblocks >= 16; nblocks -= 16, in += 256) y = hash16(c, y, in);
  store_y(k, y);
}

void gcm_encrypt_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                          std::size_t nblocks) noexcept {
  if (nblocks < 16) return;
  ctx c;
  load_ctx(k, c, true);
  __m512i base = counter_base(k, ctr);
  __m128i y = load_y(k);
  // Encrypt step i while hashing step i - 1's ciphertext.
  crypt16(c, base, out, in);
  base = _mm512_add_epi32(base, lane_add(16));
  const std::uint8_t* prev = out;
  in += 256;
  out += 256;
  nblocks -= 16;
  for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256) {
    y = crypt16_hash16(c, base, out, in, prev, y);
    base = _mm512_add_epi32(base, lane_add(16));
    prev = out;
  }
  y = hash16(c, y, prev);
  store_y(k, y);
}

namespace {

// key_at broadcasts round key r from the key itself (see ctr_hash_rounds on
// why not from a staged ctx).
inline __m512i key_at(const gcm_key& k, std::uint32_t r) noexcept {
  return _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(k.rk + 16 * r)));
}

// aes16_hash16 encrypts the 16 counter blocks from base into b (the
// keystream) for a fixed round count and, when with_hash, absorbs the 16
// blocks in hash (the first with y added) beside the first eight rounds,
// returning the new y (y itself otherwise).
template <std::uint32_t Rounds>
[[gnu::always_inline]] inline __m128i aes16_hash16(const gcm_key& k, __m512i base, const __m512i (&hash)[4],
                                                   bool with_hash, __m128i y, __m512i (&b)[4]) noexcept {
  const __m512i bswap = _mm512_broadcast_i32x4(bswap_mask());
  const __m512i k0 = key_at(k, 0);
  for (int g = 0; g < 4; ++g)
    b[g] = _mm512_xor_si512(_mm512_shuffle_epi8(_mm512_add_epi32(base, lane_add(4 * g)), bswap), k0);
  __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
  for (std::uint32_t g = 0; g < 4; ++g) {
    round16(b, key_at(k, 2 * g + 1));
    if (with_hash) {
      __m512i x = _mm512_shuffle_epi8(hash[g], bswap);
      if (g == 0) x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
      mul_acc(x, load512(k.hpow + 64 * g), lo, mid, hi);
    }
    round16(b, key_at(k, 2 * g + 2));
  }
  for (std::uint32_t r = 9; r < Rounds; ++r) round16(b, key_at(k, r));
  const __m512i last = key_at(k, Rounds);
  for (int g = 0; g < 4; ++g) b[g] = _mm512_aesenclast_epi128(b[g], last);
  return with_hash ? reduce(lo, mid, hi) : y;
}

// ctr_hash_rounds is gcm_ctr_hash_x16_vaes (and with n != 0
// gcm_ctr_hash_xor_x16_vaes) for a fixed round count: one
// unit per call (a unit of pieces), so the round keys are broadcast from
// the key where they are used rather than staged in a ctx (whose
// runtime-indexed array lives on the stack: fifteen 64-byte stores and
// reloads per call, more than the AES rounds' own cost here).
template <std::uint32_t Rounds>
inline void ctr_hash_rounds(gcm_key& k, std::uint32_t ctr, std::uint8_t* keystream, const std::uint8_t* hash,
                            std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* in, std::size_t n,
                            bool keep_out) noexcept {
  const __m512i base = counter_base(k, ctr);
  // The unit to hash is loaded before anything is stored: keep may be hash.
  __m512i held[4];
  load16(hash, held);
  __m512i b[4];
  const __m128i y = aes16_hash16<Rounds>(k, base, held, true, load_y(k), b);
  for (int g = 0; g < 4; ++g) store512(keystream + 64 * g, b[g]);
  // The first n bytes of text straight from the registers (masked: n < 256).
  for (std::size_t g = 0; g < 4; ++g) {
    if (64 * g >= n) break;
    const std::size_t len = n - 64 * g;
    const __mmask64 m = len >= 64 ? ~static_cast<__mmask64>(0) : (static_cast<__mmask64>(1) << len) - 1;
    const __m512i t = _mm512_maskz_loadu_epi8(m, in + 64 * g);
    const __m512i o = _mm512_xor_si512(t, b[g]);
    _mm512_mask_storeu_epi8(keep + 64 * g, m, keep_out ? o : t);
    _mm512_mask_storeu_epi8(out + 64 * g, m, o);
  }
  store_y(k, y);
}

}  // namespace

void gcm_ctr_hash_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* keystream, const std::uint8_t* hash) noexcept {
  // Keys are 16 or 32 bytes (10 or 14 rounds).
  if (k.rounds == 14) {
    ctr_hash_rounds<14>(k, ctr, keystream, hash, nullptr, nullptr, nullptr, 0, false);
  } else {
    ctr_hash_rounds<10>(k, ctr, keystream, hash, nullptr, nullptr, nullptr, 0, false);
  }
}

void gcm_ctr_hash_xor_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* keystream, const std::uint8_t* hash,
                               std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* in, std::size_t n,
                               bool keep_out) noexcept {
  if (k.rounds == 14) {
    ctr_hash_rounds<14>(k, ctr, keystream, hash, out, keep, in, n, keep_out);
  } else {
    ctr_hash_rounds<10>(k, ctr, keystream, hash, out, keep, in, n, keep_out);
  }
}

void gcm_decrypt_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                          std::size_t nblocks) noexcept {
  ctx c;
  load_ctx(k, c, true);
  __m512i base = counter_base(k, ctr);
  __m128i y = load_y(k);
  for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256) {
    y = crypt16_hash16(c, base, out, in, in, y);
    base = _mm512_add_epi32(base, lane_add(16));
  }
  store_y(k, y);
}

// The decryption of pieces (see gcm_state): each 16-block unit is hashed in
// the step after its AES, beside the next unit's rounds, so that a unit of
// earlier pieces waiting in the driver's buffer (`pending`) and the keystream
// the next piece starts with both ride along a stitched step rather than
// costing a pass of their own.
namespace {

// decrypt_lag_rounds is gcm_decrypt_lag_x16_vaes for a fixed round count,
// with the round keys broadcast from the key where they are used (as in
// ctr_hash_rounds: a call handles a piece's few units, and staging the keys
// in a ctx cost fifteen 64-byte stores per call).
template <std::uint32_t Rounds>
inline void decrypt_lag_rounds(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                               std::size_t nblocks, const std::uint8_t* pending, std::uint8_t* keystream) noexcept {
  // One step: the 16 counter blocks from base XOR text to dst, with the 16
  // blocks in hash (the first with y added) absorbed beside the rounds when
  // `with_hash`.
  const auto step = [&k](__m512i base, std::uint8_t* dst, const __m512i (&text)[4], const __m512i (&hash)[4],
                         bool with_hash, __m128i y) {
    __m512i b[4];
    const __m128i next = aes16_hash16<Rounds>(k, base, hash, with_hash, y, b);
    for (int g = 0; g < 4; ++g) store512(dst + 64 * g, _mm512_xor_si512(b[g], text[g]));
    return next;
  };
  __m512i base = counter_base(k, ctr);
  __m128i y = load_y(k);
  __m512i held[4];
  bool have = pending != nullptr;
  if (have) load16(pending, held);
  for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256) {
    __m512i text[4];
    load16(in, text);
    y = step(base, out, text, held, have, y);
    for (int g = 0; g < 4; ++g) held[g] = text[g];
    have = true;
    base = _mm512_add_epi32(base, lane_add(16));
  }
  if (keystream != nullptr) {
    const __m512i z = _mm512_setzero_si512();
    const __m512i zeros[4] = {z, z, z, z};
    y = step(base, keystream, zeros, held, have, y);
  } else if (have) {
    const __m512i bswap = _mm512_broadcast_i32x4(bswap_mask());
    __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
    for (std::uint32_t g = 0; g < 4; ++g) {
      __m512i x = _mm512_shuffle_epi8(held[g], bswap);
      if (g == 0) x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
      mul_acc(x, load512(k.hpow + 64 * g), lo, mid, hi);
    }
    y = reduce(lo, mid, hi);
  }
  store_y(k, y);
}

}  // namespace

void gcm_decrypt_lag_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                              std::size_t nblocks, const std::uint8_t* pending, std::uint8_t* keystream) noexcept {
  if (k.rounds == 14) {
    decrypt_lag_rounds<14>(k, ctr, out, in, nblocks, pending, keystream);
  } else {
    decrypt_lag_rounds<10>(k, ctr, out, in, nblocks, pending, keystream);
  }
}

// Text through the unit's buffers in one pass: out = in ^ ks, and `keep`
// gets the ciphertext (in when decrypting, out when encrypting), a register
// at a time with the last register overlapping the one before (loaded before
// anything is stored, so out may equal in). Masked byte loads and stores
// measured slower here than the overlap.
template <class V, class Load, class Store, class Xor>
inline void xor_keep_by(std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* in, const std::uint8_t* ks,
                        std::size_t n, bool keep_out, Load load, Store store, Xor x) noexcept {
  constexpr std::size_t w = sizeof(V);
  const V last_in = load(in + n - w);
  const V last_out = x(last_in, load(ks + n - w));
  for (std::size_t i = 0; i + w <= n; i += w) {
    const V a = load(in + i);
    const V b = x(a, load(ks + i));
    store(keep + i, keep_out ? b : a);
    store(out + i, b);
  }
  store(keep + n - w, keep_out ? last_out : last_in);
  store(out + n - w, last_out);
}

// The trailing-tag opener's piece: 16 held-back bytes `a` followed by nb
// bytes at b, read as one text of 16 + nb bytes. Its first register is
// joined in registers (a in the low lane, then b's first 48 bytes by a
// qword shift: valignq); the rest are plain loads of b, the last register
// overlapping the one before (all loaded before anything is stored).
void gcm_open_joined_avx512(std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* a, const std::uint8_t* b,
                            std::size_t nb, const std::uint8_t* ks) noexcept {
  const std::size_t n = 16 + nb;  // nb >= 64
  const __m512i head = _mm512_maskz_loadu_epi8(static_cast<__mmask64>(0xffffffffffffULL), b);  // b[0..48)
  const __m512i held = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a)));
  const __m512i first = _mm512_alignr_epi64(head, held, 6);  // a || b[0..48)
  const __m512i last_in = _mm512_loadu_si512(b + nb - 64);  // text [n - 64, n): nb >= 64
  const __m512i last_out = _mm512_xor_si512(last_in, _mm512_loadu_si512(ks + n - 64));
  _mm512_storeu_si512(keep, first);
  _mm512_storeu_si512(out, _mm512_xor_si512(first, _mm512_loadu_si512(ks)));
  for (std::size_t i = 64; i + 64 <= n; i += 64) {
    const __m512i t = _mm512_loadu_si512(b + (i - 16));
    _mm512_storeu_si512(keep + i, t);
    _mm512_storeu_si512(out + i, _mm512_xor_si512(t, _mm512_loadu_si512(ks + i)));
  }
  _mm512_storeu_si512(keep + n - 64, last_in);
  _mm512_storeu_si512(out + n - 64, last_out);
}

void gcm_xor_keep_avx512(std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* in, const std::uint8_t* ks,
                         std::size_t n, bool keep_out) noexcept {
  if (n >= 64) {
    xor_keep_by<__m512i>(
        out, keep, in, ks, n, keep_out, [](const std::uint8_t* p) { return _mm512_loadu_si512(p); },
        [](std::uint8_t* p, __m512i v) { _mm512_storeu_si512(p, v); },
        [](__m512i a, __m512i b) { return _mm512_xor_si512(a, b); });
  } else if (n >= 16) {
    xor_keep_by<__m128i>(
        out, keep, in, ks, n, keep_out,
        [](const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); },
        [](std::uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); },
        [](__m128i a, __m128i b) { return _mm_xor_si128(a, b); });
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t a = in[i], b = static_cast<std::uint8_t>(a ^ ks[i]);
      keep[i] = keep_out ? b : a;
      out[i] = b;
    }
  }
}

}  // namespace sealwire::crypto::detail
