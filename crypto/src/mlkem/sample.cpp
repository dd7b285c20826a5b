// SPDX-License-Identifier: Apache-2.0
// ML-KEM SampleNTT and SamplePolyCBD (FIPS 203 Algorithms 7 and 8), the SHAKE
// calls grouped four at a time through xof_x4.hpp.
#include "sample.hpp"

#include "../detail/bytes.hpp"
#include "kernels.hpp"
#include "xof_x4.hpp"

#include <sealwire/crypto/ct.hpp>

#include <array>
#include <cstring>

namespace sealwire::crypto::mlkem {

unsigned rej_uniform_portable(std::int16_t* out, unsigned filled, const std::uint8_t* buf, std::size_t len) noexcept {
  // Algorithm 7 lines 5-13: two 12-bit candidates per three bytes, kept when
  // below q. Public data (rho and the matrix are public): may branch.
  for (std::size_t pos = 0; pos + 3 <= len && filled < n; pos += 3) {
    const unsigned d1 = buf[pos] | ((buf[pos + 1] & 0x0fu) << 8);
    const unsigned d2 = (buf[pos + 1] >> 4) | (static_cast<unsigned>(buf[pos + 2]) << 4);
    if (d1 < static_cast<unsigned>(q)) out[filled++] = static_cast<std::int16_t>(d1);
    if (d2 < static_cast<unsigned>(q) && filled < n) out[filled++] = static_cast<std::int16_t>(d2);
  }
  return filled;
}

namespace {

// Three blocks (504 bytes, 336 candidates) usually give 256 coefficients;
// more blocks are squeezed one at a time for all four lanes when not.
constexpr std::size_t first_blocks = 3;

// cbd2 and cbd3 are SamplePolyCBD_eta for eta 2 and 3 (Algorithm 8): each
// coefficient is the difference of two sums of eta bits, computed with
// masks and additions on whole words.
void cbd2(std::int16_t* c, const std::uint8_t* buf) noexcept {
  for (unsigned i = 0; i < n / 8; ++i) {
    const std::uint32_t w = detail::load32_le(buf + 4 * i);
    const std::uint32_t s = (w & 0x55555555u) + ((w >> 1) & 0x55555555u);  // 2-bit sums
    for (unsigned j = 0; j < 8; ++j) {
      const auto a = static_cast<std::int16_t>((s >> (4 * j)) & 3u);
      const auto b = static_cast<std::int16_t>((s >> (4 * j + 2)) & 3u);
      c[8 * i + j] = static_cast<std::int16_t>(a - b);
    }
  }
}

void cbd3(std::int16_t* c, const std::uint8_t* buf) noexcept {
  for (unsigned i = 0; i < n / 4; ++i) {
    const std::uint32_t w = buf[3 * i] | (std::uint32_t{buf[3 * i + 1]} << 8) | (std::uint32_t{buf[3 * i + 2]} << 16);
    const std::uint32_t s = (w & 0x249249u) + ((w >> 1) & 0x249249u) + ((w >> 2) & 0x249249u);  // 3-bit sums
    for (unsigned j = 0; j < 4; ++j) {
      const auto a = static_cast<std::int16_t>((s >> (6 * j)) & 7u);
      const auto b = static_cast<std::int16_t>((s >> (6 * j + 3)) & 7u);
      c[4 * i + j] = static_cast<std::int16_t>(a - b);
    }
  }
}

}  // namespace

void cbd_portable(std::int16_t* c, const std::uint8_t* buf, unsigned eta) noexcept {
  if (eta == 2)
    cbd2(c, buf);
  else
    cbd3(c, buf);
}

void expand_matrix(poly* a, const std::uint8_t rho[32], unsigned k) noexcept {
  const unsigned total = k * k;
  std::uint8_t seeds[4][34];
  std::uint8_t buf[4][first_blocks * shake128_x4::block_size];
  shake128_x4 xof;
  for (unsigned base = 0; base < total; base += 4) {
    // Lanes past the last entry are unused (null).
    std::array<const std::uint8_t*, 4> in{};
    std::array<std::uint8_t*, 4> out{};
    unsigned filled[4];
    for (unsigned l = 0; l < 4; ++l) {
      filled[l] = n;
      if (base + l >= total) continue;
      const unsigned idx = base + l;
      std::memcpy(seeds[l], rho, 32);
      seeds[l][32] = static_cast<std::uint8_t>(idx % k);  // j
      seeds[l][33] = static_cast<std::uint8_t>(idx / k);  // i
      in[l] = seeds[l];
      out[l] = buf[l];
    }
    xof.absorb(in, 34);
    xof.squeeze_blocks(out, first_blocks);
    const kernels& kern = kernels_now();
    for (unsigned l = 0; l < 4; ++l)
      if (in[l] != nullptr) filled[l] = kern.rej_uniform(a[base + l].c, 0, buf[l], sizeof buf[l]);
    while (filled[0] < n || filled[1] < n || filled[2] < n || filled[3] < n) {
      xof.squeeze_blocks(out, 1);
      for (unsigned l = 0; l < 4; ++l)
        if (in[l] != nullptr) filled[l] = kern.rej_uniform(a[base + l].c, filled[l], buf[l], shake128_x4::block_size);
    }
  }
}

void sample_noise(poly* const* out, unsigned count, unsigned eta, const std::uint8_t sigma[32],
                  std::uint8_t nonce) noexcept {
  std::uint8_t in[4][33];
  std::uint8_t buf[4][64 * 3];
  const std::size_t len = 64 * eta;
  for (unsigned base = 0; base < count; base += 4) {
    for (unsigned l = 0; l < 4; ++l) {
      std::memcpy(in[l], sigma, 32);
      in[l][32] = static_cast<std::uint8_t>(nonce + base + l);
    }
    std::array<const std::uint8_t*, 4> ins{};
    std::array<std::uint8_t*, 4> outs{};
    for (unsigned l = 0; l < 4 && base + l < count; ++l) {
      ins[l] = in[l];
      outs[l] = buf[l];
    }
    shake256_x4(outs, len, ins, 33);
    const kernels& kern = kernels_now();
    for (unsigned l = 0; l < 4 && base + l < count; ++l) kern.cbd(out[base + l]->c, buf[l], eta);
  }
  ct::wipe(in, sizeof in);
  ct::wipe(buf, sizeof buf);
}

void sample_matrix_and_noise(poly* a, const std::uint8_t rho[32], unsigned k, poly* const* noise, unsigned count,
                             unsigned eta, const std::uint8_t sigma[32]) noexcept {
  if (!keccak_lanes_x4::vector_kernel()) {
    expand_matrix(a, rho, k);
    sample_noise(noise, count, eta, sigma, 0);
    return;
  }
  // Jobs 0 .. k^2 - 1 are the matrix entries (SHAKE128, squeezed until 256
  // coefficients are accepted), then the noise polynomials (SHAKE256, 64 eta
  // bytes). Each lane takes the next job when its own is done, so every
  // permutation but the last few advances four streams.
  constexpr std::size_t rate128 = 168, rate256 = 136;
  const unsigned matrix_jobs = k * k, total = matrix_jobs + count;
  const std::size_t noise_len = 64 * eta;
  const kernels& kern = kernels_now();
  keccak_lanes_x4 lanes;
  std::uint8_t block[rate128];
  std::uint8_t noise_buf[4][2 * rate256];
  int job[4] = {-1, -1, -1, -1};
  unsigned progress[4] = {};  // coefficients accepted, or noise bytes squeezed
  unsigned next = 0;
  for (;;) {
    bool active = false;
    for (unsigned l = 0; l < 4; ++l) {
      if (job[l] < 0 && next < total) {
        job[l] = static_cast<int>(next);
        progress[l] = 0;
        std::uint8_t in[34];
        if (next < matrix_jobs) {
          std::memcpy(in, rho, 32);
          in[32] = static_cast<std::uint8_t>(next % k);  // j
          in[33] = static_cast<std::uint8_t>(next / k);  // i
          lanes.start(l, in, 34, rate128);
        } else {
          std::memcpy(in, sigma, 32);
          in[32] = static_cast<std::uint8_t>(next - matrix_jobs);  // the PRF nonce
          lanes.start(l, in, 33, rate256);
        }
        ct::wipe(in, sizeof in);
        ++next;
      }
      active |= job[l] >= 0;
    }
    if (!active) break;
    lanes.permute();
    for (unsigned l = 0; l < 4; ++l) {
      if (job[l] < 0) continue;
      const auto j = static_cast<unsigned>(job[l]);
      if (j < matrix_jobs) {
        lanes.read(l, block, rate128);
        progress[l] = kern.rej_uniform(a[j].c, progress[l], block, rate128);
        if (progress[l] == n) job[l] = -1;
      } else {
        lanes.read(l, noise_buf[l] + progress[l], rate256);
        progress[l] += rate256;
        if (progress[l] >= noise_len) {
          kern.cbd(noise[j - matrix_jobs]->c, noise_buf[l], eta);
          job[l] = -1;
        }
      }
    }
  }
  lanes.wipe();
  ct::wipe(noise_buf, sizeof noise_buf);
}

}  // namespace sealwire::crypto::mlkem
