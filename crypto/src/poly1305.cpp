// SPDX-License-Identifier: Apache-2.0
// Poly1305 (RFC 8439 2.5): the portable driver (buffering of a partial block,
// padding, finalisation) and the portable radix-2^64 block kernel.
#include <sealwire/crypto/poly1305.hpp>

#include <sealwire/crypto/cpu.hpp>

#include "detail/bytes.hpp"
#include "detail/kernels.hpp"
#include "detail/poly1305_core.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace sealwire::crypto {
namespace detail {

void poly1305_blocks_portable(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                              std::uint64_t hibit) noexcept {
  poly1305_scalar_blocks(st, in, nblocks, hibit);
}

namespace {

// A kernel set: a scalar kernel for short runs and, optionally, a vector
// kernel with the powers of r it needs and the run length from which it wins.
struct poly_kernels {
  std::string_view name;
  poly1305_blocks_fn scalar;
  poly1305_blocks_fn vector;
  poly1305_powers powers;
  std::size_t min_blocks;
};

constexpr poly_kernels portable_kernels{"portable", &poly1305_blocks_portable, nullptr, poly1305_powers::none, 0};
#if SEALWIRE_X86_KERNELS
constexpr poly_kernels bmi2_kernels{"bmi2", &poly1305_blocks_bmi2, nullptr, poly1305_powers::none, 0};
constexpr poly_kernels avx2_kernels{"avx2", &poly1305_blocks_bmi2, &poly1305_blocks_avx2, poly1305_powers::radix26x4, 8};
constexpr poly_kernels avx2_nobmi_kernels{"avx2", &poly1305_blocks_portable, &poly1305_blocks_avx2,
                                          poly1305_powers::radix26x4, 8};
constexpr poly_kernels ifma_kernels{"avx512ifma", &poly1305_blocks_bmi2, &poly1305_blocks_ifma,
                                    poly1305_powers::radix44x8, 4};
#endif

const poly_kernels& select() noexcept {
#if SEALWIRE_X86_KERNELS
  const std::uint32_t f = cpu::enabled();
  const bool bmi = (f & (cpu::bmi2 | cpu::adx)) == (cpu::bmi2 | cpu::adx);
  if (bmi && (f & (cpu::avx512f | cpu::avx512ifma)) == (cpu::avx512f | cpu::avx512ifma)) return ifma_kernels;
  if ((f & cpu::avx2) != 0) return bmi ? avx2_kernels : avx2_nobmi_kernels;
  if (bmi) return bmi2_kernels;
#endif
  return portable_kernels;
}

// A message shorter than this never pays for computing the powers of r.
constexpr std::uint64_t powers_after_blocks = 32;

// compute_powers fills st.pw with r^1..r^k in the layout the vector kernel reads.
void compute_powers(poly1305_state& st, poly1305_powers kind) noexcept {
  std::uint64_t p[9][3];  // p[k] = r^k in 44-bit limbs
  to44(st.r[0], st.r[1], 0, p[1]);
  // Three rounds of independent products rather than a chain of seven.
  mul44(p[1], p[1], p[2]);
  mul44(p[2], p[1], p[3]);
  mul44(p[2], p[2], p[4]);
  mul44(p[4], p[1], p[5]);
  mul44(p[4], p[2], p[6]);
  mul44(p[4], p[3], p[7]);
  mul44(p[4], p[4], p[8]);
  if (kind == poly1305_powers::radix44x8) {
    // pw[8 * limb + lane] for r^(8 - lane); limbs 3 and 4 are 20 * limbs 1 and 2.
    for (int j = 0; j < 8; ++j) {
      const std::uint64_t* q = p[8 - j];
      st.pw[j] = q[0];
      st.pw[8 + j] = q[1];
      st.pw[16 + j] = q[2];
      st.pw[24 + j] = 20 * q[1];
      st.pw[32 + j] = 20 * q[2];
    }
  } else {
    // pw[4 * limb + lane] for r^(4 - lane) in 26-bit limbs; limbs 5-8 are
    // 5 * limbs 1-4.
    constexpr std::uint64_t m26 = (1u << 26) - 1;
    for (int j = 0; j < 4; ++j) {
      std::uint64_t* q = p[4 - j];
      carry44(q);  // slicing into 26-bit limbs needs l0 and l1 below 2^44
      const std::uint64_t t[5] = {q[0] & m26, ((q[0] >> 26) | (q[1] << 18)) & m26, (q[1] >> 8) & m26,
                                  ((q[1] >> 34) | (q[2] << 10)) & m26, q[2] >> 16};
      for (int k = 0; k < 5; ++k) st.pw[4 * k + j] = t[k];
      for (int k = 1; k < 5; ++k) st.pw[4 * (k + 4) + j] = 5 * t[k];
    }
  }
  st.powers = kind;
  ct::wipe(p, sizeof p);
}

// blocks runs the best kernel for this CPU level and run length. The
// portable loop is expanded in place rather than called (small pieces).
void blocks(poly1305_state& st, const std::uint8_t* in, std::size_t n, std::uint64_t hibit) noexcept {
  const poly_kernels& k = select();
  if (k.vector != nullptr) {
    if (st.powers != k.powers && st.absorbed + n >= powers_after_blocks) compute_powers(st, k.powers);
    if (st.powers == k.powers && n >= k.min_blocks) {
      k.vector(st, in, n, hibit);
      st.absorbed += n;
      return;
    }
  }
  if (k.scalar == &poly1305_blocks_portable) {
    poly1305_scalar_blocks(st, in, n, hibit);
  } else {
    k.scalar(st, in, n, hibit);
  }
  st.absorbed += n;
}

// absorb_one takes a single block in line: the buffered partial block costs
// no kernel call. The accumulator is in the same form for every kernel.
void absorb_one(poly1305_state& st, const std::uint8_t* in, std::uint64_t hibit) noexcept {
  poly1305_absorb(st.h[0], st.h[1], st.h[2], st.r[0], st.r[1], poly1305_fold(st.r[1]), in, hibit);
  ++st.absorbed;
}

}  // namespace
}  // namespace detail

void poly1305::init(std::span<const std::uint8_t, key_size> key) noexcept {
  // RFC 8439 2.5.1: clamp r.
  st_.r[0] = detail::load64_le(key.data()) & 0x0ffffffc0fffffffULL;
  st_.r[1] = detail::load64_le(key.data() + 8) & 0x0ffffffc0ffffffcULL;
  st_.s[0] = detail::load64_le(key.data() + 16);
  st_.s[1] = detail::load64_le(key.data() + 24);
  st_.h[0] = st_.h[1] = st_.h[2] = 0;
  st_.absorbed = 0;
  if (st_.powers != detail::poly1305_powers::none) ct::wipe(st_.pw, sizeof st_.pw);  // powers of the old key
  st_.powers = detail::poly1305_powers::none;
  buf_len_ = 0;
}

void poly1305::wipe() noexcept {
  // h, r, s and the counters are contiguous: one clear; the powers only if set.
  const bool had_powers = st_.powers != detail::poly1305_powers::none;
  ct::wipe(&st_, offsetof(detail::poly1305_state, pw));
  if (had_powers) ct::wipe(st_.pw, sizeof st_.pw);
  ct::wipe(buf_, sizeof buf_);
  buf_len_ = 0;
}

void poly1305::update(std::span<const std::uint8_t> in) noexcept {
  if (in.empty()) return;
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  if (buf_len_ != 0) {
    const std::size_t take = std::min<std::size_t>(n, block_size - buf_len_);
    detail::copy_small(buf_ + buf_len_, p, take);
    buf_len_ = static_cast<std::uint8_t>(buf_len_ + take);
    p += take;
    n -= take;
    if (buf_len_ < block_size) return;
    detail::absorb_one(st_, buf_, 1);
    buf_len_ = 0;
  }
  if (n >= block_size) {
    const std::size_t whole = n / block_size;
    detail::blocks(st_, p, whole, 1);
    p += whole * block_size;
    n -= whole * block_size;
  }
  if (n != 0) {
    detail::copy_small(buf_, p, n);
    buf_len_ = static_cast<std::uint8_t>(n);
  }
}

void poly1305::pad16() noexcept {
  if (buf_len_ == 0) return;
  std::memset(buf_ + buf_len_, 0, block_size - buf_len_);
  detail::absorb_one(st_, buf_, 1);
  buf_len_ = 0;
}

void poly1305::finish(std::span<std::uint8_t, tag_size> tag) noexcept {
  if (buf_len_ != 0) {
    // RFC 8439 2.5.1: a final short block gets a 1 byte appended and no 2^128.
    buf_[buf_len_] = 1;
    std::memset(buf_ + buf_len_ + 1, 0, block_size - buf_len_ - 1);
    detail::absorb_one(st_, buf_, 0);
  }
  using detail::u128;
  std::uint64_t h0 = st_.h[0], h1 = st_.h[1];
  const std::uint64_t h2 = st_.h[2];
  // h < 2^131 after the kernel's partial reduction, so one conditional
  // subtraction of p gives h mod p: take h + 5 - 2^130 when it is non-negative.
  u128 t = static_cast<u128>(h0) + 5;
  const auto g0 = static_cast<std::uint64_t>(t);
  t = static_cast<u128>(h1) + (t >> 64);
  const auto g1 = static_cast<std::uint64_t>(t);
  const std::uint64_t g2 = h2 + static_cast<std::uint64_t>(t >> 64);
  const std::uint64_t use_g = ct::mask_from_bit(g2 >> 2);
  h0 = (h0 & ~use_g) | (g0 & use_g);
  h1 = (h1 & ~use_g) | (g1 & use_g);
  // tag = (h + s) mod 2^128
  t = static_cast<u128>(h0) + st_.s[0];
  h0 = static_cast<std::uint64_t>(t);
  h1 = h1 + st_.s[1] + static_cast<std::uint64_t>(t >> 64);
  detail::store64_le(tag.data(), h0);
  detail::store64_le(tag.data() + 8, h1);
  wipe();
}

bool poly1305::verify(std::span<const std::uint8_t, tag_size> expected) noexcept {
  std::uint8_t tag[tag_size];
  finish(tag);
  const bool ok = ct::equal(tag, expected);
  ct::wipe(tag, sizeof tag);
  return ok;
}

void poly1305::mac(std::span<std::uint8_t, tag_size> tag, std::span<const std::uint8_t> msg,
                   std::span<const std::uint8_t, key_size> key) noexcept {
  poly1305 p(key);
  p.update(msg);
  p.finish(tag);
}

std::string_view poly1305::provider() noexcept { return detail::select().name; }

}  // namespace sealwire::crypto
