// SPDX-License-Identifier: Apache-2.0
// The stitched ChaCha20-Poly1305 kernel for AVX-512 with IFMA: each step
// runs the sixteen-block ChaCha kernel over 1024 bytes and, between its
// double rounds, eight steps of the eight-lane IFMA Poly1305 over another
// 1024 bytes. ChaCha's sixteen independent blocks keep the vector units busy
// while Poly1305's lanes wait out the latency of their multiply-carry chain,
// so the two overlap instead of running one after the other (RFC 8439 2.8
// fixes what is MACed, not in which order the work is done).
#include "detail/chacha_core.hpp"
#include "detail/kernels.hpp"
#include "detail/poly1305_ifma.hpp"
#include "detail/vec_avx512.hpp"

namespace sealwire::crypto::detail {

namespace {

// stitched_rounds runs one step's ten double rounds on the sixteen blocks
// from `counter` and, after double rounds g_begin .. g_end - 1 (g_end <= 10),
// one group of eight Poly1305 blocks each from group(i) (a pointer), then
// hands the keystream to emit (emit_keystream_x16's sink). All loads of the
// groups precede the stores the sink makes, so an opener may decrypt in
// place what it MACs.
template <class Group, class Sink>
[[gnu::always_inline]] inline void stitched_rounds(const std::uint32_t w[16], std::uint64_t counter, limbs44& acc,
                                                   const multiplier44& step, __m512i top, Group&& group,
                                                   unsigned g_begin, unsigned g_end, Sink&& emit) {
  v16 j[16];
  for (int i = 0; i < 16; ++i) j[i] = splat(w[i]);
  counter_lanes(counter, j[12], j[13]);
  v16 x0 = j[0], x1 = j[1], x2 = j[2], x3 = j[3], x4 = j[4], x5 = j[5], x6 = j[6], x7 = j[7];
  v16 x8 = j[8], x9 = j[9], x10 = j[10], x11 = j[11], x12 = j[12], x13 = j[13], x14 = j[14], x15 = j[15];
#pragma GCC unroll 10
  for (unsigned i = 0; i < 10; ++i) {
    chacha_double_round(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
    if (i >= g_begin && i < g_end) {
      mul(acc, step);
      const std::uint8_t* g = group(i);
      acc = add(acc, split(_mm512_loadu_si512(g), _mm512_loadu_si512(g + 64), top));
    }
  }
  emit_keystream_x16(x0 + j[0], x1 + j[1], x2 + j[2], x3 + j[3], x4 + j[4], x5 + j[5], x6 + j[6], x7 + j[7],
                     x8 + j[8], x9 + j[9], x10 + j[10], x11 + j[11], x12 + j[12], x13 + j[13], x14 + j[14],
                     x15 + j[15], emit);
}

// start_lanes begins the lanes with mac's first group (h joins lane 0, no
// multiplication), as poly1305_lanes_ifma starts them.
inline limbs44 start_lanes(const poly1305_state& st, const std::uint8_t* mac, __m512i top) {
  limbs44 acc = split(_mm512_loadu_si512(mac), _mm512_loadu_si512(mac + 64), top);
  add_h(acc, st, 1);
  return acc;
}

}  // namespace

// Requires st.powers == radix44x8 with the lanes live (poly1305.cpp's
// poly1305_direct_lanes) and rounds == 20. `start`: the lanes begin with
// this call's first group (h joins lane 0).
void chacha20_poly1305_x16_ifma(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                                const std::uint8_t* in, std::size_t steps, poly1305_state& st,
                                const std::uint8_t* mac, bool start) noexcept {
  const multiplier44 step = step_multipliers(st);
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << 40));
  limbs44 acc = start ? start_lanes(st, mac, top) : load_lanes(st);
  // The started lanes took the first step's first group already.
  unsigned g = start ? 1 : 0;
  for (; steps != 0; --steps, counter += 16, in += 1024, out += 1024, mac += 1024) {
    stitched_rounds(w, counter, acc, step, top, [mac](unsigned i) { return mac + 128 * i; }, g, 8,
                    [&](unsigned b, __m512i blk) {
      const std::size_t off = 64 * std::size_t{b};
      _mm512_storeu_si512(out + off, _mm512_xor_si512(_mm512_loadu_si512(in + off), blk));
    });
    g = 0;
  }
  store_lanes(st, acc);
}

// One step split between the text and a keystream buffer: blocks 0 ..
// direct - 1 decrypt `in` into `out` (in place or not), the rest go to
// ks + 64 * block as raw keystream, while `groups` (1 to 10: one after each
// double round) groups go into the lanes: the first `head` of them from
// mac_head (the opener's stage), the rest from mac. The opener runs it when
// its keystream runs out less than a step before the piece ends: the MAC of
// the piece's text overlaps the keystream its last bytes and the next piece
// will use.
void chacha20_poly1305_ks_ifma(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                               const std::uint8_t* in, unsigned direct, std::uint8_t ks[1024], poly1305_state& st,
                               const std::uint8_t* mac_head, unsigned head, const std::uint8_t* mac,
                               unsigned groups, bool start) noexcept {
  const multiplier44 step = step_multipliers(st);
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << 40));
  // Group i's address: from the head while i < head.
  const auto group = [=](unsigned i) {
    return i < head ? mac_head + 128 * std::size_t{i} : mac + 128 * std::size_t{i - head};
  };
  limbs44 acc = start ? start_lanes(st, group(0), top) : load_lanes(st);
  stitched_rounds(w, counter, acc, step, top, group, start ? 1 : 0, groups, [&](unsigned b, __m512i blk) {
    const std::size_t off = 64 * std::size_t{b};
    if (b < direct) {
      _mm512_storeu_si512(out + off, _mm512_xor_si512(_mm512_loadu_si512(in + off), blk));
    } else {
      _mm512_store_si512(ks + off, blk);
    }
  });
  store_lanes(st, acc);
}

// The opener's small piece inside keystream generated ahead, in one pass:
// each 64 bytes (a masked load at a part's end) of part a, then of part b,
// are stored to the stage as MAC input and XORed with ks into out. A load
// precedes both stores of its bytes, so out may equal a, or b when a is
// empty (in place): part a's stores would overwrite b's first bytes.
void chacha_open_stage_ifma(std::uint8_t* out, std::uint8_t* stage, const std::uint8_t* a, std::size_t an,
                            const std::uint8_t* b, std::size_t bn, const std::uint8_t* ks) noexcept {
  const auto part = [&](const std::uint8_t* in, std::size_t n) {
    for (; n >= 64; n -= 64, in += 64, out += 64, stage += 64, ks += 64) {
      const __m512i c = _mm512_loadu_si512(in);
      _mm512_storeu_si512(stage, c);
      _mm512_storeu_si512(out, _mm512_xor_si512(c, _mm512_loadu_si512(ks)));
    }
    if (n != 0) {
      const __mmask64 m = (std::uint64_t{1} << n) - 1;  // n < 64
      const __m512i c = _mm512_maskz_loadu_epi8(m, in);
      _mm512_mask_storeu_epi8(stage, m, c);
      _mm512_mask_storeu_epi8(out, m, _mm512_xor_si512(c, _mm512_maskz_loadu_epi8(m, ks)));
      out += n;
      stage += n;
      ks += n;
    }
  };
  part(a, an);
  part(b, bn);
}

// A copy into the opener's stage in 64-byte moves (the last one masked):
// GCC inlines memcpy of a variable length as rep movs, whose start-up costs
// more than these few moves.
void chacha_stage_copy_ifma(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) noexcept {
  for (; n >= 64; n -= 64, src += 64, dst += 64) _mm512_storeu_si512(dst, _mm512_loadu_si512(src));
  if (n != 0) {
    const __mmask64 m = (std::uint64_t{1} << n) - 1;  // n < 64
    _mm512_mask_storeu_epi8(dst, m, _mm512_maskz_loadu_epi8(m, src));
  }
}

}  // namespace sealwire::crypto::detail
