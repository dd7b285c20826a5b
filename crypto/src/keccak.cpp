// SPDX-License-Identifier: Apache-2.0
// Keccak-f[1600] (FIPS 202 section 3) in portable 64-bit code: the 25 lanes
// live in locals, the step mappings are written out with constant indexes
// and the rounds are unrolled two at a time.
#include "detail/keccak.hpp"

#include "detail/bytes.hpp"

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

template <std::size_t... I>
constexpr auto make_round_constants(std::index_sequence<I...>) noexcept {
  struct table {
    std::uint64_t v[24];
  };
  return table{{round_constant(static_cast<int>(I))...}};
}
constexpr auto rc = make_round_constants(std::make_index_sequence<24>{});
static_assert(rc.v[0] == 0x0000000000000001 && rc.v[23] == 0x8000000080008008, "FIPS 202 round constants");
static_assert(rho_offset(1) == 1 && rho_offset(24) == 14 && rho_offset(2) == 62, "FIPS 202 Table 2");

template <int N>
[[gnu::always_inline]] inline std::uint64_t rotl64(std::uint64_t x) noexcept {
  if constexpr (N == 0) {
    return x;
  } else {
    return (x << N) | (x >> (64 - N));
  }
}

// lanes is the state in 25 scalars; the fold expressions below index it
// with constants only, so the compiler keeps it in registers and spills.
struct lanes {
  std::uint64_t v[25];
};

// theta_rho_pi: B[pi(i)] = rotl(A[i] ^ D[i mod 5], rho(i)) (FIPS 202 3.2.1-3.2.3).
template <std::size_t... I>
[[gnu::always_inline]] inline void theta_rho_pi(lanes& b, const lanes& a, const std::uint64_t (&d)[5],
                                                std::index_sequence<I...>) noexcept {
  ((b.v[pi_target(I)] = rotl64<rho_offset(I)>(a.v[I] ^ d[I % 5])), ...);
}

// chi: A[x, y] = B[x, y] ^ (~B[x + 1, y] & B[x + 2, y]) (FIPS 202 3.2.4).
template <std::size_t... I>
[[gnu::always_inline]] inline void chi(lanes& a, const lanes& b, std::index_sequence<I...>) noexcept {
  ((a.v[I] = b.v[I] ^ (~b.v[(I / 5) * 5 + (I + 1) % 5] & b.v[(I / 5) * 5 + (I + 2) % 5])), ...);
}

[[gnu::always_inline]] inline void keccak_round(lanes& a, lanes& b, std::uint64_t round_const) noexcept {
  std::uint64_t c[5], d[5];
  for (int x = 0; x < 5; ++x) c[x] = a.v[x] ^ a.v[x + 5] ^ a.v[x + 10] ^ a.v[x + 15] ^ a.v[x + 20];
  for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ rotl64<1>(c[(x + 1) % 5]);
  theta_rho_pi(b, a, d, std::make_index_sequence<25>{});
  chi(a, b, std::make_index_sequence<25>{});
  a.v[0] ^= round_const;  // iota (FIPS 202 3.2.5)
}

void keccak_f1600_portable(std::uint64_t* state) noexcept {
  lanes a, b;
  for (int i = 0; i < 25; ++i) a.v[i] = state[i];
  for (int r = 0; r < 24; r += 2) {
    keccak_round(a, b, rc.v[r]);
    keccak_round(a, b, rc.v[r + 1]);
  }
  for (int i = 0; i < 25; ++i) state[i] = a.v[i];
}

void keccak_permute_portable(keccak_lanes_t* states, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) keccak_f1600_portable(states[i]);
}

}  // namespace

void keccak_permute(keccak_lanes_t* states, std::size_t n) noexcept {
  // One kernel so far; the wide ones (several states per call) slot in here.
  keccak_permute_portable(states, n);
}

void keccak_absorb_blocks(keccak_lanes_t& s, const std::uint8_t* in, std::size_t nblocks,
                          std::size_t rate_lanes) noexcept {
  for (; nblocks > 0; --nblocks, in += 8 * rate_lanes) {
    for (std::size_t i = 0; i < rate_lanes; ++i) s[i] ^= load64_le(in + 8 * i);
    keccak_f1600_portable(s);
  }
}

std::string_view keccak_provider() noexcept { return "portable"; }

}  // namespace sealwire::crypto::detail
