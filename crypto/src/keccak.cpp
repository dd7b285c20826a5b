// SPDX-License-Identifier: Apache-2.0
// Keccak-f[1600] (FIPS 202 section 3): the portable kernels (64-bit lanes in
// locals, two rounds per loop iteration; see keccak_round.hpp) and the kernel
// table chosen by CPU level.
#include "detail/keccak.hpp"

#include <sealwire/crypto/cpu.hpp>

#include "detail/cpu_features.hpp"
#include "detail/keccak_round.hpp"

namespace sealwire::crypto::detail {
namespace {

void keccak_permute_portable(std::uint64_t* state) noexcept { keccak_permute_one<keccak_scalar_ops, 2>(state); }

void keccak_absorb_portable(std::uint64_t* state, const std::uint8_t* in, std::size_t nblocks,
                            std::size_t rate_lanes) noexcept {
  keccak_absorb_any<keccak_scalar_ops, 2>(state, in, nblocks, rate_lanes);
}

// x4_by_one permutes four interleaved states one at a time with a
// single-state kernel (the levels without a vector kernel).
template <keccak_permute_fn One>
void x4_by_one(std::uint64_t* lanes, std::size_t stride) noexcept {
  for (std::size_t k = 0; k < 4; ++k) {
    std::uint64_t s[25];
    for (std::size_t i = 0; i < 25; ++i) s[i] = lanes[i * stride + k];
    One(s);
    for (std::size_t i = 0; i < 25; ++i) lanes[i * stride + k] = s[i];
  }
}

constexpr keccak_kernels portable_kernels{"portable", "portable", &keccak_permute_portable, &keccak_absorb_portable,
                                          &x4_by_one<&keccak_permute_portable>, nullptr};
#if SEALWIRE_X86_KERNELS
constexpr keccak_kernels bmi2_kernels{"bmi2", "bmi2", &keccak_permute_bmi2, &keccak_absorb_bmi2,
                                      &x4_by_one<&keccak_permute_bmi2>, nullptr};
constexpr keccak_kernels avx2_kernels{"portable", "avx2", &keccak_permute_portable, &keccak_absorb_portable,
                                      &keccak_permute_x4_avx2, nullptr};
constexpr keccak_kernels avx2_bmi2_kernels{"bmi2", "avx2", &keccak_permute_bmi2, &keccak_absorb_bmi2,
                                           &keccak_permute_x4_avx2, nullptr};
constexpr keccak_kernels avx512_kernels{"avx512", "avx512", &keccak_permute_avx512, &keccak_absorb_avx512,
                                        &keccak_permute_x4_avx512, &keccak_permute_x8_avx512};

// The bmi2 kernel also uses andn (BMI1), which cpu.hpp does not list as a
// feature of its own: every CPU with BMI2 has it, but check anyway.
bool have_bmi1() noexcept {
  static const bool bmi1 = [] {
    __builtin_cpu_init();  // safe even if called before libgcc's constructor
    return __builtin_cpu_supports("bmi") != 0;
  }();
  return bmi1;
}
#endif

}  // namespace

const keccak_kernels& keccak_kernels_now() noexcept {
#if SEALWIRE_X86_KERNELS
  const std::uint32_t f = detail::cpu_features();
  constexpr std::uint32_t avx512_needs = cpu::avx512f | cpu::avx512vl | cpu::avx2;
  if ((f & avx512_needs) == avx512_needs) return avx512_kernels;
  const bool bmi = (f & cpu::bmi2) != 0 && have_bmi1();
  if ((f & cpu::avx2) != 0) return bmi ? avx2_bmi2_kernels : avx2_kernels;
  if (bmi) return bmi2_kernels;
#endif
  return portable_kernels;
}

void keccak_permute(keccak_lanes_t* states, std::size_t n) noexcept {
  const keccak_kernels& k = keccak_kernels_now();
  for (std::size_t i = 0; i < n; ++i) k.permute(states[i]);
}

void keccak_absorb_blocks(keccak_lanes_t& s, const std::uint8_t* in, std::size_t nblocks,
                          std::size_t rate_lanes) noexcept {
  keccak_kernels_now().absorb(s, in, nblocks, rate_lanes);
}

void keccak_permute_interleaved(std::uint64_t* lanes, std::size_t ways) noexcept {
  const keccak_kernels& k = keccak_kernels_now();
  if (ways == 8 && k.x8 != nullptr) return k.x8(lanes, 8);
  for (std::size_t g = 0; g < ways; g += 4) k.x4(lanes + g, ways);
}

std::string_view keccak_provider() noexcept { return keccak_kernels_now().name; }
std::string_view keccak_wide_provider() noexcept { return keccak_kernels_now().wide_name; }

}  // namespace sealwire::crypto::detail
