// SPDX-License-Identifier: Apache-2.0
// Field arithmetic modulo p = 2^255 - 19 in four 64-bit limbs (radix 2^64),
// for x86-64 CPUs with BMI2 and ADX: products by mulx, carries by two
// independent chains (adcx on CF, adox on OF). The caller checks the CPU
// before calling anything here (the ladder in x25519_bmi2.cpp is chosen at
// run time). Inline assembly keeps the two carry chains apart, which the
// compiler does not do from _addcarryx_u64.
//
// Representation: an element is any 256-bit value v with v = x (mod p); it
// is not kept below p. Since 2^256 = 2 * 2^255 = 38 (mod p), a carry out of
// the top limb comes back as +38 and a borrow as -38 (the "x38 fold").
// fe64_store alone makes the value canonical.
#pragma once

#if defined(__x86_64__)

#include <sealwire/crypto/ct.hpp>

#include "bytes.hpp"

#include <cstdint>

namespace sealwire::crypto::detail {
namespace {

struct fe64 {
  std::uint64_t v[4];
};

// fe64_in: how the assembly blocks below take their inputs. Each limb is its
// own memory operand, so an optimising build addresses a value where it lies
// (a stack slot) and keeps no pointer registers live across the ladder. An
// unoptimised build (-O0, the sanitizer tests) would spend one register per
// limb on reloaded pointers and run out; there the inputs come by value and
// lie in the frame. That is enough for GCC; clang, unoptimised, still puts
// each operand's address in a register of its own, so the build gives the
// files that use this field -O1 with clang in unoptimised configurations
// (SEALWIRE_MULX_ASM_FLAGS, cmake/SealwireHelpers.cmake).
#if defined(__OPTIMIZE__)
using fe64_in = const fe64&;
#elif defined(__clang__)
#error "clang needs -O1 or more for the four-limb field's assembly (SEALWIRE_MULX_ASM_FLAGS adds it)"
#else
using fe64_in = const fe64;
#endif

// fe64_load reads 32 little-endian bytes and clears bit 255 (RFC 7748 5);
// u >= p stays as it is (the arithmetic takes any value below 2^256).
inline fe64 fe64_load(const std::uint8_t in[32]) noexcept {
  return {{load64_le(in), load64_le(in + 8), load64_le(in + 16), load64_le(in + 24) & 0x7fffffffffffffffULL}};
}

// fe64_store writes the canonical value (below p).
inline void fe64_store(std::uint8_t out[32], const fe64& a) noexcept {
  // Fold bit 255 back as 19: the value becomes < 2^255 + 19.
  std::uint64_t v[4] = {a.v[0], a.v[1], a.v[2], a.v[3] & 0x7fffffffffffffffULL};
  u128 acc = static_cast<u128>(v[0]) + 19 * (a.v[3] >> 63);
  for (int i = 0; i < 4; ++i) {
    if (i > 0) acc += v[i];
    v[i] = static_cast<std::uint64_t>(acc);
    acc >>= 64;
  }
  // v >= p exactly when v + 19 reaches 2^255; then v - p = (v + 19) - 2^255.
  std::uint64_t t[4];
  acc = static_cast<u128>(v[0]) + 19;
  for (int i = 0; i < 4; ++i) {
    if (i > 0) acc += v[i];
    t[i] = static_cast<std::uint64_t>(acc);
    acc >>= 64;
  }
  const std::uint64_t mask = ct::mask_from_bit(t[3] >> 63);
  t[3] &= 0x7fffffffffffffffULL;
  for (int i = 0; i < 4; ++i) store64_le(out + 8 * i, v[i] ^ (mask & (v[i] ^ t[i])));
}

// fe64_mul: 4x4 schoolbook product in eight limbs (one row per limb of b,
// each row on both carry chains), then the upper four limbs times 38 added
// to the lower four, then the part above bit 255 times 19. Each row's high
// halves go through the limb that row creates last (t5, t6, t7), so the
// block needs ten registers (the inputs are memory operands): it must still
// build with a frame pointer and sanitizers (-O1 -fno-omit-frame-pointer
// leaves fourteen).
[[gnu::always_inline]] inline fe64 fe64_mul(fe64_in a, fe64_in b) noexcept {
  std::uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, d;
  asm("movq %[b0], %%rdx\n\t"
      "mulxq %[a0], %[t0], %[t1]\n\t"
      "mulxq %[a1], %[lo], %[t2]\n\t"
      "addq %[lo], %[t1]\n\t"
      "mulxq %[a2], %[lo], %[t3]\n\t"
      "adcq %[lo], %[t2]\n\t"
      "mulxq %[a3], %[lo], %[t4]\n\t"
      "adcq %[lo], %[t3]\n\t"
      "adcq $0, %[t4]\n\t"
      // row 1: t1..t5 += b1 * a
      "movq %[b1], %%rdx\n\t"
      "xorq %[lo], %[lo]\n\t"
      "mulxq %[a0], %[lo], %[t5]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "adoxq %[t5], %[t2]\n\t"
      "mulxq %[a1], %[lo], %[t5]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[t5], %[t3]\n\t"
      "mulxq %[a2], %[lo], %[t5]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[t5], %[t4]\n\t"
      "mulxq %[a3], %[lo], %[t5]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "movq $0, %[lo]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[lo], %[t5]\n\t"
      // row 2: t2..t6 += b2 * a
      "movq %[b2], %%rdx\n\t"
      "xorq %[lo], %[lo]\n\t"
      "mulxq %[a0], %[lo], %[t6]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[t6], %[t3]\n\t"
      "mulxq %[a1], %[lo], %[t6]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[t6], %[t4]\n\t"
      "mulxq %[a2], %[lo], %[t6]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[t6], %[t5]\n\t"
      "mulxq %[a3], %[lo], %[t6]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "movq $0, %[lo]\n\t"
      "adcxq %[lo], %[t6]\n\t"
      "adoxq %[lo], %[t6]\n\t"
      // row 3: t3..t7 += b3 * a
      "movq %[b3], %%rdx\n\t"
      "xorq %[lo], %[lo]\n\t"
      "mulxq %[a0], %[lo], %[t7]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[t7], %[t4]\n\t"
      "mulxq %[a1], %[lo], %[t7]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[t7], %[t5]\n\t"
      "mulxq %[a2], %[lo], %[t7]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[t7], %[t6]\n\t"
      "mulxq %[a3], %[lo], %[t7]\n\t"
      "adcxq %[lo], %[t6]\n\t"
      "movq $0, %[lo]\n\t"
      "adcxq %[lo], %[t7]\n\t"
      "adoxq %[lo], %[t7]\n\t"
      // t0..t3 += 38 * t4..t7; the carry word (at most 39) lands in t4.
      "movl $38, %%edx\n\t"
      "xorq %[lo], %[lo]\n\t"
      "mulxq %[t4], %[lo], %[t4]\n\t"
      "adcxq %[lo], %[t0]\n\t"
      "adoxq %[t4], %[t1]\n\t"
      "mulxq %[t5], %[lo], %[t5]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "adoxq %[t5], %[t2]\n\t"
      "mulxq %[t6], %[lo], %[t6]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[t6], %[t3]\n\t"
      "mulxq %[t7], %[lo], %[t4]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "movq $0, %[lo]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[lo], %[t4]\n\t"
      // The value is now t4:t3..t0 with t4 <= 39. Split it at bit 255 and
      // add the part above times 19 (2^255 = 19 mod p): the sum stays below
      // 2^255 + 2^11, so no carry leaves t3.
      "shldq $1, %[t3], %[t4]\n\t"
      "btrq $63, %[t3]\n\t"
      "imulq $19, %[t4], %[t4]\n\t"
      "addq %[t4], %[t0]\n\t"
      "adcq $0, %[t1]\n\t"
      "adcq $0, %[t2]\n\t"
      "adcq $0, %[t3]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), "=&d"(d)
      : [a0] "m"(a.v[0]), [a1] "m"(a.v[1]), [a2] "m"(a.v[2]), [a3] "m"(a.v[3]), [b0] "m"(b.v[0]),
        [b1] "m"(b.v[1]), [b2] "m"(b.v[2]), [b3] "m"(b.v[3])
      : "cc");
  return {{t0, t1, t2, t3}};
}

// The first row of a square's cross products, a0 * (a1, a2, a3) at t1..t4
// (operand names a0-a3, t1-t4, lo), the same text in fe64_sqr and in
// fe64_sqr_n's loop.
#define SW_FE64_SQR_A0_ROW \
  "movq %[a0], %%rdx\n\t" \
  "mulxq %[a1], %[t1], %[t2]\n\t" \
  "mulxq %[a2], %[lo], %[t3]\n\t" \
  "addq %[lo], %[t2]\n\t" \
  "mulxq %[a3], %[lo], %[t4]\n\t" \
  "adcq %[lo], %[t3]\n\t" \
  "adcq $0, %[t4]\n\t"

// fe64_sqr: the six cross products once, doubled, plus the four squares on
// the other carry chain, then the same reduction as fe64_mul.
[[gnu::always_inline]] inline fe64 fe64_sqr(fe64_in a) noexcept {
  std::uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, hi, d;
  asm(SW_FE64_SQR_A0_ROW
      // a1 * (a2, a3) at t3..t5
      "movq %[a1], %%rdx\n\t"
      "xorq %[lo], %[lo]\n\t"
      "mulxq %[a2], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[hi], %[t4]\n\t"
      "mulxq %[a3], %[lo], %[t5]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "movq $0, %[lo]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[lo], %[t5]\n\t"
      // a2 * a3 at t5..t6
      "movq %[a2], %%rdx\n\t"
      "mulxq %[a3], %[lo], %[t6]\n\t"
      "addq %[lo], %[t5]\n\t"
      "adcq $0, %[t6]\n\t"
      // double t1..t6 (CF chain, carry into t7) and add a_i^2 (OF chain)
      "xorq %[t7], %[t7]\n\t"
      "movq %[a0], %%rdx\n\t"
      "mulxq %%rdx, %[t0], %[hi]\n\t"
      "adcxq %[t1], %[t1]\n\t"
      "adoxq %[hi], %[t1]\n\t"
      "movq %[a1], %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[t2], %[t2]\n\t"
      "adoxq %[lo], %[t2]\n\t"
      "adcxq %[t3], %[t3]\n\t"
      "adoxq %[hi], %[t3]\n\t"
      "movq %[a2], %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[t4], %[t4]\n\t"
      "adoxq %[lo], %[t4]\n\t"
      "adcxq %[t5], %[t5]\n\t"
      "adoxq %[hi], %[t5]\n\t"
      "movq %[a3], %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[t6], %[t6]\n\t"
      "adoxq %[lo], %[t6]\n\t"
      "adcxq %[t7], %[t7]\n\t"
      "adoxq %[hi], %[t7]\n\t"
      // reduction, as in fe64_mul
      "movl $38, %%edx\n\t"
      "xorq %[lo], %[lo]\n\t"
      "mulxq %[t4], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t0]\n\t"
      "adoxq %[hi], %[t1]\n\t"
      "mulxq %[t5], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "adoxq %[hi], %[t2]\n\t"
      "mulxq %[t6], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[hi], %[t3]\n\t"
      "mulxq %[t7], %[lo], %[t4]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "movq $0, %[lo]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[lo], %[t4]\n\t"
      "shldq $1, %[t3], %[t4]\n\t"
      "btrq $63, %[t3]\n\t"
      "imulq $19, %[t4], %[t4]\n\t"
      "addq %[t4], %[t0]\n\t"
      "adcq $0, %[t1]\n\t"
      "adcq $0, %[t2]\n\t"
      "adcq $0, %[t3]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(d)
      : [a0] "m"(a.v[0]), [a1] "m"(a.v[1]), [a2] "m"(a.v[2]), [a3] "m"(a.v[3])
      : "cc");
  return {{t0, t1, t2, t3}};
}

// fe64_mul_small multiplies by a constant k < 2^31: 121665 = (486662 - 2) / 4
// (a24 of RFC 7748 5), or 9 (the base point's u).
template <std::uint32_t k>
inline fe64 fe64_mul_small(fe64_in a) noexcept {
  static_assert(k < (1u << 31));
  std::uint64_t t0, t1, t2, t3, t4, lo, d;
  asm("movl %[k], %%edx\n\t"
      "mulxq %[a0], %[t0], %[t1]\n\t"
      "mulxq %[a1], %[lo], %[t2]\n\t"
      "addq %[lo], %[t1]\n\t"
      "mulxq %[a2], %[lo], %[t3]\n\t"
      "adcq %[lo], %[t2]\n\t"
      "mulxq %[a3], %[lo], %[t4]\n\t"
      "adcq %[lo], %[t3]\n\t"
      "adcq $0, %[t4]\n\t"
      "shldq $1, %[t3], %[t4]\n\t"
      "btrq $63, %[t3]\n\t"
      "imulq $19, %[t4], %[t4]\n\t"
      "addq %[t4], %[t0]\n\t"
      "adcq $0, %[t1]\n\t"
      "adcq $0, %[t2]\n\t"
      "adcq $0, %[t3]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [lo] "=&r"(lo), "=&d"(d)
      : [a0] "m"(a.v[0]), [a1] "m"(a.v[1]), [a2] "m"(a.v[2]), [a3] "m"(a.v[3]), [k] "i"(k)
      : "cc");
  return {{t0, t1, t2, t3}};
}

inline fe64 fe64_mul_a24(const fe64& a) noexcept { return fe64_mul_small<121665>(a); }

// fe64_add: a + b; a carry out of 2^256 comes back as 38, twice at most
// (the second only when the value wrapped below 38, so into t0 alone).
inline fe64 fe64_add(fe64_in a, fe64_in b) noexcept {
  std::uint64_t t0 = a.v[0], t1 = a.v[1], t2 = a.v[2], t3 = a.v[3], c;
  asm("addq %[b0], %[t0]\n\t"
      "adcq %[b1], %[t1]\n\t"
      "adcq %[b2], %[t2]\n\t"
      "adcq %[b3], %[t3]\n\t"
      "sbbq %[c], %[c]\n\t"
      "andq $38, %[c]\n\t"
      "addq %[c], %[t0]\n\t"
      "adcq $0, %[t1]\n\t"
      "adcq $0, %[t2]\n\t"
      "adcq $0, %[t3]\n\t"
      "sbbq %[c], %[c]\n\t"
      "andq $38, %[c]\n\t"
      "addq %[c], %[t0]\n\t"
      : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [c] "=&r"(c)
      : [b0] "m"(b.v[0]), [b1] "m"(b.v[1]), [b2] "m"(b.v[2]), [b3] "m"(b.v[3])
      : "cc");
  return {{t0, t1, t2, t3}};
}

// fe64_sub: a - b; a borrow out of 2^256 comes back as -38, twice at most
// (the second only when the value wrapped to 2^256 - 38 or above).
inline fe64 fe64_sub(fe64_in a, fe64_in b) noexcept {
  std::uint64_t t0 = a.v[0], t1 = a.v[1], t2 = a.v[2], t3 = a.v[3], c;
  asm("subq %[b0], %[t0]\n\t"
      "sbbq %[b1], %[t1]\n\t"
      "sbbq %[b2], %[t2]\n\t"
      "sbbq %[b3], %[t3]\n\t"
      "sbbq %[c], %[c]\n\t"
      "andq $38, %[c]\n\t"
      "subq %[c], %[t0]\n\t"
      "sbbq $0, %[t1]\n\t"
      "sbbq $0, %[t2]\n\t"
      "sbbq $0, %[t3]\n\t"
      "sbbq %[c], %[c]\n\t"
      "andq $38, %[c]\n\t"
      "subq %[c], %[t0]\n\t"
      : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [c] "=&r"(c)
      : [b0] "m"(b.v[0]), [b1] "m"(b.v[1]), [b2] "m"(b.v[2]), [b3] "m"(b.v[3])
      : "cc");
  return {{t0, t1, t2, t3}};
}

// fe64_a24_add returns b + 121665 * a (the z2 factor AA + a24 E of RFC 7748
// 5) with one reduction.
inline fe64 fe64_a24_add(fe64_in a, fe64_in b) noexcept {
  std::uint64_t t0, t1, t2, t3, t4, lo, d;
  asm("movl $121665, %%edx\n\t"
      "mulxq %[a0], %[t0], %[t1]\n\t"
      "mulxq %[a1], %[lo], %[t2]\n\t"
      "addq %[lo], %[t1]\n\t"
      "mulxq %[a2], %[lo], %[t3]\n\t"
      "adcq %[lo], %[t2]\n\t"
      "mulxq %[a3], %[lo], %[t4]\n\t"
      "adcq %[lo], %[t3]\n\t"
      "adcq $0, %[t4]\n\t"
      "addq %[b0], %[t0]\n\t"
      "adcq %[b1], %[t1]\n\t"
      "adcq %[b2], %[t2]\n\t"
      "adcq %[b3], %[t3]\n\t"
      "adcq $0, %[t4]\n\t"
      // t4 < 2^18: split at bit 255 and fold the top times 19.
      "shldq $1, %[t3], %[t4]\n\t"
      "btrq $63, %[t3]\n\t"
      "imulq $19, %[t4], %[t4]\n\t"
      "addq %[t4], %[t0]\n\t"
      "adcq $0, %[t1]\n\t"
      "adcq $0, %[t2]\n\t"
      "adcq $0, %[t3]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [lo] "=&r"(lo), "=&d"(d)
      : [a0] "m"(a.v[0]), [a1] "m"(a.v[1]), [a2] "m"(a.v[2]), [a3] "m"(a.v[3]), [b0] "m"(b.v[0]),
        [b1] "m"(b.v[1]), [b2] "m"(b.v[2]), [b3] "m"(b.v[3])
      : "cc");
  return {{t0, t1, t2, t3}};
}

// fe64_add_sub sets sum = a + b and diff = a - b, the pairs RFC 7748 5 forms
// (A and B, C and D, DA + CB and DA - CB). Both inputs must be below
// 2^255 + 2^25, as every output of fe64_mul, fe64_sqr, fe64_mul_small and
// fe64_a24_add is (they fold at bit 255). Then one fold is enough: a carry
// out of a + b leaves less than 2^26, to which 38 adds without a carry; a
// borrow out of a - b leaves more than 2^254, from which 38 subtracts
// without another borrow out of the top limb.
inline void fe64_add_sub(fe64_in a, fe64_in b, fe64& sum, fe64& diff) noexcept {
  std::uint64_t s0 = a.v[0], s1 = a.v[1], s2 = a.v[2], s3 = a.v[3];
  std::uint64_t d0 = s0, d1 = s1, d2 = s2, d3 = s3, c;
  asm("addq %[b0], %[s0]\n\t"
      "adcq %[b1], %[s1]\n\t"
      "adcq %[b2], %[s2]\n\t"
      "adcq %[b3], %[s3]\n\t"
      "sbbq %[c], %[c]\n\t"
      "andq $38, %[c]\n\t"
      "addq %[c], %[s0]\n\t"
      "subq %[b0], %[d0]\n\t"
      "sbbq %[b1], %[d1]\n\t"
      "sbbq %[b2], %[d2]\n\t"
      "sbbq %[b3], %[d3]\n\t"
      "sbbq %[c], %[c]\n\t"
      "andq $38, %[c]\n\t"
      "subq %[c], %[d0]\n\t"
      "sbbq $0, %[d1]\n\t"
      "sbbq $0, %[d2]\n\t"
      "sbbq $0, %[d3]\n\t"
      : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [d0] "+&r"(d0), [d1] "+&r"(d1),
        [d2] "+&r"(d2), [d3] "+&r"(d3), [c] "=&r"(c)
      : [b0] "m"(b.v[0]), [b1] "m"(b.v[1]), [b2] "m"(b.v[2]), [b3] "m"(b.v[3])
      : "cc");
  sum = {{s0, s1, s2, s3}};
  diff = {{d0, d1, d2, d3}};
}

// fe64_sqr_n: a^(2^n) for n >= 1 (a template parameter, so that a count of
// zero, which the loop would take for 2^64, cannot reach it), the runs of
// squarings of the inversion.
// One loop in one assembly block keeps the value in registers from one
// squaring to the next (the chain is latency-bound: a trip through memory per
// squaring is a store-to-load forward on the critical path). Same steps as
// fe64_sqr; each square's high half lands in the register of the limb just
// consumed, so the block needs thirteen registers.
template <int n>
inline fe64 fe64_sqr_n(const fe64& in) noexcept {
  static_assert(n >= 1);
  std::uint64_t a0 = in.v[0], a1 = in.v[1], a2 = in.v[2], a3 = in.v[3];
  std::uint64_t t1, t2, t3, t4, t5, t6, lo, d;
  auto count = static_cast<std::uint64_t>(n);
  asm("1:\n\t"
      // cross products a_i a_j (i < j) at t1..t6
      SW_FE64_SQR_A0_ROW
      "movq %[a1], %%rdx\n\t"
      "xorq %[lo], %[lo]\n\t"
      "mulxq %[a2], %[lo], %[t5]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[t5], %[t4]\n\t"
      "mulxq %[a3], %[lo], %[t5]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "movl $0, %k[lo]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[lo], %[t5]\n\t"
      "movq %[a2], %%rdx\n\t"
      "mulxq %[a3], %[lo], %[t6]\n\t"
      "addq %[lo], %[t5]\n\t"
      "adcq $0, %[t6]\n\t"
      // double t1..t6 (CF chain) and add the squares (OF chain); t0 goes to
      // a0's register, the square of a_i's high half to a_i's (i = 1..3),
      // and a3's register ends as t7.
      "xorq %[lo], %[lo]\n\t"
      "movq %[a0], %%rdx\n\t"
      "mulxq %%rdx, %[a0], %[lo]\n\t"
      "adcxq %[t1], %[t1]\n\t"
      "adoxq %[lo], %[t1]\n\t"
      "movq %[a1], %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[a1]\n\t"
      "adcxq %[t2], %[t2]\n\t"
      "adoxq %[lo], %[t2]\n\t"
      "adcxq %[t3], %[t3]\n\t"
      "adoxq %[a1], %[t3]\n\t"
      "movq %[a2], %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[a2]\n\t"
      "adcxq %[t4], %[t4]\n\t"
      "adoxq %[lo], %[t4]\n\t"
      "adcxq %[t5], %[t5]\n\t"
      "adoxq %[a2], %[t5]\n\t"
      "movq %[a3], %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[a3]\n\t"
      "adcxq %[t6], %[t6]\n\t"
      "adoxq %[lo], %[t6]\n\t"
      "movl $0, %k[lo]\n\t"
      "adcxq %[lo], %[a3]\n\t"
      "adoxq %[lo], %[a3]\n\t"
      // reduction, as in fe64_mul: t0..t3 += 38 * t4..t7 (a1 holds the high
      // halves), carry word in t4, then the part above bit 255 times 19
      "movl $38, %%edx\n\t"
      "xorq %[lo], %[lo]\n\t"
      "mulxq %[t4], %[lo], %[a1]\n\t"
      "adcxq %[lo], %[a0]\n\t"
      "adoxq %[a1], %[t1]\n\t"
      "mulxq %[t5], %[lo], %[a1]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "adoxq %[a1], %[t2]\n\t"
      "mulxq %[t6], %[lo], %[a1]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[a1], %[t3]\n\t"
      "mulxq %[a3], %[lo], %[t4]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "movl $0, %k[lo]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[lo], %[t4]\n\t"
      "shldq $1, %[t3], %[t4]\n\t"
      "btrq $63, %[t3]\n\t"
      "imulq $19, %[t4], %[t4]\n\t"
      "addq %[t4], %[a0]\n\t"
      "adcq $0, %[t1]\n\t"
      "adcq $0, %[t2]\n\t"
      "adcq $0, %[t3]\n\t"
      "movq %[t1], %[a1]\n\t"
      "movq %[t2], %[a2]\n\t"
      "movq %[t3], %[a3]\n\t"
      "subq $1, %[n]\n\t"
      "jnz 1b\n\t"
      : [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [a3] "+&r"(a3), [t1] "=&r"(t1), [t2] "=&r"(t2),
        [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), "=&d"(d), [n] "+&r"(count)
      :
      : "cc");
  return {{a0, a1, a2, a3}};
}

// fe64_invert computes z^(p-2) = z^(2^255 - 21) by the fixed addition chain
// of fe25519.hpp (public shape: it leaks nothing about z).
inline fe64 fe64_invert(const fe64& z) noexcept {
  const fe64 z2 = fe64_sqr(z);                                  // 2
  const fe64 z9 = fe64_mul(fe64_sqr_n<2>(z2), z);               // 9
  const fe64 z11 = fe64_mul(z9, z2);                            // 11
  const fe64 z_5 = fe64_mul(fe64_sqr(z11), z9);                 // 2^5 - 1
  const fe64 z_10 = fe64_mul(fe64_sqr_n<5>(z_5), z_5);          // 2^10 - 1
  const fe64 z_20 = fe64_mul(fe64_sqr_n<10>(z_10), z_10);       // 2^20 - 1
  const fe64 z_40 = fe64_mul(fe64_sqr_n<20>(z_20), z_20);       // 2^40 - 1
  const fe64 z_50 = fe64_mul(fe64_sqr_n<10>(z_40), z_10);       // 2^50 - 1
  const fe64 z_100 = fe64_mul(fe64_sqr_n<50>(z_50), z_50);      // 2^100 - 1
  const fe64 z_200 = fe64_mul(fe64_sqr_n<100>(z_100), z_100);   // 2^200 - 1
  const fe64 z_250 = fe64_mul(fe64_sqr_n<50>(z_200), z_50);     // 2^250 - 1
  return fe64_mul(fe64_sqr_n<5>(z_250), z11);                   // 2^255 - 32 + 11
}

// fe64_cswap exchanges a and b when bit 0 of swap is set (the ladder passes
// 0 or 1; the portable field's cswap reads the same bit). Per limb two
// loads, a copy, two cmov on the flags of one test, two stores; no branch
// and no address depends on swap. The limbs are memory
// operands: the ladder keeps its four values in the frame, and a swap through
// registers made the compiler shuffle them (about 7% of the ladder).
inline void fe64_cswap(fe64& a_io, fe64& b_io, std::uint64_t swap) noexcept {
#if defined(__OPTIMIZE__)
  fe64& a = a_io;
  fe64& b = b_io;
#else
  fe64 a = a_io, b = b_io;  // -O0: frame slots, not a pointer register per limb (see fe64_in)
#endif
  std::uint64_t x, y, t;
  asm("testq $1, %[s]\n\t"
#define SW_FE64_CSWAP_LIMB(P, Q) \
      "movq %[" P "], %[x]\n\t" \
      "movq %[" Q "], %[y]\n\t" \
      "movq %[x], %[t]\n\t" \
      "cmovnzq %[y], %[x]\n\t" \
      "cmovnzq %[t], %[y]\n\t" \
      "movq %[x], %[" P "]\n\t" \
      "movq %[y], %[" Q "]\n\t"
      SW_FE64_CSWAP_LIMB("a0", "b0") SW_FE64_CSWAP_LIMB("a1", "b1") SW_FE64_CSWAP_LIMB("a2", "b2")
      SW_FE64_CSWAP_LIMB("a3", "b3")
#undef SW_FE64_CSWAP_LIMB
      : [x] "=&r"(x), [y] "=&r"(y), [t] "=&r"(t), [a0] "+m"(a.v[0]), [a1] "+m"(a.v[1]), [a2] "+m"(a.v[2]),
        [a3] "+m"(a.v[3]), [b0] "+m"(b.v[0]), [b1] "+m"(b.v[1]), [b2] "+m"(b.v[2]), [b3] "+m"(b.v[3])
      : [s] "r"(swap)
      : "cc");
#if !defined(__OPTIMIZE__)
  a_io = a;
  b_io = b;
#endif
}

#undef SW_FE64_SQR_A0_ROW

}  // namespace
}  // namespace sealwire::crypto::detail

#endif  // __x86_64__
