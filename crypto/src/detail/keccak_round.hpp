// SPDX-License-Identifier: Apache-2.0
// Keccak-f[1600] (FIPS 202 section 3) written once over a lane type: the
// portable code runs it on 64-bit scalars, the wide kernels on vectors that
// hold the same lane of 4 or 8 independent states. Everything here has
// internal linkage, so instruction-set files compiled with their own flags
// may include it without sharing code built for a newer CPU.
#pragma once

#include "bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace sealwire::crypto::detail {
namespace {

// rho_offset: FIPS 202 Algorithm 2 walks (x, y) -> (y, 2x + 3y) from (1, 0)
// for t = 0..23, giving lane (x, y) the offset (t + 1)(t + 2) / 2 mod 64.
constexpr int rho_offset(int lane) noexcept {
  if (lane == 0) return 0;
  int x = 1, y = 0;
  for (int t = 0; t < 24; ++t) {
    if (x + 5 * y == lane) return ((t + 1) * (t + 2) / 2) % 64;
    const int nx = y, ny = (2 * x + 3 * y) % 5;
    x = nx;
    y = ny;
  }
  return -1;
}

// pi_target: FIPS 202 3.2.3 sets A'[x, y] = A[x + 3y, x], so the lane at
// (x, y) moves to (y, 2x + 3y).
constexpr int pi_target(int lane) noexcept {
  const int x = lane % 5, y = lane / 5;
  return y + 5 * ((2 * x + 3 * y) % 5);
}

// rc_bit: FIPS 202 Algorithm 5, the LFSR x^8 + x^6 + x^5 + x^4 + 1.
constexpr bool rc_bit(int t) noexcept {
  if (t % 255 == 0) return true;
  unsigned r = 1;
  for (int i = 1; i <= t % 255; ++i) {
    r <<= 1;
    if (r & 0x100) r ^= 0x171;
  }
  return (r & 1) != 0;
}

// round_constant: FIPS 202 Algorithm 6, bit 2^j - 1 of RC_ir is rc(j + 7 ir).
constexpr std::uint64_t round_constant(int ir) noexcept {
  std::uint64_t rc = 0;
  for (int j = 0; j <= 6; ++j) {
    if (rc_bit(j + 7 * ir)) rc |= std::uint64_t{1} << ((1 << j) - 1);
  }
  return rc;
}

struct keccak_rc_table {
  std::uint64_t v[24];
};
template <std::size_t... I>
constexpr keccak_rc_table make_round_constants(std::index_sequence<I...>) noexcept {
  return keccak_rc_table{{round_constant(static_cast<int>(I))...}};
}
constexpr keccak_rc_table keccak_rc = make_round_constants(std::make_index_sequence<24>{});
static_assert(keccak_rc.v[0] == 0x0000000000000001 && keccak_rc.v[23] == 0x8000000080008008,
              "FIPS 202 round constants");
static_assert(rho_offset(1) == 1 && rho_offset(24) == 14 && rho_offset(2) == 62, "FIPS 202 Table 2");

// keccak_rounds runs the 24 rounds on 25 lanes of type Ops::lane. Ops
// supplies xor5, xor3 (a ^ b ^ c), rol<N>, chi(a, b, c) = a ^ (~b & c) and
// xor_u64 (a lane XOR one 64-bit word, in every state it holds). All indexes are
// constants, so the lanes live in registers (and spill slots).
template <class Ops>
struct keccak_rounds {
  using lane = typename Ops::lane;
  struct state {
    lane v[25];
  };

  // theta_rho_pi: B[pi(i)] = rotl(A[i] ^ C[x - 1] ^ rotl(C[x + 1], 1), rho(i))
  // for x = i mod 5 (FIPS 202 3.2.1-3.2.3).
  template <std::size_t... I>
  [[gnu::always_inline]] static inline void theta_rho_pi(state& b, const state& a, const lane (&cm1)[5],
                                                         const lane (&cp1)[5], std::index_sequence<I...>) noexcept {
    ((b.v[pi_target(I)] = Ops::template rol<rho_offset(I)>(Ops::xor3(a.v[I], cm1[I % 5], cp1[I % 5]))), ...);
  }

  // chi: A[x, y] = B[x, y] ^ (~B[x + 1, y] & B[x + 2, y]) (FIPS 202 3.2.4).
  template <std::size_t... I>
  [[gnu::always_inline]] static inline void chi(state& a, const state& b, std::index_sequence<I...>) noexcept {
    ((a.v[I] = Ops::chi(b.v[I], b.v[(I / 5) * 5 + (I + 1) % 5], b.v[(I / 5) * 5 + (I + 2) % 5])), ...);
  }

  [[gnu::always_inline]] static inline void round(state& a, std::uint64_t rc) noexcept {
    lane c[5], cm1[5], cp1[5];
    for (int x = 0; x < 5; ++x) c[x] = Ops::xor5(a.v[x], a.v[x + 5], a.v[x + 10], a.v[x + 15], a.v[x + 20]);
    for (int x = 0; x < 5; ++x) {
      cm1[x] = c[(x + 4) % 5];
      cp1[x] = Ops::template rol<1>(c[(x + 1) % 5]);
    }
    state b;
    theta_rho_pi(b, a, cm1, cp1, std::make_index_sequence<25>{});
    chi(a, b, std::make_index_sequence<25>{});
    a.v[0] = Ops::xor_u64(a.v[0], rc);  // iota (FIPS 202 3.2.5)
  }

  template <std::size_t... R>
  [[gnu::always_inline]] static inline void rounds_from(state& a, std::size_t first,
                                                        std::index_sequence<R...>) noexcept {
    (round(a, keccak_rc.v[first + R]), ...);
  }

  // permute applies the 24 rounds, Unroll of them per loop iteration.
  template <std::size_t Unroll>
  [[gnu::always_inline]] static inline void permute(state& a) noexcept {
    static_assert(24 % Unroll == 0, "the unroll factor divides 24");
    if constexpr (Unroll == 24) {
      rounds_from(a, 0, std::make_index_sequence<24>{});
    } else {
      for (std::size_t r = 0; r < 24; r += Unroll) rounds_from(a, r, std::make_index_sequence<Unroll>{});
    }
  }
};

// keccak_scalar_ops: one state, lanes in 64-bit scalars.
struct keccak_scalar_ops {
  using lane = std::uint64_t;
  static lane xor5(lane a, lane b, lane c, lane d, lane e) noexcept { return a ^ b ^ c ^ d ^ e; }
  // Grouped as a ^ (b ^ c) so that b ^ c (theta's D) is computed once per column.
  static lane xor3(lane a, lane b, lane c) noexcept { return a ^ (b ^ c); }
  template <int N>
  static lane rol(lane x) noexcept {
    if constexpr (N == 0) {
      return x;
    } else {
      return (x << N) | (x >> (64 - N));
    }
  }
  static lane chi(lane a, lane b, lane c) noexcept { return a ^ (~b & c); }
  static lane xor_u64(lane a, std::uint64_t w) noexcept { return a ^ w; }
  static lane load1(std::uint64_t w) noexcept { return w; }
  static std::uint64_t store1(lane a) noexcept { return a; }
};

// keccak_permute_one permutes one state through Ops (load1 and store1 move a
// lane between memory and Ops::lane).
template <class Ops, std::size_t Unroll>
[[gnu::always_inline]] inline void keccak_permute_one(std::uint64_t* s) noexcept {
  using rounds = keccak_rounds<Ops>;
  typename rounds::state a;
  for (std::size_t i = 0; i < 25; ++i) a.v[i] = Ops::load1(s[i]);
  rounds::template permute<Unroll>(a);
  for (std::size_t i = 0; i < 25; ++i) s[i] = Ops::store1(a.v[i]);
}

template <class Ops, std::size_t... I>
[[gnu::always_inline]] inline void keccak_xor_block(typename keccak_rounds<Ops>::state& a, const std::uint8_t* in,
                                                    std::index_sequence<I...>) noexcept {
  ((a.v[I] = Ops::xor_u64(a.v[I], load64_le(in + 8 * I))), ...);
}

// keccak_absorb_rate absorbs nblocks blocks of Rate lanes with the state kept
// in registers from one block to the next.
template <class Ops, std::size_t Unroll, std::size_t Rate>
[[gnu::always_inline]] inline void keccak_absorb_rate(std::uint64_t* s, const std::uint8_t* in,
                                                      std::size_t nblocks) noexcept {
  using rounds = keccak_rounds<Ops>;
  typename rounds::state a;
  for (std::size_t i = 0; i < 25; ++i) a.v[i] = Ops::load1(s[i]);
  for (; nblocks > 0; --nblocks, in += 8 * Rate) {
    keccak_xor_block<Ops>(a, in, std::make_index_sequence<Rate>{});
    rounds::template permute<Unroll>(a);
  }
  for (std::size_t i = 0; i < 25; ++i) s[i] = Ops::store1(a.v[i]);
}

// keccak_absorb_any dispatches on the rates FIPS 202 defines (SHA3-224/256/
// 384/512, SHAKE128/256: 18, 17, 13, 9, 21 lanes); any other rate goes a
// block at a time through memory.
template <class Ops, std::size_t Unroll>
[[gnu::always_inline]] inline void keccak_absorb_any(std::uint64_t* s, const std::uint8_t* in, std::size_t nblocks,
                              std::size_t rate_lanes) noexcept {
  switch (rate_lanes) {
    case 9: return keccak_absorb_rate<Ops, Unroll, 9>(s, in, nblocks);
    case 13: return keccak_absorb_rate<Ops, Unroll, 13>(s, in, nblocks);
    case 17: return keccak_absorb_rate<Ops, Unroll, 17>(s, in, nblocks);
    case 18: return keccak_absorb_rate<Ops, Unroll, 18>(s, in, nblocks);
    case 21: return keccak_absorb_rate<Ops, Unroll, 21>(s, in, nblocks);
    default: break;
  }
  for (; nblocks > 0; --nblocks, in += 8 * rate_lanes) {
    for (std::size_t i = 0; i < rate_lanes; ++i) s[i] ^= load64_le(in + 8 * i);
    keccak_permute_one<Ops, Unroll>(s);
  }
}

// keccak_permute_wide permutes the interleaved states at lanes (lane i at
// lanes + i * stride) through a vector Ops with load and store.
template <class Ops, std::size_t Unroll>
[[gnu::always_inline]] inline void keccak_permute_wide(std::uint64_t* lanes, std::size_t stride) noexcept {
  using rounds = keccak_rounds<Ops>;
  typename rounds::state a;
  for (std::size_t i = 0; i < 25; ++i) a.v[i] = Ops::load(lanes + i * stride);
  rounds::template permute<Unroll>(a);
  for (std::size_t i = 0; i < 25; ++i) Ops::store(lanes + i * stride, a.v[i]);
}

}  // namespace
}  // namespace sealwire::crypto::detail
