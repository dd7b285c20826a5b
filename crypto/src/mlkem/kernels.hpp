// SPDX-License-Identifier: Apache-2.0
// ML-KEM kernel table: the polynomial, sampling and compression kernels of
// one CPU level (portable, AVX2), chosen at run time. Every kernel gives
// bit-identical results at every level; coefficient order is the standard one
// (FIPS 203) in both domains, so key objects move freely between levels.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::mlkem {

struct kernels {
  const char* name;
  // ntt / invntt: poly_ntt / poly_invntt_tomont on 256 coefficients.
  void (*ntt)(std::int16_t* c) noexcept;
  void (*invntt)(std::int16_t* c) noexcept;
  // basemul_acc: r = sum_{j<k} a[j a_stride ..] o b[j 256 ..] times 2^-16,
  // Barrett-reduced (poly_basemul_acc_strided).
  void (*basemul_acc)(std::int16_t* r, const std::int16_t* a, std::size_t a_stride, const std::int16_t* b,
                      unsigned k) noexcept;
  void (*reduce)(std::int16_t* c) noexcept;
  void (*tomont)(std::int16_t* c) noexcept;
  // rej_uniform appends the 12-bit candidates of buf below q to out (which
  // holds `filled` coefficients) until 256; returns the new count. Public data.
  unsigned (*rej_uniform)(std::int16_t* out, unsigned filled, const std::uint8_t* buf, std::size_t len) noexcept;
  // cbd: SamplePolyCBD_eta of 64 eta bytes, eta 2 or 3; constant time.
  void (*cbd)(std::int16_t* c, const std::uint8_t* buf, unsigned eta) noexcept;
  // compress_encode: ByteEncode_d(Compress_d(a)), d in {4, 5, 10, 11}.
  void (*compress_encode)(std::uint8_t* out, const std::int16_t* a, unsigned d) noexcept;
  // to_message: ByteEncode_1(Compress_1(a)), 32 bytes.
  void (*to_message)(std::uint8_t* m, const std::int16_t* a) noexcept;
  // The rest of encode.hpp: ByteEncode_12, ByteDecode_12 with the modulus
  // check or reduced mod q, ByteDecode_d + Decompress_d, Decompress_1(m).
  void (*encode12)(std::uint8_t* out, const std::int16_t* a) noexcept;
  bool (*decode12_checked)(std::int16_t* a, const std::uint8_t* in) noexcept;
  void (*decode12_reduce)(std::int16_t* a, const std::uint8_t* in) noexcept;
  void (*decode_decompress)(std::int16_t* a, const std::uint8_t* in, unsigned d) noexcept;
  void (*from_message)(std::int16_t* a, const std::uint8_t* m) noexcept;
};

// kernels_now returns the table for the CPU level enabled now (read at each
// call, so forcing a level takes effect at once).
const kernels& kernels_now() noexcept;
// portable_kernels is the reference table the vector kernels are tested against.
const kernels& portable_kernels() noexcept;

// The portable kernels (poly.cpp, sample.cpp, encode.cpp).
void ntt_portable(std::int16_t* c) noexcept;
void invntt_portable(std::int16_t* c) noexcept;
void basemul_acc_portable(std::int16_t* r, const std::int16_t* a, std::size_t a_stride, const std::int16_t* b,
                          unsigned k) noexcept;
void reduce_portable(std::int16_t* c) noexcept;
void tomont_portable(std::int16_t* c) noexcept;
unsigned rej_uniform_portable(std::int16_t* out, unsigned filled, const std::uint8_t* buf, std::size_t len) noexcept;
void cbd_portable(std::int16_t* c, const std::uint8_t* buf, unsigned eta) noexcept;
void compress_encode_portable(std::uint8_t* out, const std::int16_t* a, unsigned d) noexcept;
void to_message_portable(std::uint8_t* m, const std::int16_t* a) noexcept;
void encode12_portable(std::uint8_t* out, const std::int16_t* a) noexcept;
bool decode12_checked_portable(std::int16_t* a, const std::uint8_t* in) noexcept;
void decode12_reduce_portable(std::int16_t* a, const std::uint8_t* in) noexcept;
void decode_decompress_portable(std::int16_t* a, const std::uint8_t* in, unsigned d) noexcept;
void from_message_portable(std::int16_t* a, const std::uint8_t* m) noexcept;

#if SEALWIRE_X86_KERNELS
// The AVX2 kernels (poly_avx2.cpp, sample_avx2.cpp, encode_avx2.cpp).
void ntt_avx2(std::int16_t* c) noexcept;
void invntt_avx2(std::int16_t* c) noexcept;
void basemul_acc_avx2(std::int16_t* r, const std::int16_t* a, std::size_t a_stride, const std::int16_t* b,
                      unsigned k) noexcept;
void reduce_avx2(std::int16_t* c) noexcept;
void tomont_avx2(std::int16_t* c) noexcept;
unsigned rej_uniform_avx2(std::int16_t* out, unsigned filled, const std::uint8_t* buf, std::size_t len) noexcept;
void cbd_avx2(std::int16_t* c, const std::uint8_t* buf, unsigned eta) noexcept;
void compress_encode_avx2(std::uint8_t* out, const std::int16_t* a, unsigned d) noexcept;
void to_message_avx2(std::uint8_t* m, const std::int16_t* a) noexcept;
void encode12_avx2(std::uint8_t* out, const std::int16_t* a) noexcept;
bool decode12_checked_avx2(std::int16_t* a, const std::uint8_t* in) noexcept;
void decode12_reduce_avx2(std::int16_t* a, const std::uint8_t* in) noexcept;
void decode_decompress_avx2(std::int16_t* a, const std::uint8_t* in, unsigned d) noexcept;
void from_message_avx2(std::int16_t* a, const std::uint8_t* m) noexcept;
#endif

}  // namespace sealwire::crypto::mlkem
