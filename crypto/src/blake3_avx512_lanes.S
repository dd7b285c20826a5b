// SPDX-License-Identifier: Apache-2.0
// The BLAKE3 block loops for AVX-512F/VL (the BLAKE3 specification, 2020,
// section 2.2) in assembly: thirty-two inputs (two sets of sixteen) or
// sixteen in zmm registers, eight in ymm and four in xmm, one input per
// lane. The same work written with
// intrinsics (blake3_core.hpp's blake3_hash_lanes) compiled to the same
// instructions, but GCC kept the loop's constants and the chaining value in
// registers beside the sixteen state and sixteen message vectors and
// spilled: sixteen inputs of sixteen blocks ran 14% slower than the official
// BLAKE3 assembly (rdtsc). Here the registers are fixed, at every width
// (but the 32-lane loop, below, whose state fills all 32 registers, and
// the 16-lane one, whose message is read from the stack and whose registers
// 16-31 transpose the next block):
//   0-7    state words 0-7; the chaining value between blocks
//   8-15   state words 8-15, loaded afresh for every block (IV, counter,
//          block length, flags); the transposes' scratch before that
//   16-31  message words 0-15, one input per lane
// and the four quarter-rounds of each half round run interleaved, one step
// of all four at a time, so each step has four independent instructions.
// The message permutation between rounds is only a renaming of registers
// 16-31: the ROUND lines list them in each round's order.
//
// void sealwire_blake3_xN_blocks_avx512(const uint8_t* in, size_t stride,
//     size_t blocks, void* cv, const void* counter, const uint32_t flags[3]);
// in: input l's block b at in + l * stride + 64 * b; cv: eight vectors of
// the chaining value, word by word (lane l: input l), read and replaced;
// counter: two vectors, the low and high counter words per lane; flags:
// {every block's, the first block's extra, the last block's extra}. Callers
// must have checked for AVX-512F and AVX-512VL.

    .text

// G4: the quarter-round G (spec 2.2) on four (a, b, c, d) columns at once,
// with message words x (first) and y (second) for each; registers named by
// width prefix w (z, y or x) and number.
.macro G4 w, a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, x0, x1, x2, x3, y0, y1, y2, y3
    HALF_G \w, \a0, \a1, \a2, \a3, \b0, \b1, \b2, \b3, \c0, \c1, \c2, \c3, \d0, \d1, \d2, \d3, \x0, \x1, \x2, \x3, 16, 12
    HALF_G \w, \a0, \a1, \a2, \a3, \b0, \b1, \b2, \b3, \c0, \c1, \c2, \c3, \d0, \d1, \d2, \d3, \y0, \y1, \y2, \y3, 8, 7
.endm

// HALF_GX: a += m + b; d = (d ^ a) >>> r1; c += d; b = (b ^ c) >>> r2, on
// four columns of registers named by width prefix w and number, with the
// message operands M0-M3 given whole (registers or memory operands).
.macro HALF_GX w, a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, M0, M1, M2, M3, r1, r2
    vpaddd \M0, %\w\()mm\a0, %\w\()mm\a0
    vpaddd \M1, %\w\()mm\a1, %\w\()mm\a1
    vpaddd \M2, %\w\()mm\a2, %\w\()mm\a2
    vpaddd \M3, %\w\()mm\a3, %\w\()mm\a3
    vpaddd %\w\()mm\b0, %\w\()mm\a0, %\w\()mm\a0
    vpaddd %\w\()mm\b1, %\w\()mm\a1, %\w\()mm\a1
    vpaddd %\w\()mm\b2, %\w\()mm\a2, %\w\()mm\a2
    vpaddd %\w\()mm\b3, %\w\()mm\a3, %\w\()mm\a3
    vpxord %\w\()mm\a0, %\w\()mm\d0, %\w\()mm\d0
    vpxord %\w\()mm\a1, %\w\()mm\d1, %\w\()mm\d1
    vpxord %\w\()mm\a2, %\w\()mm\d2, %\w\()mm\d2
    vpxord %\w\()mm\a3, %\w\()mm\d3, %\w\()mm\d3
    vprord $\r1, %\w\()mm\d0, %\w\()mm\d0
    vprord $\r1, %\w\()mm\d1, %\w\()mm\d1
    vprord $\r1, %\w\()mm\d2, %\w\()mm\d2
    vprord $\r1, %\w\()mm\d3, %\w\()mm\d3
    vpaddd %\w\()mm\d0, %\w\()mm\c0, %\w\()mm\c0
    vpaddd %\w\()mm\d1, %\w\()mm\c1, %\w\()mm\c1
    vpaddd %\w\()mm\d2, %\w\()mm\c2, %\w\()mm\c2
    vpaddd %\w\()mm\d3, %\w\()mm\c3, %\w\()mm\c3
    vpxord %\w\()mm\c0, %\w\()mm\b0, %\w\()mm\b0
    vpxord %\w\()mm\c1, %\w\()mm\b1, %\w\()mm\b1
    vpxord %\w\()mm\c2, %\w\()mm\b2, %\w\()mm\b2
    vpxord %\w\()mm\c3, %\w\()mm\b3, %\w\()mm\b3
    vprord $\r2, %\w\()mm\b0, %\w\()mm\b0
    vprord $\r2, %\w\()mm\b1, %\w\()mm\b1
    vprord $\r2, %\w\()mm\b2, %\w\()mm\b2
    vprord $\r2, %\w\()mm\b3, %\w\()mm\b3
.endm

// HALF_G: HALF_GX with the message words in registers m0-m3.
.macro HALF_G w, a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, m0, m1, m2, m3, r1, r2
    HALF_GX \w, \a0, \a1, \a2, \a3, \b0, \b1, \b2, \b3, \c0, \c1, \c2, \c3, \d0, \d1, \d2, \d3, %\w\()mm\m0, %\w\()mm\m1, %\w\()mm\m2, %\w\()mm\m3, \r1, \r2
.endm

// ROUND: one round (columns, then diagonals) with the message words in
// registers m0-m15, in this round's order.
.macro ROUND w, m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15
    G4 \w, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \m0, \m2, \m4, \m6, \m1, \m3, \m5, \m7
    G4 \w, 0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, \m8, \m10, \m12, \m14, \m9, \m11, \m13, \m15
.endm

// TRANSPOSE4: 4x4 transposes of 32-bit words within each 128-bit lane of
// registers r0-r3, through the scratch registers 8-11.
.macro TRANSPOSE4 w, r0, r1, r2, r3
    vpunpckldq %\w\()mm\r1, %\w\()mm\r0, %\w\()mm8
    vpunpckhdq %\w\()mm\r1, %\w\()mm\r0, %\w\()mm9
    vpunpckldq %\w\()mm\r3, %\w\()mm\r2, %\w\()mm10
    vpunpckhdq %\w\()mm\r3, %\w\()mm\r2, %\w\()mm11
    vpunpcklqdq %\w\()mm10, %\w\()mm8, %\w\()mm\r0
    vpunpckhqdq %\w\()mm10, %\w\()mm8, %\w\()mm\r1
    vpunpcklqdq %\w\()mm11, %\w\()mm9, %\w\()mm\r2
    vpunpckhqdq %\w\()mm11, %\w\()mm9, %\w\()mm\r3
.endm

// X16_LANES: the second stage of the sixteen-lane transpose, for column k.
// Registers u0-u3 hold the 4x4 transposes' output k for inputs 0-3, 4-7,
// 8-11 and 12-15 (128-bit lane q: word 4q + k of the four inputs); the 4x4
// transpose of their 128-bit lanes (scratch s0-s3) makes message words k,
// k + 4, k + 8 and k + 12, each stored to 64 * word(dst). u0-u3 are
// clobbered.
.macro X16_LANES u0, u1, u2, u3, s0, s1, s2, s3, k, dst
    vshufi32x4 $0x44, %zmm\u1, %zmm\u0, %zmm\s0
    vshufi32x4 $0x44, %zmm\u3, %zmm\u2, %zmm\s1
    vshufi32x4 $0xee, %zmm\u1, %zmm\u0, %zmm\s2
    vshufi32x4 $0xee, %zmm\u3, %zmm\u2, %zmm\s3
    vshufi32x4 $0x88, %zmm\s1, %zmm\s0, %zmm\u0
    vshufi32x4 $0xdd, %zmm\s1, %zmm\s0, %zmm\u1
    vshufi32x4 $0x88, %zmm\s3, %zmm\s2, %zmm\u2
    vshufi32x4 $0xdd, %zmm\s3, %zmm\s2, %zmm\u3
    vmovdqa32 %zmm\u0, 64*\k(\dst)
    vmovdqa32 %zmm\u1, 64*(\k+4)(\dst)
    vmovdqa32 %zmm\u2, 64*(\k+8)(\dst)
    vmovdqa32 %zmm\u3, 64*(\k+12)(\dst)
.endm

// HALVES2: swaps the high 128-bit half of ymm register a with the low half
// of ymm register b (words k and k + 4 of inputs 0-3 in a, of inputs 4-7
// in b, become word k of inputs 0-7 in a and word k + 4 in b).
.macro HALVES2 a, b
    vshufi32x4 $0x3, %ymm\b, %ymm\a, %ymm9
    vshufi32x4 $0x0, %ymm\b, %ymm\a, %ymm\a
    vmovdqa64 %ymm9, %ymm\b
.endm

// PROLOGUE / EPILOGUE: the frame and the per-call setup shared by the three
// widths; W is the vector width in bytes. rdi, r11, r12, r13: inputs 0, 4,
// 8, 12 (their current block); rsi the stride, r10 three strides; eax the
// first block's extra flags.
.macro PROLOGUE w, W
    .cfi_startproc
    endbr64
    test %rdx, %rdx
    jz 9f
    push %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_offset %rbx, -16
    push %r12
    .cfi_adjust_cfa_offset 8
    .cfi_offset %r12, -24
    push %r13
    .cfi_adjust_cfa_offset 8
    .cfi_offset %r13, -32
    lea (%rsi, %rsi, 2), %r10
    lea (%rdi, %rsi, 4), %r11
    lea (%r11, %rsi, 4), %r12
    lea (%r12, %rsi, 4), %r13
    mov 4(%r9), %eax
    vmovdqu32 0*\W(%rcx), %\w\()mm0
    vmovdqu32 1*\W(%rcx), %\w\()mm1
    vmovdqu32 2*\W(%rcx), %\w\()mm2
    vmovdqu32 3*\W(%rcx), %\w\()mm3
    vmovdqu32 4*\W(%rcx), %\w\()mm4
    vmovdqu32 5*\W(%rcx), %\w\()mm5
    vmovdqu32 6*\W(%rcx), %\w\()mm6
    vmovdqu32 7*\W(%rcx), %\w\()mm7
.endm

// BLOCK_START: this block's flags in ebx: flags[0], the first block's extra
// (eax, zero after the first block) and, for the last block, flags[2];
// also stored to the red zone, for ROUNDS to broadcast from memory: a
// broadcast from a general register was slower (1% on sixteen inputs of
// sixteen blocks, AMD Zen 5), the loop being bound by a dependency chain
// that the flags word enters early.
.macro BLOCK_START
    mov 8(%r9), %ebx
    cmp $1, %rdx
    cmovne (%r9), %ebx
    or (%r9), %ebx
    or %eax, %ebx
    mov %ebx, -8(%rsp)
.endm

// ROUNDS: the state's second half, the seven rounds and the new chaining
// value (spec 2.2: the first half of the output), at width w.
.macro ROUNDS w, W
    vpbroadcastd .Lsealwire_blake3_consts(%rip), %\w\()mm8
    vpbroadcastd .Lsealwire_blake3_consts+4(%rip), %\w\()mm9
    vpbroadcastd .Lsealwire_blake3_consts+8(%rip), %\w\()mm10
    vpbroadcastd .Lsealwire_blake3_consts+12(%rip), %\w\()mm11
    vmovdqu32 (%r8), %\w\()mm12
    vmovdqu32 \W(%r8), %\w\()mm13
    vpbroadcastd .Lsealwire_blake3_consts+16(%rip), %\w\()mm14
    vpbroadcastd -8(%rsp), %\w\()mm15
    ROUND \w, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    ROUND \w, 18, 22, 19, 26, 23, 16, 20, 29, 17, 27, 28, 21, 25, 30, 31, 24
    ROUND \w, 19, 20, 26, 28, 29, 18, 23, 30, 22, 21, 25, 16, 27, 31, 24, 17
    ROUND \w, 26, 23, 28, 25, 30, 19, 29, 31, 20, 16, 27, 18, 21, 24, 17, 22
    ROUND \w, 28, 29, 25, 27, 31, 26, 30, 24, 23, 18, 21, 19, 16, 17, 22, 20
    ROUND \w, 25, 30, 27, 21, 24, 28, 31, 17, 29, 19, 16, 26, 18, 22, 20, 23
    ROUND \w, 27, 31, 21, 16, 17, 25, 24, 22, 30, 26, 18, 28, 19, 20, 23, 29
    vpxord %\w\()mm8, %\w\()mm0, %\w\()mm0
    vpxord %\w\()mm9, %\w\()mm1, %\w\()mm1
    vpxord %\w\()mm10, %\w\()mm2, %\w\()mm2
    vpxord %\w\()mm11, %\w\()mm3, %\w\()mm3
    vpxord %\w\()mm12, %\w\()mm4, %\w\()mm4
    vpxord %\w\()mm13, %\w\()mm5, %\w\()mm5
    vpxord %\w\()mm14, %\w\()mm6, %\w\()mm6
    vpxord %\w\()mm15, %\w\()mm7, %\w\()mm7
.endm

// BLOCK_END: on to the next block of every input, and the loop back to
// label 1.
.macro BLOCK_END
    xor %eax, %eax
    add $64, %rdi
    add $64, %r11
    add $64, %r12
    add $64, %r13
    dec %rdx
    jnz 1b
.endm

.macro EPILOGUE w, W
    vmovdqu32 %\w\()mm0, 0*\W(%rcx)
    vmovdqu32 %\w\()mm1, 1*\W(%rcx)
    vmovdqu32 %\w\()mm2, 2*\W(%rcx)
    vmovdqu32 %\w\()mm3, 3*\W(%rcx)
    vmovdqu32 %\w\()mm4, 4*\W(%rcx)
    vmovdqu32 %\w\()mm5, 5*\W(%rcx)
    vmovdqu32 %\w\()mm6, 6*\W(%rcx)
    vmovdqu32 %\w\()mm7, 7*\W(%rcx)
    pop %r13
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r13
    pop %r12
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r12
    pop %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
9:
    vzeroupper
    ret
    .cfi_endproc
.endm

    .section .rodata
    .p2align 2
.Lsealwire_blake3_consts:
    // The IV's first four words (spec 2.2, table 1), then the block length.
    .long 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 64

    .text

// Sixteen inputs. The message goes through the stack, as in the 32-lane
// loop: block b + 1 is loaded and transposed into one buffer while block b's
// rounds read their message words from the other as memory operands. On
// Intel (Sapphire Rapids class, measured here) the transposes' 64 shuffles
// run only on port 5, and the rounds' additions and xors on ports 0 and 5:
// placed between the rounds and the message they feed, the shuffles ran
// mostly alone, as if the rounds waited for them (16 inputs of 16 blocks,
// TSC cycles: 5,870 against 5,100 for the official BLAKE3 assembly, and
// 4,720 with the shuffles left out). Transposed a block ahead, their work
// overlaps the rounds: 5,150 to 5,300, within 1-2% of the official's in the
// same runs.
// The loop is then bound by the uops on ports 0 and 5 (the rounds' 792 and
// the shuffles), so half of the transpose is done by loads and stores
// instead, which use other ports: the block's 16-byte quarters are copied
// to a staging area so that one 64-byte slot holds quarter q of four
// inputs 4g + r (g = 0-3, for one r), and only the 4x4 transposes within
// 128-bit lanes are left, 32 shuffles instead of 64 (16 inputs of 16
// blocks, TSC cycles before -> after: 5,410 -> 5,360, and 5,300 once the
// last block skips the staged transposes; the official's 5,230-5,260 in the
// same runs; 1,024 chunks: 2% fewer). A slot is loaded only rounds after
// its four stores (after rounds 3 to 6; 2 to 5 measured the same), as a
// load that spans several stores waits until they are in the cache. With
// 8-byte pieces (sixteen vpermt2d left, 128 copies) the stores queued up
// behind the rounds and the loop took 2-7% longer. The first block is
// transposed in registers, as its rounds wait for it.
//   0(%rsp), 1024(%rsp)  the two message buffers: word k at 64 * k
//   2048(%rsp)           the staging area: slot (q, r) at 256 q + 64 r,
//                        input 4g + r's quarter q in its 128-bit lane g
//   3072(%rsp)           the flags of a middle block, the last, the first,
//                        and a block both first and last (flags[0] or'ed
//                        with flags[2], flags[1] or both)
// rbx: this block's buffer, rax the other's, r14 the xor of the two, r15
// this block's flags word. The flags are computed once, in the prologue:
// per block, with a store and a broadcast load of the stored word (as in
// BLOCK_START), the loop took 0.4% longer.
// For the first block, rows of inputs 4g to 4g + 3 go to zmm16 + 4g to
// zmm19 + 4g; after the 4x4 transposes, register 16 + 4g + k holds their
// output k (X16_LANES).
    .set X16_STAGE, 2048
    .set X16_FLAGS, 3072
    .set X16_DELTA, 3088
    .set X16_BLOCKS, 3096
    .set X16_FRAME, 3136

// FRAME_ENTER: the loops' shared entry: nothing to do for zero blocks
// (to 9: in FRAME_LEAVE), rbp and the callee-saved registers pushed, then
// a frame of `size` bytes aligned to 64.
.macro FRAME_ENTER size
    test %rdx, %rdx
    jz 9f
    push %rbp
    .cfi_adjust_cfa_offset 8
    .cfi_offset %rbp, -16
    mov %rsp, %rbp
    .cfi_def_cfa_register %rbp
    push %rbx
    push %r12
    push %r13
    push %r14
    push %r15
    .cfi_offset %rbx, -24
    .cfi_offset %r12, -32
    .cfi_offset %r13, -40
    .cfi_offset %r14, -48
    .cfi_offset %r15, -56
    sub $\size, %rsp
    and $-64, %rsp
.endm

// FRAME_LEAVE: the loops' shared exit: the frame's first `wipe` bytes (a
// multiple of 64: the transposed message) cleared, the registers restored,
// and the return (label 9: for zero blocks).
.macro FRAME_LEAVE wipe
    vpxord %zmm8, %zmm8, %zmm8
    .set frame_off, 0
    .rept \wipe / 64
    vmovdqa32 %zmm8, frame_off(%rsp)
    .set frame_off, frame_off + 64
    .endr
    lea -40(%rbp), %rsp
    pop %r15
    pop %r14
    pop %r13
    pop %r12
    pop %rbx
    pop %rbp
    .cfi_def_cfa %rsp, 8
    .cfi_restore %r15
    .cfi_restore %r14
    .cfi_restore %r13
    .cfi_restore %r12
    .cfi_restore %rbx
    .cfi_restore %rbp
9:
    vzeroupper
    ret
.endm

// X16_ROWS: the blocks at disp of the sixteen inputs into registers 16-31
// and their 4x4 transposes (scratch 8-11).
.macro X16_ROWS disp
    vmovdqu32 \disp(%rdi), %zmm16
    vmovdqu32 \disp(%rdi, %rsi, 1), %zmm17
    vmovdqu32 \disp(%rdi, %rsi, 2), %zmm18
    vmovdqu32 \disp(%rdi, %r10, 1), %zmm19
    vmovdqu32 \disp(%r11), %zmm20
    vmovdqu32 \disp(%r11, %rsi, 1), %zmm21
    vmovdqu32 \disp(%r11, %rsi, 2), %zmm22
    vmovdqu32 \disp(%r11, %r10, 1), %zmm23
    vmovdqu32 \disp(%r12), %zmm24
    vmovdqu32 \disp(%r12, %rsi, 1), %zmm25
    vmovdqu32 \disp(%r12, %rsi, 2), %zmm26
    vmovdqu32 \disp(%r12, %r10, 1), %zmm27
    vmovdqu32 \disp(%r13), %zmm28
    vmovdqu32 \disp(%r13, %rsi, 1), %zmm29
    vmovdqu32 \disp(%r13, %rsi, 2), %zmm30
    vmovdqu32 \disp(%r13, %r10, 1), %zmm31
    TRANSPOSE4 z, 16, 17, 18, 19
    TRANSPOSE4 z, 20, 21, 22, 23
    TRANSPOSE4 z, 24, 25, 26, 27
    TRANSPOSE4 z, 28, 29, 30, 31
.endm

// X16_STAGE_ROW: the block at disp(src) (input 4g + r) to the staging
// area in 16-byte pieces: its quarter q to slot (q, r) = X16_STAGE +
// 256 q + 64 r, 128-bit lane g (scratch xmm x0-x3).
.macro X16_STAGE_ROW src, disp, g, r, x0, x1, x2, x3
    vmovdqu32 \disp(\src), %xmm\x0
    vmovdqu32 \disp+16(\src), %xmm\x1
    vmovdqu32 \disp+32(\src), %xmm\x2
    vmovdqu32 \disp+48(\src), %xmm\x3
    vmovdqa32 %xmm\x0, X16_STAGE+64*\r+16*\g(%rsp)
    vmovdqa32 %xmm\x1, X16_STAGE+256+64*\r+16*\g(%rsp)
    vmovdqa32 %xmm\x2, X16_STAGE+512+64*\r+16*\g(%rsp)
    vmovdqa32 %xmm\x3, X16_STAGE+768+64*\r+16*\g(%rsp)
.endm

// X16_STAGE_BLOCK: the blocks at disp of the sixteen inputs to the staging area.
.macro X16_STAGE_BLOCK disp
    X16_STAGE_ROW "%rdi", \disp, 0, 0, 16, 17, 18, 19
    X16_STAGE_ROW "%rdi,%rsi,1", \disp, 0, 1, 20, 21, 22, 23
    X16_STAGE_ROW "%rdi,%rsi,2", \disp, 0, 2, 24, 25, 26, 27
    X16_STAGE_ROW "%rdi,%r10,1", \disp, 0, 3, 28, 29, 30, 31
    X16_STAGE_ROW "%r11", \disp, 1, 0, 16, 17, 18, 19
    X16_STAGE_ROW "%r11,%rsi,1", \disp, 1, 1, 20, 21, 22, 23
    X16_STAGE_ROW "%r11,%rsi,2", \disp, 1, 2, 24, 25, 26, 27
    X16_STAGE_ROW "%r11,%r10,1", \disp, 1, 3, 28, 29, 30, 31
    X16_STAGE_ROW "%r12", \disp, 2, 0, 16, 17, 18, 19
    X16_STAGE_ROW "%r12,%rsi,1", \disp, 2, 1, 20, 21, 22, 23
    X16_STAGE_ROW "%r12,%rsi,2", \disp, 2, 2, 24, 25, 26, 27
    X16_STAGE_ROW "%r12,%r10,1", \disp, 2, 3, 28, 29, 30, 31
    X16_STAGE_ROW "%r13", \disp, 3, 0, 16, 17, 18, 19
    X16_STAGE_ROW "%r13,%rsi,1", \disp, 3, 1, 20, 21, 22, 23
    X16_STAGE_ROW "%r13,%rsi,2", \disp, 3, 2, 24, 25, 26, 27
    X16_STAGE_ROW "%r13,%r10,1", \disp, 3, 3, 28, 29, 30, 31
.endm

// X16_FROM_STAGE: slots (q, 0) to (q, 3) (lane g: quarter q of inputs 4g to
// 4g + 3) through 4x4 transposes within 128-bit lanes: message words 4q to
// 4q + 3, stored to 64 * word(dst).
.macro X16_FROM_STAGE q, dst
    vmovdqa32 X16_STAGE+256*\q(%rsp), %zmm16
    vmovdqa32 X16_STAGE+256*\q+64(%rsp), %zmm17
    vmovdqa32 X16_STAGE+256*\q+128(%rsp), %zmm18
    vmovdqa32 X16_STAGE+256*\q+192(%rsp), %zmm19
    vpunpckldq %zmm17, %zmm16, %zmm20
    vpunpckhdq %zmm17, %zmm16, %zmm21
    vpunpckldq %zmm19, %zmm18, %zmm22
    vpunpckhdq %zmm19, %zmm18, %zmm23
    vpunpcklqdq %zmm22, %zmm20, %zmm16
    vpunpckhqdq %zmm22, %zmm20, %zmm17
    vpunpcklqdq %zmm23, %zmm21, %zmm18
    vpunpckhqdq %zmm23, %zmm21, %zmm19
    vmovdqa32 %zmm16, 256*\q(\dst)
    vmovdqa32 %zmm17, 256*\q+64(\dst)
    vmovdqa32 %zmm18, 256*\q+128(\dst)
    vmovdqa32 %zmm19, 256*\q+192(\dst)
.endm

// X16_STORE_CV: zmm0-zmm7 (word j of sixteen chaining values in zmm j) to
// the 512 bytes at rcx.
.macro X16_STORE_CV
    vmovdqu32 %zmm0, 0*64(%rcx)
    vmovdqu32 %zmm1, 1*64(%rcx)
    vmovdqu32 %zmm2, 2*64(%rcx)
    vmovdqu32 %zmm3, 3*64(%rcx)
    vmovdqu32 %zmm4, 4*64(%rcx)
    vmovdqu32 %zmm5, 5*64(%rcx)
    vmovdqu32 %zmm6, 6*64(%rcx)
    vmovdqu32 %zmm7, 7*64(%rcx)
.endm

// X16_OUTPUT_HALVES: the sixteen-lane state's chaining value, rows 0-7
// XOR rows 8-15 (spec 2.2's output, first half), into zmm0-zmm7.
.macro X16_OUTPUT_HALVES
    vpxord %zmm8, %zmm0, %zmm0
    vpxord %zmm9, %zmm1, %zmm1
    vpxord %zmm10, %zmm2, %zmm2
    vpxord %zmm11, %zmm3, %zmm3
    vpxord %zmm12, %zmm4, %zmm4
    vpxord %zmm13, %zmm5, %zmm5
    vpxord %zmm14, %zmm6, %zmm6
    vpxord %zmm15, %zmm7, %zmm7
.endm

// HALF_GM: HALF_GX on the sixteen-lane state's columns a0-d3 with message
// words m0-m3 read from the buffer at rbx.
.macro HALF_GM a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, m0, m1, m2, m3, r1, r2
    HALF_GX z, \a0, \a1, \a2, \a3, \b0, \b1, \b2, \b3, \c0, \c1, \c2, \c3, \d0, \d1, \d2, \d3, 64*\m0(%rbx), 64*\m1(%rbx), 64*\m2(%rbx), 64*\m3(%rbx), \r1, \r2
.endm

// ROUNDM: ROUND with message word indices m0-m15 into the buffer at rbx
// (ROUND's orders, less 16).
.macro ROUNDM m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15
    HALF_GM 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \m0, \m2, \m4, \m6, 16, 12
    HALF_GM 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \m1, \m3, \m5, \m7, 8, 7
    HALF_GM 0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, \m8, \m10, \m12, \m14, 16, 12
    HALF_GM 0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, \m9, \m11, \m13, \m15, 8, 7
.endm

// One group: the groups loop with a seventh argument of 1.
    .p2align 6
    .globl sealwire_blake3_x16_blocks_avx512
    .hidden sealwire_blake3_x16_blocks_avx512
    .type sealwire_blake3_x16_blocks_avx512, @function
sealwire_blake3_x16_blocks_avx512:
    .cfi_startproc
    endbr64
    push $1
    .cfi_adjust_cfa_offset 8
    call sealwire_blake3_x16_groups_avx512
    add $8, %rsp
    .cfi_adjust_cfa_offset -8
    ret
    .cfi_endproc
    .size sealwire_blake3_x16_blocks_avx512, .-sealwire_blake3_x16_blocks_avx512

// The loop over `groups` groups of sixteen inputs (a seventh argument, on
// the stack): group g's inputs start 16 * stride after group g - 1's, its
// chaining value (read and replaced) is at cv + 512 g and its counters at
// counter + 128 g; blocks and flags are the same for every group. A
// group's last block stages the next group's first like any next block, so
// only the call's first block is transposed in registers, and the frame is
// set up and cleared once per call.
    .p2align 6
    .globl sealwire_blake3_x16_groups_avx512
    .hidden sealwire_blake3_x16_groups_avx512
    .type sealwire_blake3_x16_groups_avx512, @function
sealwire_blake3_x16_groups_avx512:
    .cfi_startproc
    endbr64
    FRAME_ENTER X16_FRAME
    lea (%rsi, %rsi, 2), %r10
    lea (%rdi, %rsi, 4), %r11
    lea (%r11, %rsi, 4), %r12
    lea (%r12, %rsi, 4), %r13
    // The four flags words (see the frame above); r15 points to the first
    // block's.
    mov (%r9), %eax
    mov %eax, X16_FLAGS(%rsp)
    mov 8(%r9), %r15d
    or %eax, %r15d
    mov %r15d, X16_FLAGS+4(%rsp)
    or 4(%r9), %eax
    mov %eax, X16_FLAGS+8(%rsp)
    or %r15d, %eax
    mov %eax, X16_FLAGS+12(%rsp)
    // r9: the blocks left in all groups; from one group's last block to
    // the next group's first, X16_DELTA more than a block.
    mov %rdx, X16_BLOCKS(%rsp)
    mov %rsi, %rax
    shl $4, %rax
    mov %rdx, %r9
    shl $6, %r9
    sub %r9, %rax
    mov %rax, X16_DELTA(%rsp)
    mov 16(%rbp), %r9
    imul %rdx, %r9
    mov %rsp, %rbx
    lea 1024(%rsp), %r14
    xor %rbx, %r14
    // The first block into buffer 0.
    X16_ROWS 0
    X16_LANES 16, 20, 24, 28, 8, 9, 10, 11, 0, %rbx
    X16_LANES 17, 21, 25, 29, 8, 9, 10, 11, 1, %rbx
    X16_LANES 18, 22, 26, 30, 8, 9, 10, 11, 2, %rbx
    X16_LANES 19, 23, 27, 31, 8, 9, 10, 11, 3, %rbx
3:
    // A group's first block's flags, its chaining value.
    lea X16_FLAGS+8(%rsp), %r15
    lea X16_FLAGS+12(%rsp), %rax
    cmp $1, %rdx
    cmove %rax, %r15
    vmovdqu32 0*64(%rcx), %zmm0
    vmovdqu32 1*64(%rcx), %zmm1
    vmovdqu32 2*64(%rcx), %zmm2
    vmovdqu32 3*64(%rcx), %zmm3
    vmovdqu32 4*64(%rcx), %zmm4
    vmovdqu32 5*64(%rcx), %zmm5
    vmovdqu32 6*64(%rcx), %zmm6
    vmovdqu32 7*64(%rcx), %zmm7
    .p2align 5
1:
    // The next block, if any: its quarters to the staging area here, the
    // 4x4 transposes among the rounds below (skipped for the last block:
    // their 32 shuffles took 35 of the 5,335 TSC cycles of sixteen inputs
    // of sixteen blocks). After a group's last block comes the next
    // group's first: the input pointers move there (less the block that
    // the end of the loop adds).
    mov %rbx, %rax
    xor %r14, %rax
    cmp $1, %r9
    je 2f
    cmp $1, %rdx
    jne 5f
    mov X16_DELTA(%rsp), %rax
    add %rax, %rdi
    add %rax, %r11
    add %rax, %r12
    add %rax, %r13
    mov %rbx, %rax
    xor %r14, %rax
5:
    X16_STAGE_BLOCK 64
2:
    vpbroadcastd .Lsealwire_blake3_consts(%rip), %zmm8
    vpbroadcastd .Lsealwire_blake3_consts+4(%rip), %zmm9
    vpbroadcastd .Lsealwire_blake3_consts+8(%rip), %zmm10
    vpbroadcastd .Lsealwire_blake3_consts+12(%rip), %zmm11
    vmovdqu32 (%r8), %zmm12
    vmovdqu32 64(%r8), %zmm13
    vpbroadcastd .Lsealwire_blake3_consts+16(%rip), %zmm14
    vpbroadcastd (%r15), %zmm15
    ROUNDM 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    ROUNDM 2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8
    ROUNDM 3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1
    cmp $1, %r9
    je 4f
    X16_FROM_STAGE 0, %rax
4:
    ROUNDM 10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6
    cmp $1, %r9
    je 4f
    X16_FROM_STAGE 1, %rax
4:
    ROUNDM 12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4
    cmp $1, %r9
    je 4f
    X16_FROM_STAGE 2, %rax
4:
    ROUNDM 9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7
    cmp $1, %r9
    je 4f
    X16_FROM_STAGE 3, %rax
4:
    ROUNDM 11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13
    X16_OUTPUT_HALVES
    // The next block's flags: the last block's or the middle ones'.
    lea X16_FLAGS(%rsp), %r15
    lea X16_FLAGS+4(%rsp), %rax
    cmp $2, %rdx
    cmove %rax, %r15
    xor %r14, %rbx
    add $64, %rdi
    add $64, %r11
    add $64, %r12
    add $64, %r13
    dec %r9
    dec %rdx
    jnz 1b
    X16_STORE_CV
    // The next group, if any: its chaining value and counters follow.
    test %r9, %r9
    jz 6f
    add $512, %rcx
    add $128, %r8
    mov X16_BLOCKS(%rsp), %rdx
    jmp 3b
6:
    // The transposed and staged input on the stack is cleared, as in the
    // 32-lane loop.
    FRAME_LEAVE X16_FLAGS
    .cfi_endproc
    .size sealwire_blake3_x16_groups_avx512, .-sealwire_blake3_x16_groups_avx512

// Eight inputs: for each 32-byte half h of the block, input l's half into
// ymm16 + 8h + l; the 4x4 transposes within 128-bit halves and the swap of
// halves leave message word k in ymm16 + k.
    .p2align 6
    .globl sealwire_blake3_x8_blocks_avx512
    .hidden sealwire_blake3_x8_blocks_avx512
    .type sealwire_blake3_x8_blocks_avx512, @function
sealwire_blake3_x8_blocks_avx512:
    PROLOGUE y, 32
    .p2align 5
1:
    BLOCK_START
    vmovdqu32 (%rdi), %ymm16
    vmovdqu32 (%rdi, %rsi, 1), %ymm17
    vmovdqu32 (%rdi, %rsi, 2), %ymm18
    vmovdqu32 (%rdi, %r10, 1), %ymm19
    vmovdqu32 (%r11), %ymm20
    vmovdqu32 (%r11, %rsi, 1), %ymm21
    vmovdqu32 (%r11, %rsi, 2), %ymm22
    vmovdqu32 (%r11, %r10, 1), %ymm23
    vmovdqu32 32(%rdi), %ymm24
    vmovdqu32 32(%rdi, %rsi, 1), %ymm25
    vmovdqu32 32(%rdi, %rsi, 2), %ymm26
    vmovdqu32 32(%rdi, %r10, 1), %ymm27
    vmovdqu32 32(%r11), %ymm28
    vmovdqu32 32(%r11, %rsi, 1), %ymm29
    vmovdqu32 32(%r11, %rsi, 2), %ymm30
    vmovdqu32 32(%r11, %r10, 1), %ymm31
    TRANSPOSE4 y, 16, 17, 18, 19
    TRANSPOSE4 y, 20, 21, 22, 23
    TRANSPOSE4 y, 24, 25, 26, 27
    TRANSPOSE4 y, 28, 29, 30, 31
    HALVES2 16, 20
    HALVES2 17, 21
    HALVES2 18, 22
    HALVES2 19, 23
    HALVES2 24, 28
    HALVES2 25, 29
    HALVES2 26, 30
    HALVES2 27, 31
    ROUNDS y, 32
    BLOCK_END
    EPILOGUE y, 32
    .size sealwire_blake3_x8_blocks_avx512, .-sealwire_blake3_x8_blocks_avx512

// Four inputs: for each 16-byte quarter q of the block, input l's quarter
// into xmm16 + 4q + l; the 4x4 transposes leave message word k in xmm16 + k.
    .p2align 6
    .globl sealwire_blake3_x4_blocks_avx512
    .hidden sealwire_blake3_x4_blocks_avx512
    .type sealwire_blake3_x4_blocks_avx512, @function
sealwire_blake3_x4_blocks_avx512:
    PROLOGUE x, 16
    .p2align 5
1:
    BLOCK_START
    vmovdqu32 (%rdi), %xmm16
    vmovdqu32 (%rdi, %rsi, 1), %xmm17
    vmovdqu32 (%rdi, %rsi, 2), %xmm18
    vmovdqu32 (%rdi, %r10, 1), %xmm19
    vmovdqu32 16(%rdi), %xmm20
    vmovdqu32 16(%rdi, %rsi, 1), %xmm21
    vmovdqu32 16(%rdi, %rsi, 2), %xmm22
    vmovdqu32 16(%rdi, %r10, 1), %xmm23
    vmovdqu32 32(%rdi), %xmm24
    vmovdqu32 32(%rdi, %rsi, 1), %xmm25
    vmovdqu32 32(%rdi, %rsi, 2), %xmm26
    vmovdqu32 32(%rdi, %r10, 1), %xmm27
    vmovdqu32 48(%rdi), %xmm28
    vmovdqu32 48(%rdi, %rsi, 1), %xmm29
    vmovdqu32 48(%rdi, %rsi, 2), %xmm30
    vmovdqu32 48(%rdi, %r10, 1), %xmm31
    TRANSPOSE4 x, 16, 17, 18, 19
    TRANSPOSE4 x, 20, 21, 22, 23
    TRANSPOSE4 x, 24, 25, 26, 27
    TRANSPOSE4 x, 28, 29, 30, 31
    ROUNDS x, 16
    BLOCK_END
    EPILOGUE x, 16
    .size sealwire_blake3_x4_blocks_avx512, .-sealwire_blake3_x4_blocks_avx512

// Thirty-two inputs, two sets of sixteen lanes run interleaved. On CPUs
// where a 512-bit addition, xor or rotation takes two cycles (AMD Zen 5
// measured here: two cycles each, four vector pipes), the sixteen-lane loop
// is bound by the latency of G's chain, with only its four columns
// independent, and leaves half the pipes idle; a second, independent set of
// sixteen lanes fills them (hot data, TSC cycles per sixteen chunks of
// sixteen blocks: 2,552 here against 3,528 for the 16-lane loop and 3,465
// for the official BLAKE3 assembly's). Where 512-bit operations take one
// cycle (Intel) the 16-lane loop is bound by throughput instead and this
// one gains nothing: on a Sapphire Rapids class Xeon 1,024 chunks took 4%
// more TSC cycles than two 16-lane passes, so blake3.cpp leaves it out of
// the kernel table on Intel. All 32 zmm registers then hold state (set A in
// 0-15, set B in 16-31), so the message words are transposed through the
// stack and read as memory operands:
//   0(%rsp), 2048(%rsp)  two message buffers, one block each: set A's
//                        word k at 64 * k, set B's at 1024 + 64 * k
//   4096(%rsp)  the transposes' first stage (4x4 within 128-bit lanes)
//   5120(%rsp)  counters: A low, A high, B low, B high
//   5376(%rsp)  flags[0], the first block's extra (zero after it),
//               flags[2], this block's flags
//   5392(%rsp)  the xor of the two buffers' addresses
// Registers 8-15 are free at the start of each block (state words 8-15 of
// set A are loaded afresh), and both sets' transposes use them. The next
// block is transposed there, into the other buffer, before this block's
// rounds, a whole block ahead of its use in program order: 2% faster than
// transposing each block just before its own rounds (presumably the
// rounds' long dependency chains fill the scheduler and hold back what
// follows them). rbx points to this block's buffer.

    .set X32_MSG_B, 1024
    .set X32_TMP, 4096
    .set X32_CTR, 5120
    .set X32_FLAGS, 5376
    .set X32_TOGGLE, 5392
    .set X32_FRAME, 5440

// X32_OP8: `op` with each source register into its destination, eight
// columns (set A's four, then set B's); X32_ROR8: rotate eight registers
// right by r.
.macro X32_OP8 op, s0, s1, s2, s3, s4, s5, s6, s7, d0, d1, d2, d3, d4, d5, d6, d7
    \op %zmm\s0, %zmm\d0, %zmm\d0
    \op %zmm\s1, %zmm\d1, %zmm\d1
    \op %zmm\s2, %zmm\d2, %zmm\d2
    \op %zmm\s3, %zmm\d3, %zmm\d3
    \op %zmm\s4, %zmm\d4, %zmm\d4
    \op %zmm\s5, %zmm\d5, %zmm\d5
    \op %zmm\s6, %zmm\d6, %zmm\d6
    \op %zmm\s7, %zmm\d7, %zmm\d7
.endm

.macro X32_ROR8 r, d0, d1, d2, d3, d4, d5, d6, d7
    vprord $\r, %zmm\d0, %zmm\d0
    vprord $\r, %zmm\d1, %zmm\d1
    vprord $\r, %zmm\d2, %zmm\d2
    vprord $\r, %zmm\d3, %zmm\d3
    vprord $\r, %zmm\d4, %zmm\d4
    vprord $\r, %zmm\d5, %zmm\d5
    vprord $\r, %zmm\d6, %zmm\d6
    vprord $\r, %zmm\d7, %zmm\d7
.endm

// HALF_G2: HALF_G on set A's four columns (a0-d3) and set B's (e0-h3) at
// once, with A's message words at 64 * m(%rbx) and B's at
// X32_MSG_B + 64 * m(%rbx); each step runs on all eight columns.
.macro HALF_G2 a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, e0, e1, e2, e3, f0, f1, f2, f3, g0, g1, g2, g3, h0, h1, h2, h3, m0, m1, m2, m3, r1, r2
    vpaddd 64*\m0(%rbx), %zmm\a0, %zmm\a0
    vpaddd 64*\m1(%rbx), %zmm\a1, %zmm\a1
    vpaddd 64*\m2(%rbx), %zmm\a2, %zmm\a2
    vpaddd 64*\m3(%rbx), %zmm\a3, %zmm\a3
    vpaddd X32_MSG_B+64*\m0(%rbx), %zmm\e0, %zmm\e0
    vpaddd X32_MSG_B+64*\m1(%rbx), %zmm\e1, %zmm\e1
    vpaddd X32_MSG_B+64*\m2(%rbx), %zmm\e2, %zmm\e2
    vpaddd X32_MSG_B+64*\m3(%rbx), %zmm\e3, %zmm\e3
    X32_OP8 vpaddd, \b0, \b1, \b2, \b3, \f0, \f1, \f2, \f3, \a0, \a1, \a2, \a3, \e0, \e1, \e2, \e3
    X32_OP8 vpxord, \a0, \a1, \a2, \a3, \e0, \e1, \e2, \e3, \d0, \d1, \d2, \d3, \h0, \h1, \h2, \h3
    X32_ROR8 \r1, \d0, \d1, \d2, \d3, \h0, \h1, \h2, \h3
    X32_OP8 vpaddd, \d0, \d1, \d2, \d3, \h0, \h1, \h2, \h3, \c0, \c1, \c2, \c3, \g0, \g1, \g2, \g3
    X32_OP8 vpxord, \c0, \c1, \c2, \c3, \g0, \g1, \g2, \g3, \b0, \b1, \b2, \b3, \f0, \f1, \f2, \f3
    X32_ROR8 \r2, \b0, \b1, \b2, \b3, \f0, \f1, \f2, \f3
.endm

// ROUND2: one round on both sets, message word indices m0-m15 in this
// round's order (the same orders as ROUND's, less 16).
.macro ROUND2 m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15
    HALF_G2 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, \m0, \m2, \m4, \m6, 16, 12
    HALF_G2 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, \m1, \m3, \m5, \m7, 8, 7
    HALF_G2 0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 20, 26, 27, 24, 25, 31, 28, 29, 30, \m8, \m10, \m12, \m14, 16, 12
    HALF_G2 0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 20, 26, 27, 24, 25, 31, 28, 29, 30, \m9, \m11, \m13, \m15, 8, 7
.endm

// X32_GROUP: the first transpose stage of the blocks at disp(base),
// disp(base + stride), disp(base + 2 strides) and disp(base + 3 strides)
// (registers 8-11, scratch 12-15), stored to the stage area's group g.
.macro X32_GROUP disp, base, g
    vmovdqu32 \disp(\base), %zmm8
    vmovdqu32 \disp(\base, %rsi, 1), %zmm9
    vmovdqu32 \disp(\base, %rsi, 2), %zmm10
    vmovdqu32 \disp(\base, %r10, 1), %zmm11
    vpunpckldq %zmm9, %zmm8, %zmm12
    vpunpckhdq %zmm9, %zmm8, %zmm13
    vpunpckldq %zmm11, %zmm10, %zmm14
    vpunpckhdq %zmm11, %zmm10, %zmm15
    vpunpcklqdq %zmm14, %zmm12, %zmm8
    vpunpckhqdq %zmm14, %zmm12, %zmm9
    vpunpcklqdq %zmm15, %zmm13, %zmm10
    vpunpckhqdq %zmm15, %zmm13, %zmm11
    vmovdqa32 %zmm8, X32_TMP+256*\g(%rsp)
    vmovdqa32 %zmm9, X32_TMP+256*\g+64(%rsp)
    vmovdqa32 %zmm10, X32_TMP+256*\g+128(%rsp)
    vmovdqa32 %zmm11, X32_TMP+256*\g+192(%rsp)
.endm

// X32_LANES: the second stage for column k: the four groups' vector k
// (registers 8-11, scratch 12-15) become message words k, k + 4, k + 8 and
// k + 12, stored to the message area at msg(dst).
.macro X32_LANES k, msg, dst
    vmovdqa32 X32_TMP+64*\k(%rsp), %zmm8
    vmovdqa32 X32_TMP+256+64*\k(%rsp), %zmm9
    vmovdqa32 X32_TMP+512+64*\k(%rsp), %zmm10
    vmovdqa32 X32_TMP+768+64*\k(%rsp), %zmm11
    vshufi32x4 $0x44, %zmm9, %zmm8, %zmm12
    vshufi32x4 $0x44, %zmm11, %zmm10, %zmm13
    vshufi32x4 $0xee, %zmm9, %zmm8, %zmm14
    vshufi32x4 $0xee, %zmm11, %zmm10, %zmm15
    vshufi32x4 $0x88, %zmm13, %zmm12, %zmm8
    vshufi32x4 $0xdd, %zmm13, %zmm12, %zmm9
    vshufi32x4 $0x88, %zmm15, %zmm14, %zmm10
    vshufi32x4 $0xdd, %zmm15, %zmm14, %zmm11
    vmovdqa32 %zmm8, \msg+64*\k(\dst)
    vmovdqa32 %zmm9, \msg+64*(\k+4)(\dst)
    vmovdqa32 %zmm10, \msg+64*(\k+8)(\dst)
    vmovdqa32 %zmm11, \msg+64*(\k+12)(\dst)
.endm

// X32_SET: the blocks at disp from the sixteen inputs at base0 (rows 0-3),
// base1, base2, base3, transposed into the message area at msg(dst).
.macro X32_SET disp, base0, base1, base2, base3, msg, dst
    X32_GROUP \disp, \base0, 0
    X32_GROUP \disp, \base1, 1
    X32_GROUP \disp, \base2, 2
    X32_GROUP \disp, \base3, 3
    X32_LANES 0, \msg, \dst
    X32_LANES 1, \msg, \dst
    X32_LANES 2, \msg, \dst
    X32_LANES 3, \msg, \dst
.endm

// void sealwire_blake3_x32_blocks_avx512(const uint8_t* in, size_t stride,
//     size_t blocks, void* cv, const void* counter, const uint32_t flags[3]);
// As the others with 32 inputs: cv is sixteen vectors (set A's eight words
// for inputs 0-15, then set B's for inputs 16-31), counter four (A low,
// A high, B low, B high).
    .text
    .p2align 6
    .globl sealwire_blake3_x32_blocks_avx512
    .hidden sealwire_blake3_x32_blocks_avx512
    .type sealwire_blake3_x32_blocks_avx512, @function
sealwire_blake3_x32_blocks_avx512:
    .cfi_startproc
    endbr64
    FRAME_ENTER X32_FRAME
    // Counters and flags to the frame; r8 and r9 then hold row bases.
    vmovdqu32 (%r8), %zmm8
    vmovdqu32 64(%r8), %zmm9
    vmovdqu32 128(%r8), %zmm10
    vmovdqu32 192(%r8), %zmm11
    vmovdqa32 %zmm8, X32_CTR(%rsp)
    vmovdqa32 %zmm9, X32_CTR+64(%rsp)
    vmovdqa32 %zmm10, X32_CTR+128(%rsp)
    vmovdqa32 %zmm11, X32_CTR+192(%rsp)
    mov (%r9), %eax
    mov %eax, X32_FLAGS(%rsp)
    mov 4(%r9), %eax
    mov %eax, X32_FLAGS+4(%rsp)
    mov 8(%r9), %eax
    mov %eax, X32_FLAGS+8(%rsp)
    lea (%rsi, %rsi, 2), %r10
    lea (%rdi, %rsi, 4), %r11
    lea (%r11, %rsi, 4), %r12
    lea (%r12, %rsi, 4), %r13
    lea (%r13, %rsi, 4), %r14
    lea (%r14, %rsi, 4), %r15
    lea (%r15, %rsi, 4), %r8
    lea (%r8, %rsi, 4), %r9
    // The first block into buffer 0.
    mov %rsp, %rbx
    lea 2048(%rsp), %rax
    xor %rbx, %rax
    mov %rax, X32_TOGGLE(%rsp)
    X32_SET 0, %rdi, %r11, %r12, %r13, 0, %rbx
    X32_SET 0, %r14, %r15, %r8, %r9, X32_MSG_B, %rbx
    vmovdqu32 0*64(%rcx), %zmm0
    vmovdqu32 1*64(%rcx), %zmm1
    vmovdqu32 2*64(%rcx), %zmm2
    vmovdqu32 3*64(%rcx), %zmm3
    vmovdqu32 4*64(%rcx), %zmm4
    vmovdqu32 5*64(%rcx), %zmm5
    vmovdqu32 6*64(%rcx), %zmm6
    vmovdqu32 7*64(%rcx), %zmm7
    vmovdqu32 8*64(%rcx), %zmm16
    vmovdqu32 9*64(%rcx), %zmm17
    vmovdqu32 10*64(%rcx), %zmm18
    vmovdqu32 11*64(%rcx), %zmm19
    vmovdqu32 12*64(%rcx), %zmm20
    vmovdqu32 13*64(%rcx), %zmm21
    vmovdqu32 14*64(%rcx), %zmm22
    vmovdqu32 15*64(%rcx), %zmm23
    .p2align 5
1:
    // This block's flags, as BLOCK_START.
    mov X32_FLAGS+8(%rsp), %eax
    cmp $1, %rdx
    cmovne X32_FLAGS(%rsp), %eax
    or X32_FLAGS(%rsp), %eax
    or X32_FLAGS+4(%rsp), %eax
    mov %eax, X32_FLAGS+12(%rsp)
    movl $0, X32_FLAGS+4(%rsp)
    // The next block, if any, into the other buffer.
    cmp $1, %rdx
    je 2f
    mov %rbx, %rax
    xor X32_TOGGLE(%rsp), %rax
    X32_SET 64, %rdi, %r11, %r12, %r13, 0, %rax
    X32_SET 64, %r14, %r15, %r8, %r9, X32_MSG_B, %rax
2:
    vpbroadcastd .Lsealwire_blake3_consts(%rip), %zmm8
    vpbroadcastd .Lsealwire_blake3_consts+4(%rip), %zmm9
    vpbroadcastd .Lsealwire_blake3_consts+8(%rip), %zmm10
    vpbroadcastd .Lsealwire_blake3_consts+12(%rip), %zmm11
    vmovdqa32 X32_CTR(%rsp), %zmm12
    vmovdqa32 X32_CTR+64(%rsp), %zmm13
    vpbroadcastd .Lsealwire_blake3_consts+16(%rip), %zmm14
    vpbroadcastd X32_FLAGS+12(%rsp), %zmm15
    vmovdqa32 %zmm8, %zmm24
    vmovdqa32 %zmm9, %zmm25
    vmovdqa32 %zmm10, %zmm26
    vmovdqa32 %zmm11, %zmm27
    vmovdqa32 X32_CTR+128(%rsp), %zmm28
    vmovdqa32 X32_CTR+192(%rsp), %zmm29
    vmovdqa32 %zmm14, %zmm30
    vmovdqa32 %zmm15, %zmm31
    ROUND2 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    ROUND2 2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8
    ROUND2 3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1
    ROUND2 10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6
    ROUND2 12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4
    ROUND2 9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7
    ROUND2 11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13
    X16_OUTPUT_HALVES
    vpxord %zmm24, %zmm16, %zmm16
    vpxord %zmm25, %zmm17, %zmm17
    vpxord %zmm26, %zmm18, %zmm18
    vpxord %zmm27, %zmm19, %zmm19
    vpxord %zmm28, %zmm20, %zmm20
    vpxord %zmm29, %zmm21, %zmm21
    vpxord %zmm30, %zmm22, %zmm22
    vpxord %zmm31, %zmm23, %zmm23
    xor X32_TOGGLE(%rsp), %rbx
    add $64, %rdi
    add $64, %r11
    add $64, %r12
    add $64, %r13
    add $64, %r14
    add $64, %r15
    add $64, %r8
    add $64, %r9
    dec %rdx
    jnz 1b
    X16_STORE_CV
    vmovdqu32 %zmm16, 8*64(%rcx)
    vmovdqu32 %zmm17, 9*64(%rcx)
    vmovdqu32 %zmm18, 10*64(%rcx)
    vmovdqu32 %zmm19, 11*64(%rcx)
    vmovdqu32 %zmm20, 12*64(%rcx)
    vmovdqu32 %zmm21, 13*64(%rcx)
    vmovdqu32 %zmm22, 14*64(%rcx)
    vmovdqu32 %zmm23, 15*64(%rcx)
    // The transposed input on the stack is cleared: in key derivation the
    // input is key material.
    FRAME_LEAVE X32_CTR
    .cfi_endproc
    .size sealwire_blake3_x32_blocks_avx512, .-sealwire_blake3_x32_blocks_avx512

// Sixteen parents from thirty-two chaining values held word-sliced, as the
// 16-lane loop leaves them (vector j: word j of sixteen nodes), and the
// parents' chaining values the same way: one level of the tree with no
// transposes. in: two groups of eight vectors, nodes 0-15 then 16-31;
// parent p's children are nodes 2p and 2p + 1, so message word j (j < 8)
// of parents 0-7 is word j of group 0's even lanes and of parents 8-15 of
// group 1's, one vpermt2d, and word j + 8 the same from the odd lanes. The
// message stays in registers 16-31 and the state in 0-15, as in the
// narrower loops: nothing goes to the stack.
//
// void sealwire_blake3_x16_parents_sliced_avx512(const void* in,
//     const uint32_t key[8], uint32_t flags, void* out);
// flags: every parent's flags (PARENT included); out may equal in.
    .section .rodata
    .p2align 6
.Lsealwire_blake3_even_lanes:
    .long 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
.Lsealwire_blake3_odd_lanes:
    .long 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31

    .text

// SLICED_WORDS: message words j and j + 8 into registers lo (16 + j) and
// hi (24 + j) from word j of the two groups at rdi (indices in zmm8, zmm9).
.macro SLICED_WORDS j, lo, hi
    vmovdqu32 64*\j(%rdi), %zmm\lo
    vmovdqa32 %zmm\lo, %zmm\hi
    vpermt2d 512+64*\j(%rdi), %zmm8, %zmm\lo
    vpermt2d 512+64*\j(%rdi), %zmm9, %zmm\hi
.endm

    .p2align 6
    .globl sealwire_blake3_x16_parents_sliced_avx512
    .hidden sealwire_blake3_x16_parents_sliced_avx512
    .type sealwire_blake3_x16_parents_sliced_avx512, @function
sealwire_blake3_x16_parents_sliced_avx512:
    .cfi_startproc
    endbr64
    vmovdqa32 .Lsealwire_blake3_even_lanes(%rip), %zmm8
    vmovdqa32 .Lsealwire_blake3_odd_lanes(%rip), %zmm9
    SLICED_WORDS 0, 16, 24
    SLICED_WORDS 1, 17, 25
    SLICED_WORDS 2, 18, 26
    SLICED_WORDS 3, 19, 27
    SLICED_WORDS 4, 20, 28
    SLICED_WORDS 5, 21, 29
    SLICED_WORDS 6, 22, 30
    SLICED_WORDS 7, 23, 31
    vpbroadcastd 0(%rsi), %zmm0
    vpbroadcastd 4(%rsi), %zmm1
    vpbroadcastd 8(%rsi), %zmm2
    vpbroadcastd 12(%rsi), %zmm3
    vpbroadcastd 16(%rsi), %zmm4
    vpbroadcastd 20(%rsi), %zmm5
    vpbroadcastd 24(%rsi), %zmm6
    vpbroadcastd 28(%rsi), %zmm7
    vpbroadcastd .Lsealwire_blake3_consts(%rip), %zmm8
    vpbroadcastd .Lsealwire_blake3_consts+4(%rip), %zmm9
    vpbroadcastd .Lsealwire_blake3_consts+8(%rip), %zmm10
    vpbroadcastd .Lsealwire_blake3_consts+12(%rip), %zmm11
    // Parents have counter 0 (spec 2.5).
    vpxord %zmm12, %zmm12, %zmm12
    vpxord %zmm13, %zmm13, %zmm13
    vpbroadcastd .Lsealwire_blake3_consts+16(%rip), %zmm14
    vpbroadcastd %edx, %zmm15
    ROUND z, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    ROUND z, 18, 22, 19, 26, 23, 16, 20, 29, 17, 27, 28, 21, 25, 30, 31, 24
    ROUND z, 19, 20, 26, 28, 29, 18, 23, 30, 22, 21, 25, 16, 27, 31, 24, 17
    ROUND z, 26, 23, 28, 25, 30, 19, 29, 31, 20, 16, 27, 18, 21, 24, 17, 22
    ROUND z, 28, 29, 25, 27, 31, 26, 30, 24, 23, 18, 21, 19, 16, 17, 22, 20
    ROUND z, 25, 30, 27, 21, 24, 28, 31, 17, 29, 19, 16, 26, 18, 22, 20, 23
    ROUND z, 27, 31, 21, 16, 17, 25, 24, 22, 30, 26, 18, 28, 19, 20, 23, 29
    X16_OUTPUT_HALVES
    X16_STORE_CV
    vzeroupper
    ret
    .cfi_endproc
    .size sealwire_blake3_x16_parents_sliced_avx512, .-sealwire_blake3_x16_parents_sliced_avx512

    .section .note.GNU-stack, "", @progbits

// The functions are ready for Intel CET (endbr64 at each entry, no indirect
// jumps, every return a plain ret): say so, so that a build with
// -fcf-protection keeps the library marked for IBT and shadow stacks.
    .section .note.gnu.property, "a"
    .p2align 3
    .long 4            // name size
    .long 16           // descriptor size
    .long 5            // NT_GNU_PROPERTY_TYPE_0
    .asciz "GNU"
    .long 0xc0000002   // GNU_PROPERTY_X86_FEATURE_1_AND
    .long 4
    .long 3            // IBT | SHSTK
    .p2align 3
