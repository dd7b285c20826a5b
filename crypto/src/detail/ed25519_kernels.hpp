// SPDX-License-Identifier: Apache-2.0
// The Ed25519 group kernels (RFC 8032 5.1): the interface between the
// signature code (ed25519.cpp) and the point arithmetic, which is built once
// portable and once for BMI2/ADX (ed25519_point.cpp, ed25519_point_bmi2.cpp).
// Plain arrays and function pointers only, so the instruction-set file
// instantiates no std template.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail {

// ed25519_tables holds the precomputed multiples of the base point B as
// affine Niels triples (y + x, y - x, 2dxy), each coordinate five 51-bit limbs
// (the signing table's entries padded to 16 words: two whole cache lines):
//   base[i][j] = (j + 1) * 256^i * B    (signing: 64 signed radix-16 digits)
//   odd[j]     = (2j + 1) * B           (verification: width-8 NAF digits)
struct ed25519_tables {
  alignas(64) std::uint64_t base[32][8][16];
  std::uint64_t odd[64][15];
};

// ed25519_precomputed returns the tables, built on first use (portable code,
// thread-safe initialisation of a function-local static).
const ed25519_tables& ed25519_precomputed() noexcept;

// ed25519_verdict is what a single verification kernel found.
enum ed25519_verdict : int {
  ed25519_ok = 0,
  ed25519_bad_key = 1,        // A does not decode to a curve point
  ed25519_bad_encoding = 2,   // R does not decode to a curve point
  ed25519_equation_fails = 3  // [8][S]B != [8]R + [8][k]A
};

// ed25519_batch_item is one term pair of the batch equation: the encodings of
// A and R and their scalars (32-byte little-endian, below L).
struct ed25519_batch_item {
  const std::uint8_t* a;
  const std::uint8_t* r;
  std::uint8_t a_scalar[32];  // z * k mod L
  std::uint8_t r_scalar[32];  // z (128 bits)
};

// ed25519_batch_scratch_bytes is the scratch a batch of n items needs
// (each of its 2n points: a width-5 NAF and eight cached odd multiples).
inline constexpr std::size_t ed25519_batch_point_bytes = 256 + 8 * 20 * 8;
inline constexpr std::size_t ed25519_batch_scratch_bytes(std::size_t n) noexcept {
  return 2 * n * ed25519_batch_point_bytes;
}

struct ed25519_kernel {
  // base_mul writes the encoding of [scalar]B; scalar is 32 bytes below
  // 2^255. Constant time in the scalar.
  void (*base_mul)(std::uint8_t out[32], const std::uint8_t scalar[32]) noexcept;
  // verify checks [8][s]B == [8]R + [8][k]A (RFC 8032 5.1.7) for canonical
  // encodings a and r and scalars s, k below L. Variable time (public data).
  ed25519_verdict (*verify)(const std::uint8_t a[32], const std::uint8_t r[32], const std::uint8_t s[32],
                            const std::uint8_t k[32]) noexcept;
  // batch checks [8]([-b]B + sum(r_scalar R + a_scalar A)) == 0 over n
  // items; false when it does not hold or a point does not decode. scratch
  // holds ed25519_batch_scratch_bytes(n) bytes, 8-byte aligned.
  bool (*batch)(const ed25519_batch_item* items, std::size_t n, const std::uint8_t b[32], void* scratch) noexcept;
  // is_point reports whether an encoding decodes to a curve point (RFC 8032 5.1.3).
  bool (*is_point)(const std::uint8_t enc[32]) noexcept;
};

extern const ed25519_kernel ed25519_kernel_portable;
#if SEALWIRE_X86_KERNELS
extern const ed25519_kernel ed25519_kernel_bmi2;
#endif

}  // namespace sealwire::crypto::detail
