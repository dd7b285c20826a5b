// SPDX-License-Identifier: Apache-2.0
// Poly1305 (RFC 8439 2.5): the portable driver (buffering of a partial block,
// padding, finalisation) and the portable radix-2^64 block kernel.
#include <sealwire/crypto/poly1305.hpp>
#include <sealwire/crypto/ct.hpp>

#include <sealwire/crypto/cpu.hpp>

#include "detail/bytes.hpp"
#include "detail/cpu_features.hpp"
#include "detail/kernels.hpp"
#include "detail/poly1305_core.hpp"
#include "detail/poly1305_state.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>

namespace sealwire::crypto {
namespace detail {

void poly1305_blocks_portable(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                              std::uint64_t hibit) noexcept {
  poly1305_scalar_blocks(st, in, nblocks, hibit);
}

namespace {

// A kernel set: a scalar kernel for short runs and, optionally, a vector
// kernel with the powers of r it needs and the run length from which it wins,
// and its live-lane form (`width` blocks a group).
struct poly_kernels {
  std::string_view name;
  poly1305_blocks_fn scalar;
  poly1305_blocks_fn vector;
  poly1305_powers powers;
  std::size_t min_blocks;
  poly1305_lanes_fn lanes;
  std::size_t width;
};

constexpr poly_kernels portable_kernels{
    "portable", &poly1305_blocks_portable, nullptr, poly1305_powers::none, 0, nullptr, 0};
#if SEALWIRE_X86_KERNELS
constexpr poly_kernels bmi2_kernels{"bmi2", &poly1305_blocks_bmi2, nullptr, poly1305_powers::none, 0, nullptr, 0};
constexpr poly_kernels avx2_kernels{"avx2", &poly1305_blocks_bmi2, &poly1305_blocks_avx2, poly1305_powers::radix26x4,
                                    8, &poly1305_lanes_avx2, 4};
constexpr poly_kernels avx2_nobmi_kernels{"avx2", &poly1305_blocks_portable, &poly1305_blocks_avx2,
                                          poly1305_powers::radix26x4, 8, &poly1305_lanes_avx2, 4};
constexpr poly_kernels ifma_kernels{"avx512ifma", &poly1305_blocks_bmi2, &poly1305_blocks_ifma,
                                    poly1305_powers::radix44x8, 4, &poly1305_lanes_ifma, 8};
static_assert(poly1305_buffer_blocks >= 8, "the buffer holds a group of the IFMA lanes");
#endif

const poly_kernels& select() noexcept {
#if SEALWIRE_X86_KERNELS
  const std::uint32_t f = detail::cpu_features();
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

// prepare_powers computes the powers of r the vector kernel needs once the
// message is long enough; it reports whether st.pw holds them.
bool prepare_powers(const poly_kernels& k, poly1305_state& st, std::size_t n) noexcept {
  if (k.vector == nullptr) return false;
  if (st.powers != k.powers && st.absorbed + n >= powers_after_blocks) compute_powers(st, k.powers);
  return st.powers == k.powers;
}

// blocks runs the best kernel for this CPU level and run length. The
// portable loop is expanded in place rather than called (small pieces).
void blocks(poly1305_state& st, const std::uint8_t* in, std::size_t n, std::uint64_t hibit) noexcept {
  const poly_kernels& k = select();
  if (prepare_powers(k, st, n) && n >= k.min_blocks) {
    k.vector(st, in, n, hibit);
    st.absorbed += n;
    return;
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

// collapse sums live lanes into h with the kernel that made them (pw still
// holds their powers: the kernels change only through settle), then absorbs
// the whole blocks buffered behind them, leaving a partial block in buf.
void settle(poly1305_state& st) noexcept {
  if (st.live == poly1305_powers::none) return;
#if SEALWIRE_X86_KERNELS
  if (!st.started) {
    // nothing in the lanes yet
  } else if (st.live == poly1305_powers::radix44x8) {
    poly1305_collapse_ifma(st);
  } else {
    poly1305_collapse_avx2(st);
  }
#endif
  st.live = poly1305_powers::none;
  st.started = false;
  const std::size_t whole = st.buf_len / 16, rest = st.buf_len % 16;
  if (whole != 0) {
    blocks(st, st.buf, whole, 1);
    std::memmove(st.buf, st.buf + 16 * whole, rest);
    st.buf_len = static_cast<std::uint8_t>(rest);
  }
}

// lanes absorbs g blocks (whole groups) into the live lanes, starting them
// from h with the first group.
void lanes(const poly_kernels& k, poly1305_state& st, const std::uint8_t* in, std::size_t g) noexcept {
  k.lanes(st, in, g, !st.started);
  st.started = true;
  st.lanes_used = true;
  st.absorbed += g;
}

// update_live feeds live lanes: whole groups straight from the input, the
// rest through buf (fewer than a group of blocks).
void update_live(const poly_kernels& k, poly1305_state& st, const std::uint8_t* p, std::size_t n) noexcept {
  const std::size_t group = 16 * k.width;
  if (st.buf_len != 0) {
    const std::size_t take = std::min<std::size_t>(n, group - st.buf_len);
    std::memcpy(st.buf + st.buf_len, p, take);
    st.buf_len = static_cast<std::uint8_t>(st.buf_len + take);
    p += take;
    n -= take;
    if (st.buf_len < group) return;
    lanes(k, st, st.buf, k.width);
    st.buf_len = 0;
  }
  if (n >= group) {
    const std::size_t g = n / group * k.width;
    lanes(k, st, p, g);
    p += 16 * g;
    n -= 16 * g;
  }
  std::memcpy(st.buf, p, n);
  st.buf_len = static_cast<std::uint8_t>(n);
}

}  // namespace
}  // namespace detail

static_assert(sizeof(detail::poly1305_state) <= detail::poly1305_state_storage &&
                  alignof(detail::poly1305_state) <= 64,
              "poly1305's storage is too small for its state");

namespace {

// wipe_fixed clears N (>= 16) bytes with 16-byte stores. One memset over a
// few hundred bytes became `rep stos`, whose start-up cost made the wipes a
// tenth of a 1 KiB ChaCha20-Poly1305 seal on AMD Zen 4 (measured); the
// barrier after each store keeps the compiler from joining them into one.
template <std::size_t N>
inline void wipe_fixed(void* p) noexcept {
  static_assert(N >= 16);
  auto* b = static_cast<unsigned char*>(p);
  for (std::size_t i = 0; i + 16 <= N; i += 16) {
    std::memset(b + i, 0, 16);
    __asm__ __volatile__("" : : "r"(b) : "memory");
  }
  if constexpr (N % 16 != 0) std::memset(b + N - 16, 0, 16);
  __asm__ __volatile__("" : : "r"(b) : "memory");
}

}  // namespace

poly1305::poly1305() noexcept {
  auto* s = ::new (storage_.get()) detail::poly1305_state;
  s->powers = detail::poly1305_powers::none;
  s->live = detail::poly1305_powers::none;
  s->started = false;
  s->lanes_used = false;
  s->buf_len = 0;
}

poly1305::poly1305(std::span<const std::uint8_t, key_size> key) noexcept : poly1305() { init(key); }

poly1305::~poly1305() { wipe(); }

poly1305::poly1305(poly1305&& other) noexcept : poly1305() { *this = std::move(other); }

poly1305& poly1305::operator=(poly1305&& other) noexcept {
  if (this != &other) {
    // The powers are copied only when the source holds them (they are
    // uninitialised otherwise).
    detail::poly1305_state& d = st();
    const detail::poly1305_state& s = other.st();
    if (d.powers != detail::poly1305_powers::none) ct::wipe(d.pw, sizeof d.pw);
    if (d.lanes_used) ct::wipe(d.lanes, sizeof d.lanes);
    std::memcpy(reinterpret_cast<unsigned char*>(&d) + detail::poly1305_message_offset,
                reinterpret_cast<const unsigned char*>(&s) + detail::poly1305_message_offset,
                detail::poly1305_message_bytes);
    if (s.powers != detail::poly1305_powers::none) std::memcpy(d.pw, s.pw, sizeof d.pw);
    if (s.lanes_used) std::memcpy(d.lanes, s.lanes, sizeof d.lanes);
    other.wipe();
  }
  return *this;
}

detail::poly1305_state& poly1305::st() noexcept {
  return *std::launder(static_cast<detail::poly1305_state*>(storage_.get()));
}

void poly1305::init(std::span<const std::uint8_t, key_size> key) noexcept {
  detail::poly1305_state& ps = st();  // one call: st() is not inlined across the export boundary
  // RFC 8439 2.5.1: clamp r.
  ps.r[0] = detail::load64_le(key.data()) & 0x0ffffffc0fffffffULL;
  ps.r[1] = detail::load64_le(key.data() + 8) & 0x0ffffffc0ffffffcULL;
  ps.s[0] = detail::load64_le(key.data() + 16);
  ps.s[1] = detail::load64_le(key.data() + 24);
  ps.h[0] = ps.h[1] = ps.h[2] = 0;
  ps.absorbed = 0;
  if (ps.powers != detail::poly1305_powers::none) wipe_fixed<sizeof ps.pw>(ps.pw);  // powers of the old key
  ps.powers = detail::poly1305_powers::none;
  if (ps.lanes_used) wipe_fixed<sizeof ps.lanes>(ps.lanes);  // the old message's accumulators
  ps.live = detail::poly1305_powers::none;
  ps.started = false;
  ps.lanes_used = false;
  ps.buf_len = 0;
}

void poly1305::wipe() noexcept {
  detail::poly1305_state& ps = st();  // one call: st() is not inlined across the export boundary
  // h, r, s, the counters and the buffer are contiguous: one clear; the
  // powers only if set.
  const bool had_powers = ps.powers != detail::poly1305_powers::none;
  const bool had_lanes = ps.lanes_used;
  wipe_fixed<detail::poly1305_message_bytes>(reinterpret_cast<unsigned char*>(&ps) + detail::poly1305_message_offset);
  if (had_powers) wipe_fixed<sizeof ps.pw>(ps.pw);
  if (had_lanes) wipe_fixed<sizeof ps.lanes>(ps.lanes);
}

void poly1305::update(std::span<const std::uint8_t> in) noexcept {
  detail::poly1305_state& ps = st();  // one call: st() is not inlined across the export boundary
  if (in.empty()) return;
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  const detail::poly_kernels& k = detail::select();
  if (ps.live != detail::poly1305_powers::none) {
    if (ps.live == k.powers) return detail::update_live(k, ps, p, n);
    detail::settle(ps);  // the CPU level changed within the message
  }
  if (k.lanes != nullptr && (ps.buf_len + n) / block_size >= k.min_blocks &&
      detail::prepare_powers(k, ps, (ps.buf_len + n) / block_size)) {
    // Enough text for the vector kernel: its lanes go live (buf, holding at
    // most a partial block now, collects the first group if this piece is
    // shorter) and stay live across calls until finish.
    ps.live = k.powers;
    ps.started = false;
    return detail::update_live(k, ps, p, n);
  }
  if (ps.buf_len != 0) {
    const std::size_t take = std::min<std::size_t>(n, block_size - ps.buf_len);
    detail::copy_small(ps.buf + ps.buf_len, p, take);
    ps.buf_len = static_cast<std::uint8_t>(ps.buf_len + take);
    p += take;
    n -= take;
    if (ps.buf_len < block_size) return;
    detail::absorb_one(ps, ps.buf, 1);
    ps.buf_len = 0;
  }
  if (n >= block_size) {
    const std::size_t whole = n / block_size;
    detail::blocks(ps, p, whole, 1);
    p += whole * block_size;
    n -= whole * block_size;
  }
  if (n != 0) {
    detail::copy_small(ps.buf, p, n);
    ps.buf_len = static_cast<std::uint8_t>(n);
  }
}

void poly1305::pad16() noexcept {
  detail::poly1305_state& ps = st();  // one call: st() is not inlined across the export boundary
  if (ps.buf_len % block_size == 0) return;
  if (ps.live != detail::poly1305_powers::none) {
    // Live lanes: the zero padding completes the buffered block in place.
    const std::size_t len = ps.buf_len, padded = (len + block_size - 1) / block_size * block_size;
    std::memset(ps.buf + len, 0, padded - len);
    ps.buf_len = static_cast<std::uint8_t>(padded);
    const detail::poly_kernels& k = detail::select();
    if (ps.live != k.powers) {
      detail::settle(ps);  // the CPU level changed within the message
    } else if (padded == 16 * k.width) {
      detail::lanes(k, ps, ps.buf, k.width);
      ps.buf_len = 0;
    }
    return;
  }
  std::memset(ps.buf + ps.buf_len, 0, block_size - ps.buf_len);
  detail::absorb_one(ps, ps.buf, 1);
  ps.buf_len = 0;
}

void poly1305::finish(std::span<std::uint8_t, tag_size> tag) noexcept {
  detail::poly1305_state& ps = st();  // one call: st() is not inlined across the export boundary
  detail::settle(ps);
  if (ps.buf_len != 0) {
    // RFC 8439 2.5.1: a final short block gets a 1 byte appended and no 2^128.
    ps.buf[ps.buf_len] = 1;
    std::memset(ps.buf + ps.buf_len + 1, 0, block_size - ps.buf_len - 1);
    detail::absorb_one(ps, ps.buf, 0);
  }
  using detail::u128;
  std::uint64_t h0 = ps.h[0], h1 = ps.h[1];
  const std::uint64_t h2 = ps.h[2];
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
  t = static_cast<u128>(h0) + ps.s[0];
  h0 = static_cast<std::uint64_t>(t);
  h1 = h1 + ps.s[1] + static_cast<std::uint64_t>(t >> 64);
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

// poly1305_direct_lanes readies the IFMA lanes for a stitched kernel that
// feeds nblocks (whole groups of 8) straight from the text: the lanes go live
// (computing the powers of r if needed; buf, holding at most a partial block
// when they were not live, becomes the start of their next group). It
// returns the state, or null when the IFMA kernels do not run at this CPU
// level or the message is too short for the powers; the caller then uses
// update. A kernel may feed the lanes only when buf_len is 0 (the text is at
// a group boundary: update brings it there). After the kernel, the caller
// records the blocks with poly1305_direct_done.
detail::poly1305_state* detail::poly1305_direct_lanes(poly1305& p, std::size_t nblocks) noexcept {
#if SEALWIRE_X86_KERNELS
  detail::poly1305_state& s = p.st();
  const detail::poly_kernels& k = detail::select();
  if (k.powers != detail::poly1305_powers::radix44x8) return nullptr;
  if (s.live == detail::poly1305_powers::none) {
    if (!detail::prepare_powers(k, s, nblocks)) return nullptr;
    s.live = k.powers;
    s.started = false;
  }
  return s.live == k.powers ? &s : nullptr;
#else
  static_cast<void>(p);
  static_cast<void>(nblocks);
  return nullptr;
#endif
}

void detail::poly1305_update_bytes(poly1305& p, const std::uint8_t* in, std::size_t n) noexcept {
  p.update(std::span<const std::uint8_t>(in, n));
}

std::string_view poly1305::provider() noexcept { return detail::select().name; }

}  // namespace sealwire::crypto
