// SPDX-License-Identifier: Apache-2.0
// Arithmetic modulo the Ed25519 group order L in five 52-bit limbs with
// Montgomery reduction (R = 2^260), constant time.
#include "detail/ed25519_scalar.hpp"

#include <sealwire/crypto/ct.hpp>

#include "detail/bytes.hpp"

namespace sealwire::crypto::detail {
namespace {

constexpr std::uint64_t m52 = (std::uint64_t{1} << 52) - 1;

struct sc52 {
  std::uint64_t v[5];
};

// L, -1/L mod 2^52, R mod L and R^2 mod L for R = 2^260.
constexpr sc52 order{{0x2631a5cf5d3edULL, 0xdea2f79cd6581ULL, 0x14def9ULL, 0x0ULL, 0x100000000000ULL}};
constexpr std::uint64_t order_factor = 0x51da312547e1bULL;
constexpr sc52 r_mod_l{{0xf48bd6721e6edULL, 0x3bab5ac67e45aULL, 0xfffffeb35e51bULL, 0xfffffffffffffULL, 0xfffffffffffULL}};
constexpr sc52 rr_mod_l{{0x9d265e952d13bULL, 0xd63c715bea69fULL, 0x5be65cb687604ULL, 0x3dceec73d217fULL, 0x9411b7c309aULL}};

// bits52 is the 52-bit field of the little-endian words w starting at bit o
// (positions are public; the words beyond the last read as zero).
std::uint64_t bits52(const std::uint64_t* w, int words, int o) noexcept {
  const int idx = o / 64, sh = o % 64;
  std::uint64_t v = w[idx] >> sh;
  if (sh > 12 && idx + 1 < words) v |= w[idx + 1] << (64 - sh);
  return v & m52;
}

sc52 load32(const std::uint8_t in[32]) noexcept {
  const std::uint64_t w[4] = {load64_le(in), load64_le(in + 8), load64_le(in + 16), load64_le(in + 24)};
  sc52 s;
  for (int i = 0; i < 5; ++i) s.v[i] = bits52(w, 4, 52 * i);
  return s;
}

void store32(std::uint8_t out[32], const sc52& s) noexcept {
  store64_le(out, s.v[0] | (s.v[1] << 52));
  store64_le(out + 8, (s.v[1] >> 12) | (s.v[2] << 40));
  store64_le(out + 16, (s.v[2] >> 24) | (s.v[3] << 28));
  store64_le(out + 24, (s.v[3] >> 36) | (s.v[4] << 16));
}

// sub_order_if_needed maps x in [0, 2L) to x mod L by a masked subtraction.
sc52 sub_order_if_needed(const sc52& x) noexcept {
  sc52 t;
  std::uint64_t borrow = 0;
  for (int i = 0; i < 5; ++i) {
    const std::uint64_t d = x.v[i] - order.v[i] - borrow;
    borrow = d >> 63;
    t.v[i] = d & m52;
  }
  const std::uint64_t keep_x = ct::mask_from_bit(borrow);  // x < L
  sc52 out;
  for (int i = 0; i < 5; ++i) out.v[i] = (x.v[i] & keep_x) | (t.v[i] & ~keep_x);
  return out;
}

struct wide {
  u128 z[9];
};

wide mul_wide(const sc52& a, const sc52& b) noexcept {
  wide w{};
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) w.z[i + j] += static_cast<u128>(a.v[i]) * b.v[j];
  }
  return w;
}

// mont_reduce returns z / 2^260 mod L, for z < 2^260 L: each step adds the
// multiple n_i L that clears limb i, and the five cleared limbs are dropped.
sc52 mont_reduce(const wide& w) noexcept {
  std::uint64_t n[5];
  u128 carry = 0;
  for (int i = 0; i < 5; ++i) {
    u128 t = w.z[i] + carry;
    for (int j = 0; j < i; ++j) t += static_cast<u128>(n[j]) * order.v[i - j];
    n[i] = (static_cast<std::uint64_t>(t) * order_factor) & m52;
    t += static_cast<u128>(n[i]) * order.v[0];
    carry = t >> 52;
  }
  sc52 r;
  for (int i = 5; i < 9; ++i) {
    u128 t = w.z[i] + carry;
    for (int j = i - 4; j < 5; ++j) t += static_cast<u128>(n[j]) * order.v[i - j];
    r.v[i - 5] = static_cast<std::uint64_t>(t) & m52;
    carry = t >> 52;
  }
  r.v[4] = static_cast<std::uint64_t>(carry);
  ct::wipe(n, sizeof n);
  return sub_order_if_needed(r);
}

sc52 mont_mul(const sc52& a, const sc52& b) noexcept {
  wide w = mul_wide(a, b);
  const sc52 r = mont_reduce(w);
  ct::wipe_object(w);
  return r;
}

}  // namespace

void sc_reduce64(std::uint8_t out[32], const std::uint8_t in[64]) noexcept {
  std::uint64_t w[8];
  for (int i = 0; i < 8; ++i) w[i] = load64_le(in + 8 * i);
  // in = lo + 2^260 hi; lo R / R + hi R^2 / R = lo + hi R (mod L).
  sc52 lo, hi;
  for (int i = 0; i < 5; ++i) {
    lo.v[i] = bits52(w, 8, 52 * i);
    hi.v[i] = bits52(w, 8, 260 + 52 * i);
  }
  const sc52 a = mont_mul(lo, r_mod_l), b = mont_mul(hi, rr_mod_l);
  sc52 sum;
  std::uint64_t c = 0;
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t t = a.v[i] + b.v[i] + c;
    sum.v[i] = t & m52;
    c = t >> 52;
  }
  sum.v[4] = a.v[4] + b.v[4] + c;  // a, b < L: the sum is below 2L
  sc52 r = sub_order_if_needed(sum);
  store32(out, r);
  ct::wipe(w, sizeof w);
  ct::wipe_object(lo);
  ct::wipe_object(hi);
  ct::wipe_object(r);
}

void sc_muladd(std::uint8_t out[32], const std::uint8_t a[32], const std::uint8_t b[32],
               const std::uint8_t c[32]) noexcept {
  sc52 x = load32(a), y = load32(b), z = load32(c);
  // (ab + c) / R, then times R^2 / R: (ab + c) mod L. ab + c < 2^512 + 2^256
  // keeps the first reduction's input below 2^260 L.
  wide w = mul_wide(x, y);
  for (int i = 0; i < 5; ++i) w.z[i] += z.v[i];
  sc52 t = mont_reduce(w);
  sc52 r = mont_mul(t, rr_mod_l);
  store32(out, r);
  ct::wipe_object(x);
  ct::wipe_object(y);
  ct::wipe_object(z);
  ct::wipe_object(w);
  ct::wipe_object(t);
  ct::wipe_object(r);
}

bool sc_is_canonical_vartime(const std::uint8_t s[32]) noexcept {
  std::uint8_t l[32];
  store32(l, order);
  for (int i = 31; i >= 0; --i) {
    if (s[i] != l[i]) return s[i] < l[i];
  }
  return false;  // s == L
}

}  // namespace sealwire::crypto::detail
