// SPDX-License-Identifier: Apache-2.0
// Arithmetic modulo the Ed448 group order L = 2^446 - c, c < 2^224 (RFC 8032
// 5.2). A value x = hi 2^446 + lo is congruent to lo + hi c, so reduction
// folds the bits above 446 back down, each fold shrinking the value by about
// 222 bits, then subtracts L once. Every loop bound is a public length.
#include "detail/ed448_scalar.hpp"

#include <sealwire/crypto/ct.hpp>

#include "detail/bytes.hpp"

namespace sealwire::crypto::detail::ed448_scalar {
namespace {

// c = 2^446 - L.
constexpr std::uint64_t c_words[4] = {0xdc873d6d54a7bb0d, 0xde933d8d723a70aa, 0x3bb124b65129c96f,
                                      0x000000008335dc16};
constexpr std::uint64_t l_words[7] = {0x2378c292ab5844f3, 0x216cc2728dc58f55, 0xc44edb49aed63690,
                                      0xffffffff7cca23e9, 0xffffffffffffffff, 0xffffffffffffffff,
                                      0x3fffffffffffffff};
constexpr std::uint64_t low62 = (std::uint64_t{1} << 62) - 1;

// wide is a working value of up to 16 words.
struct wide {
  std::uint64_t w[16];
};

// fold replaces x (n words) by lo + hi c, where lo is x's low 446 bits and
// hi the rest, keeping out_n words; the caller's bound on the result says
// out_n words hold it.
void fold(wide& x, std::size_t n, std::size_t out_n) noexcept {
  const std::size_t h = n - 6;  // words of hi = x >> 446
  std::uint64_t hi[10] = {};
  for (std::size_t i = 0; i < h; ++i) {
    const std::uint64_t next = 7 + i < n ? x.w[7 + i] : 0;
    hi[i] = (x.w[6 + i] >> 62) | (next << 2);
  }
  wide r{};
  for (std::size_t i = 0; i < 6; ++i) r.w[i] = x.w[i];
  r.w[6] = x.w[6] & low62;
  // r += hi * c, schoolbook, row by row.
  for (std::size_t i = 0; i < h; ++i) {
    u128 carry = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      carry += static_cast<u128>(hi[i]) * c_words[j] + r.w[i + j];
      r.w[i + j] = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
    for (std::size_t k = i + 4; k < 16; ++k) {
      carry += r.w[k];
      r.w[k] = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
  }
  for (std::size_t i = 0; i < 16; ++i) x.w[i] = i < out_n ? r.w[i] : 0;
  ct::wipe_object(r);
  ct::wipe_object(hi);
}

// reduce_wide reduces a value below 2^960 (15 words) modulo L. Bounds:
// 960 bits -> lo + (2^514) c < 2^739 (12 words) -> < 2^518 (9 words) ->
// < 2^446 + 2^297 (7 words) -> < 2^446 + 2^225 < 2L, then one conditional
// subtraction of L.
void reduce_wide(scalar& out, wide& x) noexcept {
  fold(x, 15, 12);
  fold(x, 12, 9);
  fold(x, 9, 7);
  fold(x, 7, 7);
  std::uint64_t t[7];
  std::uint64_t borrow = 0;
  for (int i = 0; i < 7; ++i) {
    const u128 d = static_cast<u128>(x.w[i]) - l_words[i] - borrow;
    t[i] = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
  }
  // Keep x - L unless it borrowed (x < L).
  const std::uint64_t keep_x = ct::mask_from_bit(borrow);
  for (int i = 0; i < 7; ++i) out.w[i] = (x.w[i] & keep_x) | (t[i] & ~keep_x);
  ct::wipe_object(t);
  ct::wipe_object(x);
}

}  // namespace

void reduce_bytes(scalar& out, const std::uint8_t* in, std::size_t n) noexcept {
  wide x{};
  std::uint8_t buf[120] = {};
  for (std::size_t i = 0; i < n; ++i) buf[i] = in[i];
  for (int i = 0; i < 15; ++i) x.w[i] = load64_le(buf + 8 * i);
  ct::wipe_object(buf);
  reduce_wide(out, x);
}

void mul_add(scalar& out, const scalar& a, const scalar& b, const scalar& c) noexcept {
  wide x{};
  for (int i = 0; i < 7; ++i) x.w[i] = a.w[i];
  for (int i = 0; i < 7; ++i) {
    u128 carry = 0;
    for (int j = 0; j < 7; ++j) {
      carry += static_cast<u128>(b.w[i]) * c.w[j] + x.w[i + j];
      x.w[i + j] = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
    for (int k = i + 7; k < 15; ++k) {
      carry += x.w[k];
      x.w[k] = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
  }
  reduce_wide(out, x);
}

void store(std::uint8_t* out, const scalar& s) noexcept {
  for (int i = 0; i < 7; ++i) store64_le(out + 8 * i, s.w[i]);
  out[56] = 0;
}

bool load_canonical(scalar& out, const std::uint8_t* in) noexcept {
  if (in[56] != 0) return false;
  for (int i = 0; i < 7; ++i) out.w[i] = load64_le(in + 8 * i);
  for (int i = 6; i >= 0; --i) {
    if (out.w[i] != l_words[i]) return out.w[i] < l_words[i];
  }
  return false;  // S == L
}

}  // namespace sealwire::crypto::detail::ed448_scalar
