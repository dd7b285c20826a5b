// SPDX-License-Identifier: Apache-2.0
// The stitched ChaCha20-Poly1305 kernel for AVX-512 with IFMA: each step
// runs the sixteen-block ChaCha kernel over 1024 bytes and, between its
// double rounds, eight steps of the eight-lane IFMA Poly1305 over another
// 1024 bytes. ChaCha's sixteen independent blocks keep the vector units busy
// while Poly1305's lanes wait out the latency of their multiply-carry chain,
// so the two overlap instead of running one after the other (RFC 8439 2.8
// fixes what is MACed, not in which order the work is done).
#include "detail/aead_core.hpp"
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
                                                   const multiplier44& step, Group&& group,
                                                   unsigned g_begin, unsigned g_end, Sink&& emit) {
  v16 j[16];
  for (int i = 0; i < 16; ++i) j[i] = splat(w[i]);
  counter_lanes(counter, j[12], j[13]);
  v16 x0 = j[0], x1 = j[1], x2 = j[2], x3 = j[3], x4 = j[4], x5 = j[5], x6 = j[6], x7 = j[7];
  v16 x8 = j[8], x9 = j[9], x10 = j[10], x11 = j[11], x12 = j[12], x13 = j[13], x14 = j[14], x15 = j[15];
#pragma GCC unroll 10
  for (unsigned i = 0; i < 10; ++i) {
    chacha_double_round_x4(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
    if (i >= g_begin && i < g_end) {
      const std::uint8_t* g = group(i);
      mul_add(acc, step, split_bare(_mm512_loadu_si512(g), _mm512_loadu_si512(g + 64)));
    }
  }
  emit_keystream_x16(x0 + j[0], x1 + j[1], x2 + j[2], x3 + j[3], x4 + j[4], x5 + j[5], x6 + j[6], x7 + j[7],
                     x8 + j[8], x9 + j[9], x10 + j[10], x11 + j[11], x12 + j[12], x13 + j[13], x14 + j[14],
                     x15 + j[15], emit);
}

// start_lanes begins the lanes with mac's first group (h joins lane 0, no
// multiplication), as poly1305_lanes_ifma starts them.
inline limbs44 start_lanes(const poly1305_state& st, const std::uint8_t* mac) {
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << 40));
  limbs44 acc = split(_mm512_loadu_si512(mac), _mm512_loadu_si512(mac + 64), top);
  add_h(acc, st, 1);
  return acc;
}

// The smaller of two sizes (std::min would be a template instantiated with
// this file's AVX-512 flags and shared with portable callers).
[[gnu::always_inline]] inline std::size_t min_size(std::size_t a, std::size_t b) noexcept { return a < b ? a : b; }

// stage_copy copies n bytes (no overlap) in 64-byte moves, the last one
// masked: GCC inlines memcpy of a variable length as rep movs, whose
// start-up costs more than these few moves.
[[gnu::always_inline]] inline void stage_copy(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  for (; n >= 64; n -= 64, src += 64, dst += 64) _mm512_storeu_si512(dst, _mm512_loadu_si512(src));
  if (n != 0) {
    const __mmask64 m = (std::uint64_t{1} << n) - 1;  // n < 64
    _mm512_mask_storeu_epi8(dst, m, _mm512_maskz_loadu_epi8(m, src));
  }
}

// xor_keystream writes in ^ ks to out for n bytes, 64 at a time, the last
// ones masked; each load precedes its store, so out may equal in.
[[gnu::always_inline]] inline void xor_keystream(std::uint8_t* out, const std::uint8_t* in, const std::uint8_t* ks,
                                                 std::size_t n) {
  for (; n >= 64; n -= 64, in += 64, out += 64, ks += 64) {
    _mm512_storeu_si512(out, _mm512_xor_si512(_mm512_loadu_si512(in), _mm512_loadu_si512(ks)));
  }
  if (n != 0) {
    const __mmask64 m = (std::uint64_t{1} << n) - 1;  // n < 64
    _mm512_mask_storeu_epi8(out, m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, in), _mm512_maskz_loadu_epi8(m, ks)));
  }
}

}  // namespace

// Requires st.powers == radix44x8 with the lanes live (poly1305.cpp's
// poly1305_direct_lanes) and rounds == 20. `start`: the lanes begin with
// this call's first group (h joins lane 0).
void chacha20_poly1305_x16_ifma(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                                const std::uint8_t* in, std::size_t steps, poly1305_state& st,
                                const std::uint8_t* mac, bool start) noexcept {
  const multiplier44 step = step_multipliers(st);
  limbs44 acc = start ? start_lanes(st, mac) : load_lanes(st);
  // The started lanes took the first step's first group already.
  unsigned g = start ? 1 : 0;
  for (; steps != 0; --steps, counter += 16, in += 1024, out += 1024, mac += 1024) {
    stitched_rounds(w, counter, acc, step, [mac](unsigned i) { return mac + 128 * i; }, g, 8,
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
  // Group i's address: from the head while i < head.
  const auto group = [=](unsigned i) {
    return i < head ? mac_head + 128 * std::size_t{i} : mac + 128 * std::size_t{i - head};
  };
  limbs44 acc = start ? start_lanes(st, group(0)) : load_lanes(st);
  stitched_rounds(w, counter, acc, step, group, start ? 1 : 0, groups, [&](unsigned b, __m512i blk) {
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
  if (an == 16 && bn >= 48) {
    // The trailing-tag opener's held block and the piece's first 48 bytes
    // joined in one register (valignq) for one 64-byte step, where the parts
    // apart took a masked step for the held block: for 100-byte pieces one
    // step of three. Both loads precede the stores (out overlaps neither
    // part when a is not empty).
    const __m512i head = _mm512_maskz_loadu_epi8(static_cast<__mmask64>(0xffffffffffffULL), b);  // b[0..48)
    const __m512i held = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a)));
    const __m512i c = _mm512_alignr_epi64(head, held, 6);  // a || b[0..48)
    _mm512_storeu_si512(stage, c);
    _mm512_storeu_si512(out, _mm512_xor_si512(c, _mm512_loadu_si512(ks)));
    out += 64;
    stage += 64;
    ks += 64;
    part(b + 48, bn - 48);
    return;
  }
  part(a, an);
  part(b, bn);
}

// The opener's piece of 256 bytes or more, the whole path in one function
// (aead.cpp's open_stitched readies the lanes once per message; open_fused
// then checks them and the CPU level for every piece and calls this): the
// XOR of buffered keystream, the stage copies and the buffer's refill
// inline, no dispatch or out-of-line small call on the way (the MAC's
// partial groups go through poly1305_update_bytes). Two positions move
// through the piece: the MAC's (mp) and the cipher's (cp).
//  - The MAC first takes the bytes that bring its lanes to a group boundary
//    (update buffers them, or the stage takes them when it is live), then
//    only whole groups go through kernels.
//  - Keystream buffered by the previous piece (or refill) is used by XOR.
//  - With nothing buffered, whole 1024-byte steps of both run through the
//    stitched kernel straight from in to out; a shorter rest gets one
//    stitched step with up to ten groups of the MAC whose blocks decrypt
//    the rest's whole blocks and leave the others' keystream in the buffer
//    (for the rest's last partial block and the next piece).
//  - What the MAC has left at the end goes to the stage when it fits
//    (aead_stage_bytes), else to update.
// Decrypting in place, the MAC never falls behind the cipher (it reads the
// ciphertext before the XOR overwrites it); otherwise it may lag, so that a
// refill has MAC groups to overlap with.
void chacha20_poly1305_open_ifma(aead_core& c, poly1305_state& mac, std::uint8_t* out, const std::uint8_t* in,
                                 std::size_t n) noexcept {
  stream_state& s = c.cipher;
  constexpr std::size_t group = aead_stage_group;
  constexpr std::size_t step_bytes = 1024;
  const bool in_place = out == in;
  // Invariant: mp < n implies the lanes are at a group boundary (buf_len 0)
  // and the stage is empty.
  std::size_t mp;
  // Staged groups not yet in the lanes (the head of the MAC input, before
  // in + mp): the next refill step takes them first.
  const std::uint8_t* head = nullptr;
  std::size_t head_groups = 0;
  if (c.stage_len != 0) {
    // Staged ciphertext (the last piece's tail, or small pieces'): the
    // piece's head completes its last group and the whole groups wait in the
    // stage for the piece's first refill step (the lanes' buf is empty while
    // staging).
    mp = (group - c.stage_len % group) % group;  // < group <= n
    stage_copy(c.stage + c.stage_len, in, mp);
    head = c.stage;
    head_groups = (c.stage_len + mp) / group;
    c.stage_len = 0;
  } else {
    mp = min_size(n, (group - mac.buf_len % group) % group);
    if (mp != 0) poly1305_update_bytes(c.mac, in, mp);
  }
  // flush_head hands the staged groups to the lanes on their own, before
  // the MAC takes anything else.
  const auto flush_head = [&] {
    if (head_groups == 0) return;
    poly1305_lanes_ifma(mac, head, 8 * head_groups, !mac.started);
    poly1305_direct_done(mac, 8 * head_groups);
    head_groups = 0;
  };
  std::size_t cp = 0;
  while (cp < n) {
    const std::size_t buffered = static_cast<std::size_t>(s.ks_len - s.ks_pos);
    if (buffered != 0) {
      const std::size_t x = min_size(buffered, n - cp);
      if (in_place && mp < cp + x) {
        // Catch the MAC up to a group boundary past the bytes the XOR overwrites.
        flush_head();
        const std::size_t to = min_size(n, mp + (cp + x - mp + group - 1) / group * group);
        poly1305_update_bytes(c.mac, in + mp, to - mp);
        mp = to;
      }
      xor_keystream(out + cp, in + cp, s.ks + s.ks_pos, x);
      s.ks_pos = static_cast<std::uint16_t>(s.ks_pos + x);
      cp += x;
      continue;
    }
    std::uint64_t first = 0;
    // Two steps or more (a long piece) go through the multi-step kernel. A
    // single step goes through the refill step's kernel below (all sixteen
    // blocks direct, nothing buffered): each kernel is 13-15 KB of unrolled
    // code that a one-step call runs once, and a piece that ran both (a
    // 1448-byte one: a step, then a refill) fetched and decoded both afresh
    // every piece, 462-504 TSC cycles a step against 399 with the code in
    // the op cache (fenced rdtsc, Zen 5).
    const std::size_t steps = min_size(n - cp, n - mp) / step_bytes;
    if (steps >= 2 && stream_take(s, steps * 16, first)) {
      flush_head();
      chacha20_poly1305_x16_ifma(s.words, first, out + cp, in + cp, steps, mac, in + mp, !mac.started);
      poly1305_direct_done(mac, steps * 64);
      cp += steps * step_bytes;
      mp += steps * step_bytes;
      continue;
    }
    // Up to ten groups (one after each double round): a piece that gets one
    // step here still has most of its MAC overlapped.
    // When the piece needs another refill after this step, its MAC keeps a
    // group back for it: a refill with no group to overlap is keystream
    // alone and the MAC's groups then run on their own.
    const std::size_t avail = head_groups + (n - mp) / group;
    std::size_t groups = min_size(10, avail);
    if (cp + step_bytes < n && avail >= 2) groups = min_size(groups, avail - 1);
    std::uint8_t* ks = groups != 0 ? stream_fill_buffer(s, first, &xor_bytes_avx512) : nullptr;
    if (ks == nullptr) break;  // no MAC to overlap, or near the counter's limit: the plain path
    const std::size_t from_head = min_size(groups, head_groups);
    const std::size_t from_in = groups - from_head;
    // The step's whole blocks within the piece decrypt straight into out (in
    // place, only those the MAC has read by the end of the step); the rest
    // of its keystream stays in the buffer.
    std::size_t reach = n - cp;
    if (in_place) reach = min_size(reach, mp + from_in * group - cp);
    const std::size_t direct = min_size(stream_buffer_blocks, reach / 64);
    chacha20_poly1305_ks_ifma(s.words, first, out + cp, in + cp, static_cast<unsigned>(direct), ks, mac, head,
                              static_cast<unsigned>(from_head), in + mp, static_cast<unsigned>(groups),
                              !mac.started);
    poly1305_direct_done(mac, groups * 8);
    head += from_head * group;
    head_groups -= from_head;
    mp += from_in * group;
    cp += 64 * direct;
    s.ks_pos = static_cast<std::uint16_t>(64 * direct);
  }
  flush_head();  // staged groups no refill took (before the stage is reused)
  // What the MAC has left (before an in-place XOR of the rest) waits in the
  // stage for the next piece, whose head completes its group.
  if (mp < n) {
    if (n - mp <= aead_stage_bytes) {
      stage_copy(c.stage, in + mp, n - mp);
      c.stage_len = static_cast<std::uint16_t>(n - mp);
    } else {
      poly1305_update_bytes(c.mac, in + mp, n - mp);
    }
  }
  if (cp < n) stream_xor_rest(s, out + cp, in + cp, n - cp);
}

}  // namespace sealwire::crypto::detail
