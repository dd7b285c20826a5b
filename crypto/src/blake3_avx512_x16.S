// SPDX-License-Identifier: Apache-2.0
// The BLAKE3 block loop on sixteen inputs for AVX-512F (the BLAKE3
// specification, 2020, section 2.2), in assembly. The same work written with
// intrinsics (blake3_core.hpp's blake3_hash_lanes) compiled to the same
// instructions, but GCC kept the loop's constants and the chaining value in
// registers beside the sixteen state and sixteen message vectors and
// spilled, and ran 14% slower than the official BLAKE3 assembly (rdtsc,
// 16 inputs of 16 blocks). Here the registers are fixed:
//   zmm0-7    state words 0-7; the chaining value between blocks
//   zmm8-15   state words 8-15, loaded afresh for every block (IV, counter,
//             block length, flags); the transpose's scratch before that
//   zmm16-31  message words 0-15 of the sixteen inputs, one input per lane
// and the four quarter-rounds of each half round run interleaved, one step
// of all four at a time, so each step has four independent instructions.
// The message permutation between rounds is only a renaming of zmm16-31:
// the ROUND lines below list the registers in each round's order.
//
// void sealwire_blake3_x16_blocks_avx512(const uint8_t* in, size_t stride,
//     size_t blocks, __m512i cv[8], const __m512i counter[2],
//     const uint32_t flags[3]);
// in: input l's block b at in + l * stride + 64 * b; cv: the chaining value
// word by word (lane l: input l), read and replaced; counter: low and high
// counter words per lane; flags: {every block's, the first block's extra,
// the last block's extra}. Callers must have checked for AVX-512F.

    .text

// G4: the quarter-round G (spec 2.2) on four (a, b, c, d) columns at once,
// with message words x (first) and y (second) for each.
.macro G4 a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, x0, x1, x2, x3, y0, y1, y2, y3
    vpaddd \x0, \a0, \a0
    vpaddd \x1, \a1, \a1
    vpaddd \x2, \a2, \a2
    vpaddd \x3, \a3, \a3
    vpaddd \b0, \a0, \a0
    vpaddd \b1, \a1, \a1
    vpaddd \b2, \a2, \a2
    vpaddd \b3, \a3, \a3
    vpxord \a0, \d0, \d0
    vpxord \a1, \d1, \d1
    vpxord \a2, \d2, \d2
    vpxord \a3, \d3, \d3
    vprord $16, \d0, \d0
    vprord $16, \d1, \d1
    vprord $16, \d2, \d2
    vprord $16, \d3, \d3
    vpaddd \d0, \c0, \c0
    vpaddd \d1, \c1, \c1
    vpaddd \d2, \c2, \c2
    vpaddd \d3, \c3, \c3
    vpxord \c0, \b0, \b0
    vpxord \c1, \b1, \b1
    vpxord \c2, \b2, \b2
    vpxord \c3, \b3, \b3
    vprord $12, \b0, \b0
    vprord $12, \b1, \b1
    vprord $12, \b2, \b2
    vprord $12, \b3, \b3
    vpaddd \y0, \a0, \a0
    vpaddd \y1, \a1, \a1
    vpaddd \y2, \a2, \a2
    vpaddd \y3, \a3, \a3
    vpaddd \b0, \a0, \a0
    vpaddd \b1, \a1, \a1
    vpaddd \b2, \a2, \a2
    vpaddd \b3, \a3, \a3
    vpxord \a0, \d0, \d0
    vpxord \a1, \d1, \d1
    vpxord \a2, \d2, \d2
    vpxord \a3, \d3, \d3
    vprord $8, \d0, \d0
    vprord $8, \d1, \d1
    vprord $8, \d2, \d2
    vprord $8, \d3, \d3
    vpaddd \d0, \c0, \c0
    vpaddd \d1, \c1, \c1
    vpaddd \d2, \c2, \c2
    vpaddd \d3, \c3, \c3
    vpxord \c0, \b0, \b0
    vpxord \c1, \b1, \b1
    vpxord \c2, \b2, \b2
    vpxord \c3, \b3, \b3
    vprord $7, \b0, \b0
    vprord $7, \b1, \b1
    vprord $7, \b2, \b2
    vprord $7, \b3, \b3
.endm

// ROUND: one round (columns, then diagonals) with the message words m0-m15
// in this round's order.
.macro ROUND m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15
    G4 %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, \m0, \m2, \m4, \m6, \m1, \m3, \m5, \m7
    G4 %zmm0, %zmm1, %zmm2, %zmm3, %zmm5, %zmm6, %zmm7, %zmm4, %zmm10, %zmm11, %zmm8, %zmm9, %zmm15, %zmm12, %zmm13, %zmm14, \m8, \m10, \m12, \m14, \m9, \m11, \m13, \m15
.endm

// TRANSPOSE4: 4x4 transposes of 32-bit words within each 128-bit lane of
// four rows, through the scratch registers zmm8-11.
.macro TRANSPOSE4 r0, r1, r2, r3
    vpunpckldq \r1, \r0, %zmm8
    vpunpckhdq \r1, \r0, %zmm9
    vpunpckldq \r3, \r2, %zmm10
    vpunpckhdq \r3, \r2, %zmm11
    vpunpcklqdq %zmm10, %zmm8, \r0
    vpunpckhqdq %zmm10, %zmm8, \r1
    vpunpcklqdq %zmm11, %zmm9, \r2
    vpunpckhqdq %zmm11, %zmm9, \r3
.endm

// LANES4: the 4x4 transpose of 128-bit lanes across u0-u3 (rows k, 4 + k,
// 8 + k, 12 + k after TRANSPOSE4), leaving message words k, 4 + k, 8 + k
// and 12 + k in them.
.macro LANES4 u0, u1, u2, u3
    vshufi32x4 $0x44, \u1, \u0, %zmm8
    vshufi32x4 $0x44, \u3, \u2, %zmm9
    vshufi32x4 $0xee, \u1, \u0, %zmm10
    vshufi32x4 $0xee, \u3, \u2, %zmm11
    vshufi32x4 $0x88, %zmm9, %zmm8, \u0
    vshufi32x4 $0xdd, %zmm9, %zmm8, \u1
    vshufi32x4 $0x88, %zmm11, %zmm10, \u2
    vshufi32x4 $0xdd, %zmm11, %zmm10, \u3
.endm

    .section .rodata
    .p2align 2
.Lsealwire_blake3_consts:
    // The IV's first four words (spec 2.2, table 1), then the block length.
    .long 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 64

    .text
    .p2align 6
    .globl sealwire_blake3_x16_blocks_avx512
    .hidden sealwire_blake3_x16_blocks_avx512
    .type sealwire_blake3_x16_blocks_avx512, @function
sealwire_blake3_x16_blocks_avx512:
    .cfi_startproc
    endbr64
    test %rdx, %rdx
    jz .Ldone
    push %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_offset %rbx, -16
    push %r12
    .cfi_adjust_cfa_offset 8
    .cfi_offset %r12, -24
    push %r13
    .cfi_adjust_cfa_offset 8
    .cfi_offset %r13, -32
    // rdi, r11, r12, r13: inputs 0, 4, 8, 12 (their current block); rsi the
    // stride, r10 three strides; eax the first block's flags.
    lea (%rsi, %rsi, 2), %r10
    lea (%rdi, %rsi, 4), %r11
    lea (%r11, %rsi, 4), %r12
    lea (%r12, %rsi, 4), %r13
    mov (%r9), %eax
    or 4(%r9), %eax
    vmovdqu64 0(%rcx), %zmm0
    vmovdqu64 64(%rcx), %zmm1
    vmovdqu64 128(%rcx), %zmm2
    vmovdqu64 192(%rcx), %zmm3
    vmovdqu64 256(%rcx), %zmm4
    vmovdqu64 320(%rcx), %zmm5
    vmovdqu64 384(%rcx), %zmm6
    vmovdqu64 448(%rcx), %zmm7
    .p2align 5
.Lblock:
    // This block's flags: flags[0], the first block's extra (eax, zero
    // after the first block) and, for the last block, flags[2].
    mov 8(%r9), %ebx
    cmp $1, %rdx
    cmovne (%r9), %ebx
    or (%r9), %ebx
    or %eax, %ebx
    // Row l (input l's 64 bytes) into zmm16 + l.
    vmovdqu32 (%rdi), %zmm16
    vmovdqu32 (%rdi, %rsi, 1), %zmm17
    vmovdqu32 (%rdi, %rsi, 2), %zmm18
    vmovdqu32 (%rdi, %r10, 1), %zmm19
    vmovdqu32 (%r11), %zmm20
    vmovdqu32 (%r11, %rsi, 1), %zmm21
    vmovdqu32 (%r11, %rsi, 2), %zmm22
    vmovdqu32 (%r11, %r10, 1), %zmm23
    vmovdqu32 (%r12), %zmm24
    vmovdqu32 (%r12, %rsi, 1), %zmm25
    vmovdqu32 (%r12, %rsi, 2), %zmm26
    vmovdqu32 (%r12, %r10, 1), %zmm27
    vmovdqu32 (%r13), %zmm28
    vmovdqu32 (%r13, %rsi, 1), %zmm29
    vmovdqu32 (%r13, %rsi, 2), %zmm30
    vmovdqu32 (%r13, %r10, 1), %zmm31
    TRANSPOSE4 %zmm16, %zmm17, %zmm18, %zmm19
    TRANSPOSE4 %zmm20, %zmm21, %zmm22, %zmm23
    TRANSPOSE4 %zmm24, %zmm25, %zmm26, %zmm27
    TRANSPOSE4 %zmm28, %zmm29, %zmm30, %zmm31
    LANES4 %zmm16, %zmm20, %zmm24, %zmm28
    LANES4 %zmm17, %zmm21, %zmm25, %zmm29
    LANES4 %zmm18, %zmm22, %zmm26, %zmm30
    LANES4 %zmm19, %zmm23, %zmm27, %zmm31
    // Message word w is now in zmm16 + w.
    vpbroadcastd .Lsealwire_blake3_consts(%rip), %zmm8
    vpbroadcastd .Lsealwire_blake3_consts+4(%rip), %zmm9
    vpbroadcastd .Lsealwire_blake3_consts+8(%rip), %zmm10
    vpbroadcastd .Lsealwire_blake3_consts+12(%rip), %zmm11
    vmovdqu64 (%r8), %zmm12
    vmovdqu64 64(%r8), %zmm13
    vpbroadcastd .Lsealwire_blake3_consts+16(%rip), %zmm14
    vpbroadcastd %ebx, %zmm15
    ROUND %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27, %zmm28, %zmm29, %zmm30, %zmm31
    ROUND %zmm18, %zmm22, %zmm19, %zmm26, %zmm23, %zmm16, %zmm20, %zmm29, %zmm17, %zmm27, %zmm28, %zmm21, %zmm25, %zmm30, %zmm31, %zmm24
    ROUND %zmm19, %zmm20, %zmm26, %zmm28, %zmm29, %zmm18, %zmm23, %zmm30, %zmm22, %zmm21, %zmm25, %zmm16, %zmm27, %zmm31, %zmm24, %zmm17
    ROUND %zmm26, %zmm23, %zmm28, %zmm25, %zmm30, %zmm19, %zmm29, %zmm31, %zmm20, %zmm16, %zmm27, %zmm18, %zmm21, %zmm24, %zmm17, %zmm22
    ROUND %zmm28, %zmm29, %zmm25, %zmm27, %zmm31, %zmm26, %zmm30, %zmm24, %zmm23, %zmm18, %zmm21, %zmm19, %zmm16, %zmm17, %zmm22, %zmm20
    ROUND %zmm25, %zmm30, %zmm27, %zmm21, %zmm24, %zmm28, %zmm31, %zmm17, %zmm29, %zmm19, %zmm16, %zmm26, %zmm18, %zmm22, %zmm20, %zmm23
    ROUND %zmm27, %zmm31, %zmm21, %zmm16, %zmm17, %zmm25, %zmm24, %zmm22, %zmm30, %zmm26, %zmm18, %zmm28, %zmm19, %zmm20, %zmm23, %zmm29
    // Spec 2.2: the chaining value is the first half of the output.
    vpxord %zmm8, %zmm0, %zmm0
    vpxord %zmm9, %zmm1, %zmm1
    vpxord %zmm10, %zmm2, %zmm2
    vpxord %zmm11, %zmm3, %zmm3
    vpxord %zmm12, %zmm4, %zmm4
    vpxord %zmm13, %zmm5, %zmm5
    vpxord %zmm14, %zmm6, %zmm6
    vpxord %zmm15, %zmm7, %zmm7
    xor %eax, %eax
    add $64, %rdi
    add $64, %r11
    add $64, %r12
    add $64, %r13
    dec %rdx
    jnz .Lblock
    vmovdqu64 %zmm0, 0(%rcx)
    vmovdqu64 %zmm1, 64(%rcx)
    vmovdqu64 %zmm2, 128(%rcx)
    vmovdqu64 %zmm3, 192(%rcx)
    vmovdqu64 %zmm4, 256(%rcx)
    vmovdqu64 %zmm5, 320(%rcx)
    vmovdqu64 %zmm6, 384(%rcx)
    vmovdqu64 %zmm7, 448(%rcx)
    pop %r13
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r13
    pop %r12
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r12
    pop %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
.Ldone:
    vzeroupper
    ret
    .cfi_endproc
    .size sealwire_blake3_x16_blocks_avx512, .-sealwire_blake3_x16_blocks_avx512

    .section .note.GNU-stack, "", @progbits
