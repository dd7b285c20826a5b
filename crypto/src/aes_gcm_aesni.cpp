// SPDX-License-Identifier: Apache-2.0
// AES-GCM kernels (NIST SP 800-38D) on AES-NI and PCLMULQDQ: eight counter
// blocks in flight, GHASH over eight blocks with H^8..H^1 and one reduction.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "detail/gcm_kernels.hpp"

namespace sealwire::crypto::detail {
namespace {

// GHASH works on blocks byte-reversed into 128-bit integers: bit 127 - i is
// the coefficient of x^i (SP 800-38D's bit order). A carry-less product of
// two such integers is the bit-reversed polynomial product shifted by one; the
// powers of H are stored times x^-1 (see gcm_powers_clmul), which absorbs the
// shift, so a product of a block and a stored power is read as 256 bits,
// bit 255 - i holding x^i, and reduced as below.

inline __m128i bswap_mask() noexcept { return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }

inline __m128i load(const std::uint8_t* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store(std::uint8_t* p, __m128i v) noexcept { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline __m128i load_rev(const std::uint8_t* p) noexcept { return _mm_shuffle_epi8(load(p), bswap_mask()); }

// Schoolbook 128x128 carry-less product, accumulated into lo, mid, hi.
inline void mul_acc(__m128i x, __m128i h, __m128i& lo, __m128i& mid, __m128i& hi) noexcept {
  lo = _mm_xor_si128(lo, _mm_clmulepi64_si128(x, h, 0x00));
  hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(x, h, 0x11));
  mid = _mm_xor_si128(mid, _mm_xor_si128(_mm_clmulepi64_si128(x, h, 0x01), _mm_clmulepi64_si128(x, h, 0x10)));
}

// reduce folds a 256-bit value [X3:X2:X1:X0] (bit 255 - i = x^i) modulo
// g = x^128 + x^7 + x^2 + x + 1. In the reversed bit order this is a
// Montgomery-style reduction: adding M * rev(g), rev(g) = 1 + b^121 + b^126 +
// b^127 + b^128, clears the low 128 bits, 64 at a time (rev(g) = 1 mod b^64,
// so M is the word itself); the high 128 bits are the result.
// q = b^57 + b^62 + b^63 is rev(g)'s middle terms divided by b^64.
inline __m128i reduce(__m128i lo, __m128i mid, __m128i hi) noexcept {
  lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
  hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
  const __m128i q = _mm_set_epi64x(0, static_cast<long long>(0xC200000000000000ULL));
  __m128i t = _mm_clmulepi64_si128(lo, q, 0x00);  // X0 * q: into X1 and X2
  lo = _mm_xor_si128(lo, _mm_slli_si128(t, 8));
  hi = _mm_xor_si128(hi, _mm_srli_si128(t, 8));
  t = _mm_clmulepi64_si128(lo, q, 0x01);          // X1' * q: into X2 and X3
  hi = _mm_xor_si128(hi, t);
  return _mm_xor_si128(hi, lo);                   // X0 * b^128 and X1' * b^192
}

// mul_acc_power is mul_acc by a stored power in Karatsuba form: three
// products, the middle one by (h0 ^ h1); reduce_karatsuba recovers the middle
// term. Fewer products and fewer live registers in the stitched loop.
inline void mul_acc_power(__m128i x, const gcm_key& k, std::size_t i, __m128i& lo, __m128i& mid, __m128i& hi) noexcept {
  const __m128i h = _mm_load_si128(reinterpret_cast<const __m128i*>(k.hpow + 16 * i));
  lo = _mm_xor_si128(lo, _mm_clmulepi64_si128(x, h, 0x00));
  hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(x, h, 0x11));
  const __m128i xs = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));
  mid = _mm_xor_si128(mid, _mm_clmulepi64_si128(
                               xs, _mm_load_si128(reinterpret_cast<const __m128i*>(k.hkar + 16 * i)), 0x00));
}

inline __m128i reduce_karatsuba(__m128i lo, __m128i mid, __m128i hi) noexcept {
  return reduce(lo, _mm_xor_si128(mid, _mm_xor_si128(lo, hi)), hi);
}

inline __m128i gmul(__m128i a, __m128i b) noexcept {
  __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
  mul_acc(a, b, lo, mid, hi);
  return reduce(lo, mid, hi);
}

// ghash_blocks absorbs n <= 8 blocks into y with one reduction: block j is
// multiplied by H^(n - j), the first one after y is added.
inline __m128i ghash_blocks(const gcm_key& k, __m128i y, const std::uint8_t* in, std::size_t n) noexcept {
  __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
  const std::size_t first = gcm_powers - n;
  mul_acc_power(_mm_xor_si128(load_rev(in), y), k, first, lo, mid, hi);
  for (std::size_t j = 1; j < n; ++j) mul_acc_power(load_rev(in + 16 * j), k, first + j, lo, mid, hi);
  return reduce_karatsuba(lo, mid, hi);
}

// ---- AES -------------------------------------------------------------------

template <int Rcon>
inline __m128i expand128(__m128i k) noexcept {
  // FIPS 197 5.2: w[i] = w[i-4] ^ SubWord(RotWord(w[i-1])) ^ Rcon, and the
  // prefix XOR for the other three words.
  const __m128i t = _mm_shuffle_epi32(_mm_aeskeygenassist_si128(k, Rcon), 0xff);
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  return _mm_xor_si128(k, t);
}

// For AES-256 the odd round keys use SubWord(w[i-1]) without rotation or Rcon.
inline __m128i expand256_odd(__m128i k, __m128i prev) noexcept {
  const __m128i t = _mm_shuffle_epi32(_mm_aeskeygenassist_si128(prev, 0), 0xaa);
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  return _mm_xor_si128(k, t);
}

template <int Rcon>
inline __m128i expand256_even(__m128i k, __m128i prev) noexcept {
  const __m128i t = _mm_shuffle_epi32(_mm_aeskeygenassist_si128(prev, Rcon), 0xff);
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  return _mm_xor_si128(k, t);
}

// Round keys are kept in the state and loaded (aligned) at each use.
inline __m128i rk(const gcm_key& k, std::uint32_t r) noexcept {
  return _mm_load_si128(reinterpret_cast<const __m128i*>(k.rk + 16 * r));
}

// The counter block for ctr + i: J0 byte-reversed keeps the 32-bit counter in
// lane 0, where a 32-bit add wraps exactly like inc32.
inline __m128i counter_base(const gcm_key& k, std::uint32_t ctr) noexcept {
  return _mm_insert_epi32(load_rev(k.j0), static_cast<int>(ctr), 0);
}
inline __m128i counter(__m128i base, int i) noexcept {
  return _mm_shuffle_epi8(_mm_add_epi32(base, _mm_set_epi32(0, 0, 0, i)), bswap_mask());
}

inline __m128i encrypt1(const gcm_key& k, __m128i b) noexcept {
  b = _mm_xor_si128(b, rk(k, 0));
  for (std::uint32_t r = 1; r < k.rounds; ++r) b = _mm_aesenc_si128(b, rk(k, r));
  return _mm_aesenclast_si128(b, rk(k, k.rounds));
}

#define SW_ROUND8(key)                       \
  do {                                       \
    const __m128i rk_ = (key);               \
    for (int j_ = 0; j_ < 8; ++j_) b[j_] = _mm_aesenc_si128(b[j_], rk_); \
  } while (0)

// start8 builds eight counter blocks and whitens them.
inline void start8(const gcm_key& k, __m128i base, __m128i (&b)[8]) noexcept {
  const __m128i k0 = rk(k, 0);
  for (int j = 0; j < 8; ++j) b[j] = _mm_xor_si128(counter(base, j), k0);
}

// finish8 runs rounds 10.. (AES-256: 10-13) and the last round, then XORs the input.
inline void finish8(const gcm_key& k, __m128i (&b)[8], std::uint8_t* out, const std::uint8_t* in) noexcept {
  for (std::uint32_t r = 10; r < k.rounds; ++r) SW_ROUND8(rk(k, r));
  const __m128i last = rk(k, k.rounds);
  for (int j = 0; j < 8; ++j) b[j] = _mm_aesenclast_si128(b[j], last);
  for (int j = 0; j < 8; ++j) store(out + 16 * j, _mm_xor_si128(b[j], load(in + 16 * j)));
}

// crypt8_hash8 encrypts eight counter blocks while multiplying eight blocks
// of `hash` (byte-reversed, the first with y added) by H^8..H^1: the AES and
// carry-less multiplier units work side by side. Returns the new y. `hash`
// is read before anything is stored, so it may equal `in` or `out`.
inline __m128i crypt8_hash8(const gcm_key& k, __m128i base, std::uint8_t* out, const std::uint8_t* in,
                            const std::uint8_t* hash, __m128i y) noexcept {
  __m128i b[8];
  start8(k, base, b);
  __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
  for (int r = 1; r <= 8; ++r) {
    SW_ROUND8(rk(k, static_cast<std::uint32_t>(r)));
    __m128i x = load_rev(hash + 16 * (r - 1));
    if (r == 1) x = _mm_xor_si128(x, y);
    mul_acc_power(x, k, static_cast<std::size_t>(8 + r - 1), lo, mid, hi);
  }
  SW_ROUND8(rk(k, 9));
  y = reduce_karatsuba(lo, mid, hi);
  finish8(k, b, out, in);
  return y;
}

inline void crypt8(const gcm_key& k, __m128i base, std::uint8_t* out, const std::uint8_t* in) noexcept {
  __m128i b[8];
  start8(k, base, b);
  for (std::uint32_t r = 1; r <= 9; ++r) SW_ROUND8(rk(k, r));
  finish8(k, b, out, in);
}

// ctr_tail handles fewer than eight blocks: a lone block alone, more as one
// eight-block batch (the pipeline is as fast for eight as for two), of which
// only n are used.
inline void ctr_tail(const gcm_key& k, __m128i base, std::uint8_t* out, const std::uint8_t* in,
                     std::size_t n) noexcept {
  if (n == 0) return;
  if (n == 1) {
    store(out, _mm_xor_si128(encrypt1(k, counter(base, 0)), load(in)));
    return;
  }
  __m128i b[8];
  start8(k, base, b);
  for (std::uint32_t r = 1; r < k.rounds; ++r) SW_ROUND8(rk(k, r));
  const __m128i last = rk(k, k.rounds);
  for (std::size_t j = 0; j < n; ++j) store(out + 16 * j, _mm_xor_si128(_mm_aesenclast_si128(b[j], last), load(in + 16 * j)));
}

#undef SW_ROUND8

inline __m128i add_counter(__m128i base, int n) noexcept { return _mm_add_epi32(base, _mm_set_epi32(0, 0, 0, n)); }

}  // namespace

void aes_expand_aesni(gcm_key& k, const std::uint8_t* key, std::size_t key_len) noexcept {
  auto put = [&k](int i, __m128i v) { _mm_store_si128(reinterpret_cast<__m128i*>(k.rk + 16 * i), v); };
  if (key_len == 16) {
    k.rounds = 10;
    __m128i x = load(key);
    put(0, x);
    put(1, x = expand128<0x01>(x));
    put(2, x = expand128<0x02>(x));
    put(3, x = expand128<0x04>(x));
    put(4, x = expand128<0x08>(x));
    put(5, x = expand128<0x10>(x));
    put(6, x = expand128<0x20>(x));
    put(7, x = expand128<0x40>(x));
    put(8, x = expand128<0x80>(x));
    put(9, x = expand128<0x1b>(x));
    put(10, expand128<0x36>(x));
  } else {
    k.rounds = 14;
    __m128i a = load(key), b = load(key + 16);
    put(0, a);
    put(1, b);
    put(2, a = expand256_even<0x01>(a, b));
    put(3, b = expand256_odd(b, a));
    put(4, a = expand256_even<0x02>(a, b));
    put(5, b = expand256_odd(b, a));
    put(6, a = expand256_even<0x04>(a, b));
    put(7, b = expand256_odd(b, a));
    put(8, a = expand256_even<0x08>(a, b));
    put(9, b = expand256_odd(b, a));
    put(10, a = expand256_even<0x10>(a, b));
    put(11, b = expand256_odd(b, a));
    put(12, a = expand256_even<0x20>(a, b));
    put(13, b = expand256_odd(b, a));
    put(14, expand256_even<0x40>(a, b));
  }
}

void gcm_powers_clmul(gcm_key& k) noexcept {
  // H * x^-1: in the reversed order, a shift left by one; a bit shifted out
  // (x^-1) is x^127 + x^6 + x + 1 = bits 0, 121, 126, 127.
  const __m128i h = load_rev(k.h);
  const __m128i carry = _mm_srli_epi64(h, 63);
  __m128i p = _mm_or_si128(_mm_slli_epi64(h, 1), _mm_slli_si128(carry, 8));
  const __m128i top = _mm_srai_epi32(_mm_shuffle_epi32(h, 0xff), 31);
  p = _mm_xor_si128(p, _mm_and_si128(top, _mm_set_epi64x(static_cast<long long>(0xC200000000000000ULL), 1)));
  // (H^i x^-1)(H^j x^-1) read as above is H^(i+j) x^-1: the same form.
  // Powers by doubling: four rounds of independent products, not a chain of
  // fifteen (a short message pays for all of them).
  __m128i pw[gcm_powers + 1];
  pw[1] = p;
  for (std::size_t half = 1; half < gcm_powers; half *= 2) {
    for (std::size_t i = 1; i <= half && half + i <= gcm_powers; ++i) pw[half + i] = gmul(pw[half], pw[i]);
  }
  for (std::size_t i = 1; i <= gcm_powers; ++i) {
    store(k.hpow + 16 * (gcm_powers - i), pw[i]);
    store(k.hkar + 16 * (gcm_powers - i), _mm_xor_si128(pw[i], _mm_shuffle_epi32(pw[i], 0x4e)));
  }
  k.have_powers = 1;
}

void gcm_ghash_clmul(gcm_key& k, const std::uint8_t* in, std::size_t nblocks) noexcept {
  __m128i y = load_rev(k.y);
  for (; nblocks >= 8; nblocks -= 8, in += 128) y = ghash_blocks(k, y, in, 8);
  if (nblocks != 0) y = ghash_blocks(k, y, in, nblocks);
  store(k.y, _mm_shuffle_epi8(y, bswap_mask()));
}

void gcm_ctr_aesni(const gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                   std::size_t nblocks) noexcept {
  __m128i base = counter_base(k, ctr);
  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
    crypt8(k, base, out, in);
    base = add_counter(base, 8);
  }
  ctr_tail(k, base, out, in, nblocks);
}

void gcm_encrypt_aesni(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t nblocks) noexcept {
  __m128i base = counter_base(k, ctr);
  __m128i y = load_rev(k.y);
  if (nblocks >= 8) {
    // Encrypt group i while hashing group i - 1's ciphertext.
    crypt8(k, base, out, in);
    base = add_counter(base, 8);
    const std::uint8_t* prev = out;
    in += 128;
    out += 128;
    nblocks -= 8;
    for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
      y = crypt8_hash8(k, base, out, in, prev, y);
      base = add_counter(base, 8);
      prev = out;
    }
    y = ghash_blocks(k, y, prev, 8);
  }
  if (nblocks != 0) {
    ctr_tail(k, base, out, in, nblocks);
    y = ghash_blocks(k, y, out, nblocks);
  }
  store(k.y, _mm_shuffle_epi8(y, bswap_mask()));
}

void gcm_decrypt_aesni(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t nblocks) noexcept {
  __m128i base = counter_base(k, ctr);
  __m128i y = load_rev(k.y);
  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
    y = crypt8_hash8(k, base, out, in, in, y);
    base = add_counter(base, 8);
  }
  if (nblocks != 0) {
    y = ghash_blocks(k, y, in, nblocks);
    ctr_tail(k, base, out, in, nblocks);
  }
  store(k.y, _mm_shuffle_epi8(y, bswap_mask()));
}

}  // namespace sealwire::crypto::detail
