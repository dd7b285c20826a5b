// SPDX-License-Identifier: Apache-2.0
// The ML-KEM kernel tables and their run-time choice by CPU level.
#include "kernels.hpp"

#include "../detail/cpu_features.hpp"

#include <sealwire/crypto/cpu.hpp>

namespace sealwire::crypto::mlkem {
namespace {

constexpr kernels portable_table{
    "portable",
    &ntt_portable,
    &invntt_portable,
    &basemul_acc_portable,
    &reduce_portable,
    &tomont_portable,
    &rej_uniform_portable,
    &cbd_portable,
    &compress_encode_portable,
    &to_message_portable,
    &encode12_portable,
    &decode12_checked_portable,
    &decode12_reduce_portable,
    &decode_decompress_portable,
    &from_message_portable};
#if SEALWIRE_X86_KERNELS
// The AVX2 table serves the avx512 level too: 16-bit lanes gain little from
// 512-bit vectors at this size (and AVX-512 kernels would need tests of their own).
constexpr kernels avx2_table{
    "avx2",
    &ntt_avx2,
    &invntt_avx2,
    &basemul_acc_avx2,
    &reduce_avx2,
    &tomont_avx2,
    &rej_uniform_avx2,
    &cbd_avx2,
    &compress_encode_avx2,
    &to_message_avx2,
    &encode12_avx2,
    &decode12_checked_avx2,
    &decode12_reduce_avx2,
    &decode_decompress_avx2,
    &from_message_avx2};
#endif

}  // namespace

const kernels& kernels_now() noexcept {
#if SEALWIRE_X86_KERNELS
  if ((detail::cpu_features() & cpu::avx2) != 0) return avx2_table;
#endif
  return portable_table;
}

const kernels& portable_kernels() noexcept { return portable_table; }

}  // namespace sealwire::crypto::mlkem
