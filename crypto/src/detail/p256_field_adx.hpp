// SPDX-License-Identifier: Apache-2.0
// The field of NIST P-256 (p = 2^256 - 2^224 + 2^192 + 2^96 - 1, FIPS 186-4
// D.1.2.3) in Montgomery form over four 64-bit limbs, for x86-64 CPUs with
// BMI2 and ADX: products by mulx on two carry chains (adcx on CF, adox on
// OF), written as inline assembly as fe25519_4x64.hpp is (the compiler does
// not keep two chains apart from _addcarryx_u64). The caller checks the CPU
// (nist_p256_bmi2.cpp is chosen at run time).
//
// Elements hold a R mod p (R = 2^256), always fully reduced (0 <= a < p),
// the same representation as mont_field<p256_params> in nist_field.hpp, so
// the two fields agree limb for limb (the differential test compares them).
// p = -1 mod 2^64 makes -p^-1 mod 2^64 = 1: a reduction row's multiplier is
// the low word itself, and m p = m 2^256 - m 2^224 + m 2^192 + m 2^96 - m
// adds to the row as m 2^32 and m / 2^32 (two shifts) and m p3 (one mulx,
// p3 = 2^64 - 2^32 + 1 the top limb).
#pragma once

#if defined(__x86_64__)

#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/ct.hpp>

#include "nist_curves.hpp"
#include "nist_field.hpp"

#include <cstddef>
#include <cstdint>

// Sanitizer builds check mul's operand order (see mul). Only there: the
// check branches on the value, and valgrind's constant-time check runs the
// other builds (it cannot run sanitized ones).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SW_P256_CHECK_ORDER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SW_P256_CHECK_ORDER 1
#endif
#endif

// One REDC row of the low half (see p256_adx_field::reduce_square): m = t_i is
// the row's multiplier, n1..n3 the three limbs above it, top the new limb
// i + 4; rdx holds p3. m p3 goes to lo and top, split(m) leaves m 2^32 mod
// 2^64 in a and m >> 32 in m, one add chain, and the chain's carry into top
// (at most p3 - 1 before it: it cannot wrap). Named operands lo and a are
// expected in the including asm block, so reduce_square and sqr_n run the same
// rows. SW_P256_SPLIT_MOV splits by a copy and two shifts,
// SW_P256_SPLIT_SHX by shlx and shrx with 32 in the operand c32 (one
// instruction fewer, one register more).
#define SW_P256_SPLIT_MOV(m) \
  "movq %[" #m "], %[a]\n\t" \
  "shlq $32, %[a]\n\t" \
  "shrq $32, %[" #m "]\n\t"
#define SW_P256_SPLIT_SHX(m) \
  "shlxq %[c32], %[" #m "], %[a]\n\t" \
  "shrxq %[c32], %[" #m "], %[" #m "]\n\t"
#define SW_P256_LOW_ROW(split, m, top, n1, n2, n3) \
  "mulxq %[" #m "], %[lo], %[" #top "]\n\t" split(m) \
  "addq %[a], %[" #n1 "]\n\t" \
  "adcq %[" #m "], %[" #n2 "]\n\t" \
  "adcq %[lo], %[" #n3 "]\n\t" \
  "adcq $0, %[" #top "]\n\t"
// The four rows on t0..t3 with x the spare register for limb 4: limbs 4..7
// of L' end in x, t0, t1, t2 (each row's top takes the register of the
// previous row's multiplier, free by then).
#define SW_P256_LOW_ROWS(split, x) \
  SW_P256_LOW_ROW(split, t0, x, t1, t2, t3) \
  SW_P256_LOW_ROW(split, t1, t0, t2, t3, x) \
  SW_P256_LOW_ROW(split, t2, t1, t3, x, t0) \
  SW_P256_LOW_ROW(split, t3, t2, x, t0, t1)
// mul's rows (see p256_adx_field::mul). SW_P256_MUL_ROW: n0..n4 += b_i a
// for b_i at byte offset off of b, n4 new: after the xor (flags cleared, z
// zero) four products on the two chains, the high halves passing through
// n4 (not yet made); n4 takes the top high half, then the two chains' last
// carries by adcx and adox of z.
#define SW_P256_MUL_ROW(off, n0, n1, n2, n3, n4) \
  "movq " #off "(%[pb]), %%rdx\n\t" \
  "xorl %k[z], %k[z]\n\t" \
  "mulxq 0(%[pa]), %[lo], %[" #n4 "]\n\t" \
  "adcxq %[lo], %[" #n0 "]\n\t" \
  "adoxq %[" #n4 "], %[" #n1 "]\n\t" \
  "mulxq 8(%[pa]), %[lo], %[" #n4 "]\n\t" \
  "adcxq %[lo], %[" #n1 "]\n\t" \
  "adoxq %[" #n4 "], %[" #n2 "]\n\t" \
  "mulxq 16(%[pa]), %[lo], %[" #n4 "]\n\t" \
  "adcxq %[lo], %[" #n2 "]\n\t" \
  "adoxq %[" #n4 "], %[" #n3 "]\n\t" \
  "mulxq 24(%[pa]), %[lo], %[" #n4 "]\n\t" \
  "adcxq %[lo], %[" #n3 "]\n\t" \
  "adcxq %[z], %[" #n4 "]\n\t" \
  "adoxq %[z], %[" #n4 "]\n\t"
// SW_P256_MUL_REDC: one REDC row for m = m (its register is free after; m p3
// goes to lo and z, which the next product row zeroes again):
// n1 += m 2^32, n2 += m >> 32, n3:n4 += m p3, and the carry out of n4 by
// last (into the limb above, or out as a mask for the final row).
#define SW_P256_MUL_REDC(m, n1, n2, n3, n4, last) \
  "movq %[" #m "], %%rdx\n\t" \
  "mulxq %[p3m], %[lo], %[z]\n\t" \
  "shlq $32, %[" #m "]\n\t" \
  "shrq $32, %%rdx\n\t" \
  "addq %[" #m "], %[" #n1 "]\n\t" \
  "adcq %%rdx, %[" #n2 "]\n\t" \
  "adcq %[lo], %[" #n3 "]\n\t" \
  "adcq %[z], %[" #n4 "]\n\t" last

namespace sealwire::crypto::detail {
namespace {

struct p256_adx_field {
  static constexpr std::size_t limbs = 4;
  static constexpr std::size_t bytes = 32;
  struct fe {
    std::uint64_t v[4];
  };
  using portable = mont_field<p256_params>;
  static constexpr std::uint64_t p3 = 0xffffffff00000001ULL;
  // p3 in memory, for mulx and sbb operands where no register is left.
  static constexpr std::uint64_t p3_mem = p3;

#ifdef SW_P256_CHECK_ORDER
  // debug_below_p: a < p, for mul's sanitizer-build check only (branches on a).
  static bool debug_below_p(const fe& a) noexcept {
    const std::uint64_t p[4] = {~std::uint64_t{0}, 0xffffffffULL, 0, p3};
    for (int i = 3; i >= 0; --i) {
      if (a.v[i] != p[i]) return a.v[i] < p[i];
    }
    return false;
  }
#endif

  // reduce_square: out = (t7..t0) / R mod p for t whose high half
  // H = (t7..t4) is below p, which a square of a value below p gives
  // (H <= a^2 / R < p) and a general product does not: squares only. The low
  // half L = (t3..t0) is reduced alone: four REDC rows for m = t_i add
  // m 2^32 to t_{i+1}, m >> 32 to t_{i+2}, the low word of m p3 to t_{i+3},
  // and the high word plus the carry becomes limb i + 4 (at most p3 - 1
  // plus 1: no carry goes further; the new limb takes the register that
  // held the previous row's m, the first one a spare). L' = (L + M p) / R
  // is at most p, so H + L' < 2p: one addition (its carry in t3 as 0 or
  // -1), then the one conditional subtraction. The rows need only the low
  // half, so they can run while the square's last limbs are still being
  // summed.
  [[gnu::always_inline]] static inline void reduce_square(fe& out, std::uint64_t t0, std::uint64_t t1, std::uint64_t t2,
                                                   std::uint64_t t3, std::uint64_t t4, std::uint64_t t5,
                                                   std::uint64_t t6, std::uint64_t t7) noexcept {
    std::uint64_t lo, a, x, c32 = 32;
    asm("movabsq %[p3], %%rdx\n\t"  //
        SW_P256_LOW_ROWS(SW_P256_SPLIT_SHX, x)
        // H + L' (t7..t4 += t2, t1, t0, x), its carry in t3
        "addq %[x], %[t4]\n\t"
        "adcq %[t0], %[t5]\n\t"
        "adcq %[t1], %[t6]\n\t"
        "adcq %[t2], %[t7]\n\t"
        "sbbq %[t3], %[t3]\n\t"
        // (t3:t7..t4) - p into t0, t1, t2, a; keep the difference unless it borrows.
        "movl $0xffffffff, %k[lo]\n\t"
        "movq %[t4], %[t0]\n\t"
        "movq %[t5], %[t1]\n\t"
        "movq %[t6], %[t2]\n\t"
        "movq %[t7], %[a]\n\t"
        "subq $-1, %[t0]\n\t"
        "sbbq %[lo], %[t1]\n\t"
        "sbbq $0, %[t2]\n\t"
        "sbbq %%rdx, %[a]\n\t"
        "sbbq $0, %[t3]\n\t"
        "cmovncq %[t0], %[t4]\n\t"
        "cmovncq %[t1], %[t5]\n\t"
        "cmovncq %[t2], %[t6]\n\t"
        "cmovncq %[a], %[t7]\n\t"
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4), [t5] "+&r"(t5),
          [t6] "+&r"(t6), [t7] "+&r"(t7), [lo] "=&r"(lo), [a] "=&r"(a), [x] "=&r"(x)
        : [p3] "i"(p3), [c32] "r"(c32)
        : "rdx", "cc");
    out.v[0] = t4;
    out.v[1] = t5;
    out.v[2] = t6;
    out.v[3] = t7;
  }

  // mul: out = a b / R mod p for a below p and b below 2^256 (add_lazy's
  // sums go in as b, never as a). The schoolbook product, one row per limb
  // of b (low halves on the CF chain, high halves on the OF chain, a zero
  // register taking each row's two last carries into its new top limb),
  // with the REDC rows interleaved: row i of the reduction runs once row
  // i + 1 of the product has made limb i + 5, so its carry lands there by
  // one adc and goes no further. That holds because a < p: after product
  // rows 0..i+1 and reduction rows 0..i the sum is below
  // p 2^(64(i+2)) + p 2^(64(i+1)) < 2^(64(i+6)). Only the last row's carry
  // (bit 512) leaves the limbs, into t3 as 0 or -1 (sbb); the end is
  // reduce_square's: (c:t7..t4) - p kept unless it borrows (a b < p R, so the REDC
  // sum is below 2p). A reduction row takes its multiplier m = t_i into rdx
  // for m p3 (mulx with p3 in memory), then m 2^32 in t_i's register and
  // m >> 32 in rdx (plain shifts: rdx is reloaded by the next product row).
  // Ten registers and two pointers: the inputs are declared by a "memory"
  // clobber, not as "m" operands, because at -O0 with a frame pointer
  // (asan) and under clang (fuzz) those operands' addresses would need
  // registers the block does not leave.
  [[gnu::always_inline]] static inline void mul(fe& out, const fe& a, const fe& b) noexcept {
#ifdef SW_P256_CHECK_ORDER
    // The sanitizer runs of the test suite check the order rule: a lazy sum
    // passed first would make the rows lose a carry for some values only,
    // which random tests rarely reach.
    SEALWIRE_EXPECTS(debug_below_p(a));
#endif
    std::uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, z;
    asm("movq 0(%[pb]), %%rdx\n\t"
        "mulxq 0(%[pa]), %[t0], %[t1]\n\t"
        "mulxq 8(%[pa]), %[lo], %[t2]\n\t"
        "addq %[lo], %[t1]\n\t"
        "mulxq 16(%[pa]), %[lo], %[t3]\n\t"
        "adcq %[lo], %[t2]\n\t"
        "mulxq 24(%[pa]), %[lo], %[t4]\n\t"
        "adcq %[lo], %[t3]\n\t"
        "adcq $0, %[t4]\n\t"  //
        SW_P256_MUL_ROW(8, t1, t2, t3, t4, t5)       //
        SW_P256_MUL_REDC(t0, t1, t2, t3, t4, "adcq $0, %[t5]\n\t")  //
        SW_P256_MUL_ROW(16, t2, t3, t4, t5, t6)      //
        SW_P256_MUL_REDC(t1, t2, t3, t4, t5, "adcq $0, %[t6]\n\t")  //
        SW_P256_MUL_ROW(24, t3, t4, t5, t6, t7)      //
        SW_P256_MUL_REDC(t2, t3, t4, t5, t6, "adcq $0, %[t7]\n\t")  //
        SW_P256_MUL_REDC(t3, t4, t5, t6, t7, "sbbq %[t3], %[t3]\n\t")
        // (t3:t7..t4) - p into t0, t1, t2, lo; keep the difference unless it borrows.
        "movl $0xffffffff, %k[z]\n\t"
        "movq %[t4], %[t0]\n\t"
        "movq %[t5], %[t1]\n\t"
        "movq %[t6], %[t2]\n\t"
        "movq %[t7], %[lo]\n\t"
        "subq $-1, %[t0]\n\t"
        "sbbq %[z], %[t1]\n\t"
        "sbbq $0, %[t2]\n\t"
        "sbbq %[p3m], %[lo]\n\t"
        "sbbq $0, %[t3]\n\t"
        "cmovncq %[t0], %[t4]\n\t"
        "cmovncq %[t1], %[t5]\n\t"
        "cmovncq %[t2], %[t6]\n\t"
        "cmovncq %[lo], %[t7]\n\t"
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
          [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [z] "=&r"(z)
        : [pa] "r"(a.v), [pb] "r"(b.v), [p3m] "m"(p3_mem)
        : "rdx", "cc", "memory");
    out.v[0] = t4;
    out.v[1] = t5;
    out.v[2] = t6;
    out.v[3] = t7;
  }

  // sqr: out = a^2 / R mod p: the six cross products once, doubled on the
  // CF chain while the four squares go in on the OF chain, then reduce.
  [[gnu::always_inline]] static inline void sqr(fe& out, const fe& a) noexcept {
    std::uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, hi;
    asm(  // a0 (a1, a2, a3) at t1..t4
        "movq 0(%[pa]), %%rdx\n\t"
        "mulxq 8(%[pa]), %[t1], %[t2]\n\t"
        "mulxq 16(%[pa]), %[lo], %[t3]\n\t"
        "addq %[lo], %[t2]\n\t"
        "mulxq 24(%[pa]), %[lo], %[t4]\n\t"
        "adcq %[lo], %[t3]\n\t"
        "adcq $0, %[t4]\n\t"
        // a1 (a2, a3) at t3..t5, one carry chain: a1 a2 into t3, t4, its
        // carry into a1 a3's high word (at most 2^64 - 2: no wrap), then
        // a1 a3's low word into t4, whose carry waits in CF for a2 a3
        // (mulx and mov leave the flags alone)
        "movq 8(%[pa]), %%rdx\n\t"
        "mulxq 16(%[pa]), %[lo], %[hi]\n\t"
        "addq %[lo], %[t3]\n\t"
        "adcq %[hi], %[t4]\n\t"
        "mulxq 24(%[pa]), %[lo], %[t5]\n\t"
        "adcq $0, %[t5]\n\t"
        "addq %[lo], %[t4]\n\t"
        // a2 a3 at t5..t6, with t4's carry
        "movq 16(%[pa]), %%rdx\n\t"
        "mulxq 24(%[pa]), %[lo], %[t6]\n\t"
        "adcq %[lo], %[t5]\n\t"
        "adcq $0, %[t6]\n\t"
        // double t1..t6 (CF, its carry into t7) and add a_i^2 (OF); the
        // square is below 2^512, so no carry leaves t7.
        "xorl %k[t7], %k[t7]\n\t"
        "movq 0(%[pa]), %%rdx\n\t"
        "mulxq %%rdx, %[t0], %[hi]\n\t"
        "adcxq %[t1], %[t1]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "movq 8(%[pa]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "adcxq %[t2], %[t2]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[t3], %[t3]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "movq 16(%[pa]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "adcxq %[t4], %[t4]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[t5], %[t5]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "movq 24(%[pa]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[t7], %[t7]\n\t"
        "adoxq %[hi], %[t7]\n\t"
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
          [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [pa] "r"(a.v), "m"(*reinterpret_cast<const std::uint64_t(*)[4]>(a.v))
        : "rdx", "cc");
    reduce_square(out, t0, t1, t2, t3, t4, t5, t6, t7);
  }

  // sqr_n: r = r^(2^n) for n >= 1 (a template parameter: a zero count would
  // loop 2^64 times), the runs of squarings of the inversion. One loop in
  // one asm block keeps the value in registers from one squaring to the
  // next: the run is a chain of dependent squarings, and a store and reload
  // per squaring would sit on its critical path. The steps are sqr's, then
  // reduce_square's rows (SW_P256_LOW_ROWS); the operands are named for their role
  // in the reduction, so the value lives in t0, hi, a and t7 (limbs 0..3)
  // between squarings, and each square's high half lands in the register of
  // the limb it came from. Thirteen registers.
  template <int n>
  [[gnu::always_inline]] static inline void sqr_n(fe& r) noexcept {
    static_assert(n >= 1);
    std::uint64_t t0 = r.v[0], hi = r.v[1], a = r.v[2], t7 = r.v[3];
    std::uint64_t t1, t2, t3, t4, t5, t6, lo;
    auto count = static_cast<std::uint64_t>(n);
    asm("1:\n\t"
        // cross products a_i a_j (i < j) at t1..t6
        "movq %[t0], %%rdx\n\t"
        "mulxq %[hi], %[t1], %[t2]\n\t"
        "mulxq %[a], %[lo], %[t3]\n\t"
        "addq %[lo], %[t2]\n\t"
        "mulxq %[t7], %[lo], %[t4]\n\t"
        "adcq %[lo], %[t3]\n\t"
        "adcq $0, %[t4]\n\t"
        "movq %[hi], %%rdx\n\t"  // a1 (a2, a3) and a2 a3, one chain as in sqr
        "mulxq %[a], %[lo], %[t5]\n\t"
        "addq %[lo], %[t3]\n\t"
        "adcq %[t5], %[t4]\n\t"
        "mulxq %[t7], %[lo], %[t5]\n\t"
        "adcq $0, %[t5]\n\t"
        "addq %[lo], %[t4]\n\t"
        "movq %[a], %%rdx\n\t"
        "mulxq %[t7], %[lo], %[t6]\n\t"
        "adcq %[lo], %[t5]\n\t"
        "adcq $0, %[t6]\n\t"
        // double t1..t6 (CF, carry into t7) and add the squares (OF); the
        // square of limb i goes to that limb's register (t0 keeps a0^2's
        // low half, t7 ends as the top limb).
        "xorl %k[lo], %k[lo]\n\t"
        "movq %[t0], %%rdx\n\t"
        "mulxq %%rdx, %[t0], %[lo]\n\t"
        "adcxq %[t1], %[t1]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "movq %[hi], %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "adcxq %[t2], %[t2]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[t3], %[t3]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "movq %[a], %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[a]\n\t"
        "adcxq %[t4], %[t4]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[t5], %[t5]\n\t"
        "adoxq %[a], %[t5]\n\t"
        "movq %[t7], %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[t7]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t7]\n\t"
        "adoxq %[lo], %[t7]\n\t"
        // reduce_square: the low half's four rows (limbs 4..7 of L' in hi, t0, t1,
        // t2; hi and a are free once the squares are in), H + L' with its
        // carry in t3, then (t3:t7..t4) - p into t0, hi, a, t1, and the sum
        // kept (cmovc) where it borrows.
        "movabsq %[p3], %%rdx\n\t"  //
        SW_P256_LOW_ROWS(SW_P256_SPLIT_MOV, hi)
        "addq %[hi], %[t4]\n\t"
        "adcq %[t0], %[t5]\n\t"
        "adcq %[t1], %[t6]\n\t"
        "adcq %[t2], %[t7]\n\t"
        "sbbq %[t3], %[t3]\n\t"
        "movl $0xffffffff, %k[lo]\n\t"
        "movq %[t4], %[t0]\n\t"
        "movq %[t5], %[hi]\n\t"
        "movq %[t6], %[a]\n\t"
        "movq %[t7], %[t1]\n\t"
        "subq $-1, %[t0]\n\t"
        "sbbq %[lo], %[hi]\n\t"
        "sbbq $0, %[a]\n\t"
        "sbbq %%rdx, %[t1]\n\t"
        "sbbq $0, %[t3]\n\t"
        "cmovcq %[t4], %[t0]\n\t"
        "cmovcq %[t5], %[hi]\n\t"
        "cmovcq %[t6], %[a]\n\t"
        "cmovncq %[t1], %[t7]\n\t"
        "subq $1, %[n]\n\t"
        "jnz 1b\n\t"
        : [t0] "+&r"(t0), [hi] "+&r"(hi), [a] "+&r"(a), [t7] "+&r"(t7), [t1] "=&r"(t1), [t2] "=&r"(t2),
          [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [n] "+&r"(count)
        : [p3] "i"(p3)
        : "rdx", "cc");
    r.v[0] = t0;
    r.v[1] = hi;
    r.v[2] = a;
    r.v[3] = t7;
  }

  // add: a + b (below 2p, a carry bit c above the four limbs, held as 0 or
  // -1), then the difference with p kept unless (c:sum) - p borrows.
  [[gnu::always_inline]] static inline void add(fe& out, const fe& a, const fe& b) noexcept {
    std::uint64_t t0 = a.v[0], t1 = a.v[1], t2 = a.v[2], t3 = a.v[3], s0, s1, s2, s3, c, k1;
    asm("addq 0(%[pb]), %[t0]\n\t"
        "adcq 8(%[pb]), %[t1]\n\t"
        "adcq 16(%[pb]), %[t2]\n\t"
        "adcq 24(%[pb]), %[t3]\n\t"
        "sbbq %[c], %[c]\n\t"  // carry 0 or -1: -1, like 1, never borrows in the last sbb
        "movl $0xffffffff, %k[k1]\n\t"
        "movq %[t0], %[s0]\n\t"
        "movq %[t1], %[s1]\n\t"
        "movq %[t2], %[s2]\n\t"
        "movq %[t3], %[s3]\n\t"
        "subq $-1, %[s0]\n\t"
        "sbbq %[k1], %[s1]\n\t"
        "sbbq $0, %[s2]\n\t"
        "movabsq %[p3], %[k1]\n\t"
        "sbbq %[k1], %[s3]\n\t"
        "sbbq $0, %[c]\n\t"
        "cmovncq %[s0], %[t0]\n\t"
        "cmovncq %[s1], %[t1]\n\t"
        "cmovncq %[s2], %[t2]\n\t"
        "cmovncq %[s3], %[t3]\n\t"
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [s0] "=&r"(s0), [s1] "=&r"(s1),
          [s2] "=&r"(s2), [s3] "=&r"(s3), [c] "=&r"(c), [k1] "=&r"(k1)
        : [pb] "r"(b.v), "m"(*reinterpret_cast<const std::uint64_t(*)[4]>(b.v)), [p3] "i"(p3)
        : "cc");
    out.v[0] = t0;
    out.v[1] = t1;
    out.v[2] = t2;
    out.v[3] = t3;
  }

  // masked_p: out = a op b in one carry chain (op: first, then next for the
  // higher limbs), its carry or borrow made a mask m (sbb), and p's limbs
  // under the mask (p0 = m, p1 = the low half of m, p2 = 0, p3 & m) taken
  // back out (undo, then undo_next) in a second chain: add_lazy's sum
  // minus p when it carried, sub's difference plus p when it borrowed.
#define SW_P256_MASKED_P(first, next, undo, undo_next)                                                  \
  std::uint64_t t0 = a.v[0], t1 = a.v[1], t2 = a.v[2], t3 = a.v[3], m, k1, k3;                           \
  asm(first " 0(%[pb]), %[t0]\n\t" next " 8(%[pb]), %[t1]\n\t" next " 16(%[pb]), %[t2]\n\t" next         \
      " 24(%[pb]), %[t3]\n\t"                                                                            \
      "sbbq %[m], %[m]\n\t"                                                                               \
      "movl %k[m], %k[k1]\n\t"                                                                            \
      "movabsq %[p3], %[k3]\n\t"                                                                          \
      "andq %[m], %[k3]\n\t" undo " %[m], %[t0]\n\t" undo_next " %[k1], %[t1]\n\t" undo_next             \
      " $0, %[t2]\n\t" undo_next " %[k3], %[t3]\n\t"                                                      \
      : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [m] "=&r"(m), [k1] "=&r"(k1),       \
        [k3] "=&r"(k3)                                                                                   \
      : [pb] "r"(b.v), "m"(*reinterpret_cast<const std::uint64_t(*)[4]>(b.v)), [p3] "i"(p3)               \
      : "cc");                                                                                           \
  out.v[0] = t0;                                                                                         \
  out.v[1] = t1;                                                                                         \
  out.v[2] = t2;                                                                                         \
  out.v[3] = t3;

  // add_lazy: a + b for a product's input, or sub's first operand, only:
  // the result is a + b mod p but below 2^256, not always below p (p is
  // subtracted, under the carry as a mask, only when the sum reaches
  // 2^256). A product of such a value x and a fully reduced y is fully
  // reduced: x y < 2^256 p = p R, so the REDC sum (x y + m p) / R stays
  // below 2p and its one subtraction suffices, with x as mul's second
  // factor only (mul(out, y, x)): as the first, the interleaved rows can
  // lose a carry (see mul; sanitizer builds check it). Two such values, or one
  // squared, may leave the product at or above p (REDC below 2^256 + p):
  // never do that, and never pass one as sub's second operand. sub(a, b)
  // with such an a and b below p gives a - b or a - b + p, below 2^256,
  // again a value of this kind. At least one of a and b must be below p
  // (the sum then ends below 2^256 + p, and one subtraction fits it).
  // Twelve instructions, against add's twenty.
  [[gnu::always_inline]] static inline void add_lazy(fe& out, const fe& a, const fe& b) noexcept {
    SW_P256_MASKED_P("addq", "adcq", "subq", "sbbq")
  }

  // sub: a - b, and p added back when it borrowed: the borrow as a mask
  // m (sbb), p's limbs under it (p0 = m, p1 = the low half of m, p2 = 0,
  // p3 & m) added in one chain. Twelve instructions, where copying the
  // difference, adding p and choosing by cmov took twenty.
  [[gnu::always_inline]] static inline void sub(fe& out, const fe& a, const fe& b) noexcept {
    SW_P256_MASKED_P("subq", "sbbq", "addq", "adcq")
  }

  // cmov: out = a where mask (0 or all ones) is all ones, out kept where it
  // is zero: one test of the mask, then a cmov per limb (no branch; one
  // instruction per limb where the masked xor takes three).
  [[gnu::always_inline]] static inline void cmov(fe& out, const fe& a, std::uint64_t mask) noexcept {
    std::uint64_t t0 = out.v[0], t1 = out.v[1], t2 = out.v[2], t3 = out.v[3];
    asm("testq %[m], %[m]\n\t"
        "cmovnzq 0(%[pa]), %[t0]\n\t"
        "cmovnzq 8(%[pa]), %[t1]\n\t"
        "cmovnzq 16(%[pa]), %[t2]\n\t"
        "cmovnzq 24(%[pa]), %[t3]\n\t"
        : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3)
        : [m] "r"(mask), [pa] "r"(a.v), "m"(*reinterpret_cast<const std::uint64_t(*)[4]>(a.v))
        : "cc");
    out.v[0] = t0;
    out.v[1] = t1;
    out.v[2] = t2;
    out.v[3] = t3;
  }

  // half: a / 2 mod p. p is odd, so p is added when a is odd (by mask, in
  // constant time) and the 257-bit even sum shifted right once; below p
  // because a < p. Montgomery form is linear, so halving a R halves a.
  static inline void half(fe& out, const fe& a) noexcept {
    // (Not addc of nist_field.hpp: its optimize pragma keeps GCC from
    // inlining it here, and the calls measured 5% of a shared secret.)
    __extension__ using u128 = unsigned __int128;
    const std::uint64_t m = 0 - (a.v[0] & 1);
    u128 c = u128{a.v[0]} + m;  // p0 = 2^64 - 1
    const auto s0 = static_cast<std::uint64_t>(c);
    c = (c >> 64) + a.v[1] + (m & 0xffffffffULL);  // p1 = 2^32 - 1
    const auto s1 = static_cast<std::uint64_t>(c);
    c = (c >> 64) + a.v[2];  // p2 = 0
    const auto s2 = static_cast<std::uint64_t>(c);
    c = (c >> 64) + a.v[3] + (m & p3);
    const auto s3 = static_cast<std::uint64_t>(c);
    const auto s4 = static_cast<std::uint64_t>(c >> 64);
    out.v[0] = s0 >> 1 | s1 << 63;
    out.v[1] = s1 >> 1 | s2 << 63;
    out.v[2] = s2 >> 1 | s3 << 63;
    out.v[3] = s3 >> 1 | s4 << 63;
  }

  // from_bytes reads a big-endian value (any 256-bit value: x R^2 / R is
  // below 2p, one subtraction ends it); false (public inputs only) when it
  // is not below p.
  static inline bool from_bytes(fe& out, const std::uint8_t* in) noexcept {
    const auto pb = from_hex<bytes>(p256_params::p_hex);
    const bool below = be_less_than_mask(in, pb.b, bytes) != 0;
    fe x, r2;
    be_to_limbs<limbs, bytes>(x.v, in);
    for (std::size_t i = 0; i < limbs; ++i) r2.v[i] = portable::r2.v[i];
    mul(out, r2, x);  // x (any 256-bit value) as b: mul needs a below p
    return below;
  }

  // to_bytes writes the canonical big-endian value (a R / R, below p).
  static inline void to_bytes(std::uint8_t* out, const fe& a) noexcept {
    fe one{{1, 0, 0, 0}}, x;
    mul(x, a, one);
    for (std::size_t i = 0; i < bytes; ++i) {
      const std::size_t bit = 8 * (bytes - 1 - i);
      out[i] = static_cast<std::uint8_t>(x.v[bit / 64] >> (bit % 64));
    }
  }

  // zero_mask is all ones when a = 0 (elements are fully reduced).
  static inline std::uint64_t zero_mask(const fe& a) noexcept {
    return ct::mask_if_zero(a.v[0] | a.v[1] | a.v[2] | a.v[3]);
  }
};

}  // namespace
}  // namespace sealwire::crypto::detail

#undef SW_P256_MASKED_P
#undef SW_P256_CHECK_ORDER
#undef SW_P256_MUL_REDC
#undef SW_P256_MUL_ROW
#undef SW_P256_LOW_ROW
#undef SW_P256_LOW_ROWS
#undef SW_P256_SPLIT_SHX
#undef SW_P256_SPLIT_MOV

#endif
