// SPDX-License-Identifier: Apache-2.0
// BLAKE3 (the BLAKE3 specification, 2020): the portable compression, the
// kernel table, the tree driver (chunk state, chaining-value stack, root
// output) and the multithreaded one-shot.
#include <sealwire/crypto/blake3.hpp>
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ct.hpp>

#include "detail/blake3_core.hpp"
#include "detail/bytes.hpp"
#include "detail/cpu_features.hpp"
#include "detail/work_pool.hpp"

#if SEALWIRE_X86_KERNELS
#include <cpuid.h>
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <utility>
#include <vector>

namespace sealwire::crypto {
namespace detail {
namespace {

// compress is the compression function (spec 2.2) on one block; out gets all
// sixteen output words: the first eight are the chaining value, all sixteen
// an output block of the root (spec 2.6).
[[gnu::always_inline]] inline void compress(const std::uint32_t cv[8], const std::uint8_t* block,
                                            std::uint32_t block_len, std::uint64_t counter, std::uint32_t flags,
                                            std::uint32_t out[16]) noexcept {
  std::uint32_t m0 = load32_le(block), m1 = load32_le(block + 4), m2 = load32_le(block + 8);
  std::uint32_t m3 = load32_le(block + 12), m4 = load32_le(block + 16), m5 = load32_le(block + 20);
  std::uint32_t m6 = load32_le(block + 24), m7 = load32_le(block + 28), m8 = load32_le(block + 32);
  std::uint32_t m9 = load32_le(block + 36), m10 = load32_le(block + 40), m11 = load32_le(block + 44);
  std::uint32_t m12 = load32_le(block + 48), m13 = load32_le(block + 52), m14 = load32_le(block + 56);
  std::uint32_t m15 = load32_le(block + 60);
  std::uint32_t v0 = cv[0], v1 = cv[1], v2 = cv[2], v3 = cv[3], v4 = cv[4], v5 = cv[5], v6 = cv[6], v7 = cv[7];
  std::uint32_t v8 = blake3_iv[0], v9 = blake3_iv[1], v10 = blake3_iv[2], v11 = blake3_iv[3];
  std::uint32_t v12 = static_cast<std::uint32_t>(counter), v13 = static_cast<std::uint32_t>(counter >> 32);
  std::uint32_t v14 = block_len, v15 = flags;
  blake3_rounds(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, m0, m1, m2, m3, m4, m5, m6, m7,
                m8, m9, m10, m11, m12, m13, m14, m15);
  out[0] = v0 ^ v8, out[1] = v1 ^ v9, out[2] = v2 ^ v10, out[3] = v3 ^ v11;
  out[4] = v4 ^ v12, out[5] = v5 ^ v13, out[6] = v6 ^ v14, out[7] = v7 ^ v15;
  out[8] = v8 ^ cv[0], out[9] = v9 ^ cv[1], out[10] = v10 ^ cv[2], out[11] = v11 ^ cv[3];
  out[12] = v12 ^ cv[4], out[13] = v13 ^ cv[5], out[14] = v14 ^ cv[6], out[15] = v15 ^ cv[7];
}

void store_words(std::uint8_t* out, const std::uint32_t* w, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) store32_le(out + 4 * i, w[i]);
}

void load_words(std::uint32_t* w, const std::uint8_t* in, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) w[i] = load32_le(in + 4 * i);
}

}  // namespace

void blake3_hash_many_portable(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                               const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                               std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept {
  for (std::size_t i = 0; i < n_inputs; ++i, out += blake3_cv_len) {
    std::uint32_t cv[8], o[16];
    std::memcpy(cv, key, sizeof cv);
    std::uint32_t block_flags = flags | flags_start;
    for (std::size_t b = 0; b < blocks; ++b, in += blake3_block_len) {
      if (b + 1 == blocks) block_flags |= flags_end;
      compress(cv, in, blake3_block_len, counter, block_flags, o);
      std::memcpy(cv, o, sizeof cv);
      block_flags = flags;
    }
    store_words(out, cv, 8);
    if (increment) ++counter;
  }
}

void blake3_compress_portable(const std::uint32_t cv[8], const std::uint8_t* block, std::uint32_t block_len,
                              std::uint64_t counter, std::uint32_t flags, std::uint32_t out[16]) noexcept {
  compress(cv, block, block_len, counter, flags, out);
}

namespace {

struct hash_many_kernel {
  std::size_t width;
  blake3_hash_many_fn fn;
};

// One CPU level's kernels, widest first, ending with width 1. rows, where
// there is one, takes over single-block inputs (parents) when two to
// rows_below - 1 are left: the row-wise kernel's time is about one input's
// dependency chain for up to eight inputs (two interleaved sets of four),
// less than a narrow column-wise pass or compressions one at a time. A lone
// input in a level stays with the portable compression, whose scalar chain
// is shorter where vector additions take two cycles (Zen 5); the driver's
// single compressions go to compress1 where a table has one (Intel).
struct blake3_kernels {
  std::string_view name;
  hash_many_kernel k[5];
  blake3_hash_many_fn rows = nullptr;
  std::size_t rows_below = 0;
  // Three parent levels at once, sixteen chaining values to two.
  void (*reduce16)(const std::uint8_t*, const std::uint32_t[8], std::uint32_t, std::uint8_t*) noexcept = nullptr;
  // Sixteen chunks and three parent levels at once, to two chaining values.
  void (*hash16_reduce)(const std::uint8_t*, const std::uint32_t[8], std::uint64_t, std::uint32_t,
                        std::uint8_t*) noexcept = nullptr;
  // One compression (the chunk state's blocks, the stack's merges and the
  // root), where it beats the inlined portable one.
  void (*compress1)(const std::uint32_t[8], const std::uint8_t*, std::uint32_t, std::uint64_t, std::uint32_t,
                    std::uint32_t[16]) noexcept = nullptr;
  // A subtree of 16 to blake3_wide16_max_chunks chunks down to its sixteen
  // nodes at one level, the levels in between word-sliced.
  void (*wide16)(const std::uint8_t*, std::uint64_t, std::uint64_t, const std::uint32_t[8], std::uint32_t,
                 std::uint8_t*) noexcept = nullptr;
  // The chunk state's whole blocks in a run, the chaining value in registers.
  void (*chunk_blocks)(std::uint32_t[8], const std::uint8_t*, std::size_t, std::uint64_t, std::uint32_t,
                       std::uint32_t) noexcept = nullptr;
};

constexpr blake3_kernels portable_kernels{"portable", {{1, &blake3_hash_many_portable}}};
#if SEALWIRE_X86_KERNELS
constexpr blake3_kernels sse41_kernels{
    "sse41", {{4, &blake3_hash_many_x4_sse41}, {1, &blake3_hash_many_portable}}};
constexpr blake3_kernels avx2_kernels{"avx2",
                                      {{8, &blake3_hash_many_x8_avx2},
                                       {4, &blake3_hash_many_x4_sse41},
                                       {1, &blake3_hash_many_portable}}};
constexpr blake3_kernels avx512_kernels{"avx512",
                                        {{32, &blake3_hash_many_x32_avx512},
                                         {16, &blake3_hash_many_x16_avx512},
                                         {8, &blake3_hash_many_x8_avx512},
                                         {4, &blake3_hash_many_x4_avx512},
                                         {1, &blake3_hash_many_portable}},
                                        &blake3_hash_many_rows_avx512,
                                        9,
                                        &blake3_reduce16_rows_avx512};
// The same without the 32-lane loop, for Intel: there a 512-bit addition,
// xor or rotation takes one cycle on either of two ports, so the 16-lane
// loop is bound by throughput, not by G's chain, and the 32-lane loop's
// second set only adds its transposes through the stack (sixteen blocks of
// 1,024 chunks, hot in L2, TSC cycles: 351,000 against 337,000 for the
// 16-lane loop on a Sapphire Rapids class Xeon). Single compressions go to
// the row-wise one, whose chain is shorter than the portable compression's
// scalar throughput (TSC cycles, same runs: a 64-byte hash, one
// compression, 270 to 196; a 1 KiB hash, sixteen in a chain, 3,120 to
// 2,710; a 16 KiB hash, whose root is the one single compression, 6,200 to
// 6,135 with the batch call below). Not measured on AMD, which keeps the
// portable one. A batch of sixteen chunks reduced to one or two values runs
// as one call that turns the chunks' chaining values into the first parent
// level's message in registers (a 16 KiB hash: 6,180 to 6,110 TSC cycles,
// the official BLAKE3's 6,184 in the same runs); also Intel only, as
// measured. Subtrees of 32 chunks and more go to wide16, whose parent
// levels between the chunks and the sixteen nodes it returns are word-
// sliced (a 1 MiB hash, TSC cycles: 372,000 to 359,000, the official's 363,000).
constexpr blake3_kernels avx512_intel_kernels{"avx512",
                                              {{16, &blake3_hash_many_x16_avx512},
                                               {8, &blake3_hash_many_x8_avx512},
                                               {4, &blake3_hash_many_x4_avx512},
                                               {1, &blake3_hash_many_portable}},
                                              &blake3_hash_many_rows_avx512,
                                              9,
                                              &blake3_reduce16_rows_avx512,
                                              &blake3_hash16_reduce_avx512,
                                              &blake3_compress_rows_avx512,
                                              &blake3_wide16_avx512,
                                              &blake3_chunk_blocks_rows_avx512};

// intel_cpu: the cpuid vendor string is "GenuineIntel" (read once).
bool intel_cpu() noexcept {
  static const bool intel = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0, &a, &b, &c, &d) == 0) return false;
    return b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e;  // "Genu", "ineI", "ntel"
  }();
  return intel;
}
#endif

const blake3_kernels& kernels() noexcept {
#if SEALWIRE_X86_KERNELS
  const std::uint32_t f = detail::cpu_features();
  constexpr std::uint32_t avx512_needs = cpu::avx512f | cpu::avx512vl | cpu::avx2;
  if ((f & avx512_needs) == avx512_needs) return intel_cpu() ? avx512_intel_kernels : avx512_kernels;
  if ((f & cpu::avx2) != 0) return avx2_kernels;
  if ((f & (cpu::sse41 | cpu::ssse3)) == (cpu::sse41 | cpu::ssse3)) return sse41_kernels;
#endif
  return portable_kernels;
}

// compress_one is compress through the current level's single-compression
// kernel where it has one.
[[gnu::always_inline]] inline void compress_one(const std::uint32_t cv[8], const std::uint8_t* block,
                                                std::uint32_t block_len, std::uint64_t counter, std::uint32_t flags,
                                                std::uint32_t out[16]) noexcept {
  if (const auto f = kernels().compress1; f != nullptr) {
    f(cv, block, block_len, counter, flags, out);
  } else {
    compress(cv, block, block_len, counter, flags, out);
  }
}

// parent_cv writes the chaining value of the parent node whose block is the
// 64 bytes at `children` (left then right chaining value); out may equal children.
void parent_cv(const std::uint8_t* children, const std::uint32_t key[8], std::uint32_t flags,
               std::uint8_t* out) noexcept {
  std::uint32_t o[16];
  compress_one(key, children, blake3_block_len, 0, flags | blake3_parent, o);
  store_words(out, o, 8);
}

// hash_many runs the current level's kernels widest first (32, 16, 8, 4, then
// one input at a time) over n_inputs inputs; see blake3_hash_lanes. Single
// blocks go to the row-wise kernel when 2 to rows_below - 1 are left.
void hash_many(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks, const std::uint32_t key[8],
               std::uint64_t counter, bool increment, std::uint32_t flags, std::uint32_t flags_start,
               std::uint32_t flags_end, std::uint8_t* out) noexcept {
  const blake3_kernels& ks = kernels();
  for (const hash_many_kernel& k : ks.k) {
    if (k.fn == nullptr || n_inputs == 0) break;
    if (blocks == 1 && n_inputs >= 2 && n_inputs < ks.rows_below) {
      ks.rows(in, n_inputs, blocks, key, counter, increment, flags, flags_start, flags_end, out);
      break;
    }
    const std::size_t n = n_inputs - n_inputs % k.width;
    if (n == 0) continue;
    k.fn(in, n, blocks, key, counter, increment, flags, flags_start, flags_end, out);
    in += n * blocks * blake3_block_len;
    out += n * blake3_cv_len;
    if (increment) counter += n;
    n_inputs -= n;
  }
}

// reduce_levels reduces the s chaining values at cur (a power of two), a
// level of parents at a time, until keep remain; the buffers take turns
// (next has room for s / 2) and the result's buffer is returned.
std::uint8_t* reduce_levels(std::uint8_t* cur, std::uint8_t* next, std::size_t s, std::size_t keep,
                            const std::uint32_t key[8], std::uint32_t flags) noexcept {
  const blake3_kernels& ks = kernels();
  while (s > keep) {
    if (s == 16 && keep <= 2 && ks.reduce16 != nullptr) {
      ks.reduce16(cur, key, flags | blake3_parent, next);
      s = 2;
    } else {
      // Adjacent chaining values are exactly a parent's block (spec 2.5).
      hash_many(cur, s / 2, 1, key, 0, false, flags | blake3_parent, 0, 0, next);
      s /= 2;
    }
    std::swap(cur, next);
  }
  return cur;
}

// Chunks hashed side by side and reduced together: two passes of the 32-lane
// kernel at the AVX-512 level (four of the 16-lane one on Intel, more of the
// narrower kernels below it), with room for the reduction on the stack.
constexpr std::size_t batch_chunks = 64;

// hash_batch hashes s <= batch_chunks chunks (a power of two) starting at
// chunk `counter` and reduces their chaining values, a level of parents at a
// time, until `keep` remain (a power of two: 1, 2 for the two halves, or
// wide_cvs for wide_subtree); they go to out.
// Kept out of line so that the recursion of hash_subtree does not carry its
// buffers in every frame.
[[gnu::noinline]] void hash_batch(const std::uint8_t* in, std::size_t s, std::uint64_t counter,
                                  const std::uint32_t key[8], std::uint32_t flags, std::size_t keep,
                                  std::uint8_t* out) noexcept {
  alignas(64) std::uint8_t a[batch_chunks * blake3_cv_len];
  alignas(64) std::uint8_t b[batch_chunks / 2 * blake3_cv_len];
  // Sixteen chunks to one or two values: in one call where the level has it.
  if (const blake3_kernels& ks = kernels(); s == 16 && keep <= 2 && ks.hash16_reduce != nullptr) {
    ks.hash16_reduce(in, key, counter, flags, a);
    if (keep == 1) parent_cv(a, key, flags, a);
    std::memcpy(out, a, keep * blake3_cv_len);
    return;
  }
  hash_many(in, s, blake3_blocks_per_chunk, key, counter, true, flags, blake3_chunk_start, blake3_chunk_end, a);
  std::memcpy(out, reduce_levels(a, b, s, keep, key, flags), keep * blake3_cv_len);
}

// Subtrees larger than a batch are reduced a whole level at a time, sixteen
// chaining values wide: each half hands up the sixteen nodes at its level
// and one 16-lane pass makes the sixteen parents of their 32. Reducing each
// batch to one value instead would run its narrow levels (8, 4, 2 and 1
// parents) once per batch instead of once per call.
constexpr std::size_t wide_cvs = 16;

// wide_subtree writes the wide_cvs nodes of the subtree of s > batch_chunks
// chunks (a power of two, starting at chunk `counter`, a multiple of s) at
// the level that has wide_cvs of them; where the level has wide16, s >= 32
// will do.
void wide_subtree(const std::uint8_t* in, std::uint64_t s, std::uint64_t counter, const std::uint32_t key[8],
                  std::uint32_t flags, std::uint8_t* out) noexcept {
  if (const auto wide16 = kernels().wide16; wide16 != nullptr && s <= blake3_wide16_max_chunks) {
    wide16(in, s, counter, key, flags, out);
    return;
  }
  alignas(64) std::uint8_t children[2 * wide_cvs * blake3_cv_len];
  const std::uint64_t half = s / 2;
  if (half <= batch_chunks) {
    hash_batch(in, static_cast<std::size_t>(half), counter, key, flags, wide_cvs, children);
    hash_batch(in + half * blake3_chunk_len, static_cast<std::size_t>(half), counter + half, key, flags, wide_cvs,
               children + wide_cvs * blake3_cv_len);
  } else {
    wide_subtree(in, half, counter, key, flags, children);
    wide_subtree(in + half * blake3_chunk_len, half, counter + half, key, flags, children + wide_cvs * blake3_cv_len);
  }
  // Adjacent chaining values are exactly a parent's block (spec 2.5).
  hash_many(children, wide_cvs, 1, key, 0, false, flags | blake3_parent, 0, 0, out);
}

// hash_subtree computes the subtree of s chunks (a power of two) starting at
// chunk `counter`, a multiple of s, so that it is a subtree of the message's
// tree (spec 2.5). keep = 1 writes its chaining value; keep = 2 (s >= 2)
// writes its two children's, for a subtree that may be the whole message and
// so the root, which only finalization may compress.
void hash_subtree(const std::uint8_t* in, std::uint64_t s, std::uint64_t counter, const std::uint32_t key[8],
                  std::uint32_t flags, std::size_t keep, std::uint8_t* out) noexcept {
  if (s <= batch_chunks && (s < 2 * wide_cvs || kernels().wide16 == nullptr)) {
    hash_batch(in, static_cast<std::size_t>(s), counter, key, flags, keep, out);
    return;
  }
  alignas(64) std::uint8_t a[wide_cvs * blake3_cv_len];
  alignas(64) std::uint8_t b[wide_cvs / 2 * blake3_cv_len];
  wide_subtree(in, s, counter, key, flags, a);
  std::memcpy(out, reduce_levels(a, b, wide_cvs, keep, key, flags), keep * blake3_cv_len);
}

}  // namespace
}  // namespace detail

using namespace detail;

blake3::blake3(const std::uint32_t key[8], std::uint32_t flags) noexcept
    : flags_(flags), chunk_counter_(0), buf_len_(0), blocks_done_(0), stack_len_(0) {
  std::memcpy(key_, key, sizeof key_);
  std::memcpy(chunk_cv_, key, sizeof chunk_cv_);
}

blake3::blake3() noexcept : blake3(blake3_iv, 0) {}

blake3::blake3(std::span<const std::uint8_t, key_size> key) noexcept : blake3(blake3_iv, blake3_keyed_hash) {
  load_words(key_, key.data(), 8);
  std::memcpy(chunk_cv_, key_, sizeof chunk_cv_);
}

blake3 blake3::derive_key(std::string_view context) noexcept {
  // Spec 2.3: the context string, hashed in its own mode, keys the hash of the key material.
  blake3 ctx(blake3_iv, blake3_derive_key_context);
  ctx.update({reinterpret_cast<const std::uint8_t*>(context.data()), context.size()});
  std::uint8_t context_key[key_size];
  ctx.finalize(context_key);
  std::uint32_t words[8];
  load_words(words, context_key, 8);
  return blake3(words, blake3_derive_key_material);
}

bool blake3::holds_secrets() const noexcept {
  return (flags_ & (blake3_keyed_hash | blake3_derive_key_material)) != 0;
}

blake3::~blake3() {
  if (holds_secrets()) ct::wipe(this, sizeof *this);
}

void blake3::reset() noexcept {
  std::memcpy(chunk_cv_, key_, sizeof chunk_cv_);
  chunk_counter_ = 0;
  buf_len_ = 0;
  blocks_done_ = 0;
  stack_len_ = 0;
}

void blake3::compress_chunk_block(const std::uint8_t* block) noexcept {
  std::uint32_t o[16];
  compress_one(chunk_cv_, block, blake3_block_len, chunk_counter_,
               flags_ | (blocks_done_ == 0 ? blake3_chunk_start : 0), o);
  std::memcpy(chunk_cv_, o, sizeof chunk_cv_);
  ++blocks_done_;
}

// chunk_update absorbs n bytes, no more than the chunk in progress has room
// for. The chunk's last block is held back uncompressed: it takes the
// CHUNK_END flag, and ROOT too if the message is this one chunk.
void blake3::chunk_update(const std::uint8_t* in, std::size_t n) noexcept {
  if (buf_len_ > 0) {
    const std::size_t take = std::min(block_size - buf_len_, n);
    std::memcpy(buf_ + buf_len_, in, take);
    buf_len_ = static_cast<std::uint8_t>(buf_len_ + take);
    in += take;
    n -= take;
    if (n == 0) return;
    compress_chunk_block(buf_);
    buf_len_ = 0;
  }
  // The whole blocks before the last byte (the last block waits: it may end
  // the chunk): in one call where the level has chunk_blocks.
  if (const auto f = kernels().chunk_blocks; f != nullptr && n > 2 * block_size) {
    const std::size_t blocks = (n - 1) / block_size;
    f(chunk_cv_, in, blocks, chunk_counter_, flags_, blocks_done_ == 0 ? blake3_chunk_start : 0);
    blocks_done_ = static_cast<std::uint8_t>(blocks_done_ + blocks);
    in += blocks * block_size;
    n -= blocks * block_size;
  }
  for (; n > block_size; n -= block_size, in += block_size) compress_chunk_block(in);
  std::memcpy(buf_, in, n);
  buf_len_ = static_cast<std::uint8_t>(n);
}

// finish_chunk compresses a full chunk known not to be the root (more input
// followed it) and pushes its chaining value.
void blake3::finish_chunk() noexcept {
  std::uint32_t o[16];
  compress_one(chunk_cv_, buf_, blake3_block_len, chunk_counter_,
               flags_ | blake3_chunk_end | (blocks_done_ == 0 ? blake3_chunk_start : 0), o);
  std::uint8_t cv[blake3_cv_len];
  store_words(cv, o, 8);
  push_cv(cv, chunk_counter_);
  ++chunk_counter_;
  std::memcpy(chunk_cv_, key_, sizeof chunk_cv_);
  buf_len_ = 0;
  blocks_done_ = 0;
}

// merge_stack prepares the chaining-value stack (spec 5.1.2) for input that
// starts at chunk `counter`. Merging is lazy: a subtree on the stack is
// merged with its left sibling only once input beyond it arrives, so the last
// two never merge before finalization, which must flag the root. With input
// at `counter` present, the chunks before it form complete subtrees, one per
// set bit of counter; entries beyond those have a right sibling now and are
// merged.
void blake3::merge_stack(std::uint64_t counter) noexcept {
  const auto keep = static_cast<std::size_t>(std::popcount(counter));
  while (stack_len_ > keep) {
    std::uint8_t* left = cv_stack_ + (stack_len_ - 2) * blake3_cv_len;
    parent_cv(left, key_, flags_, left);
    --stack_len_;
  }
}

// push_cv pushes the chaining value of a subtree that starts at chunk `counter`.
void blake3::push_cv(const std::uint8_t* cv, std::uint64_t counter) noexcept {
  merge_stack(counter);
  std::memcpy(cv_stack_ + stack_len_ * blake3_cv_len, cv, blake3_cv_len);
  ++stack_len_;
}

void blake3::update(std::span<const std::uint8_t> in) noexcept {
  if (in.empty()) return;
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  if (chunk_len() > 0) {
    const std::size_t take = std::min(chunk_size - chunk_len(), n);
    chunk_update(p, take);
    p += take;
    n -= take;
    if (n == 0) return;
    finish_chunk();
  }
  // At a chunk boundary: whole chunks go from the input to the kernels, as
  // the largest subtree that is aligned (a power of two chunks, starting at
  // a multiple of its size) and fits. A lone first chunk with nothing after
  // it may be the root, so it waits in the chunk state.
  while (n > chunk_size || (n == chunk_size && chunk_counter_ > 0)) {
    std::uint64_t s = std::bit_floor(static_cast<std::uint64_t>(n / chunk_size));
    if (chunk_counter_ > 0) s = std::min(s, chunk_counter_ & (0 - chunk_counter_));
    if (chunk_counter_ == 0 && s * chunk_size == n) {
      // All the input so far: it may be the whole message, whose root only
      // finalization may compress, so its two halves go on the stack.
      std::uint8_t halves[2 * blake3_cv_len];
      hash_subtree(p, s, 0, key_, flags_, 2, halves);
      push_cv(halves, 0);
      push_cv(halves + blake3_cv_len, s / 2);
    } else {
      std::uint8_t cv[blake3_cv_len];
      hash_subtree(p, s, chunk_counter_, key_, flags_, 1, cv);
      push_cv(cv, chunk_counter_);
    }
    chunk_counter_ += s;
    p += s * chunk_size;
    n -= static_cast<std::size_t>(s * chunk_size);
  }
  if (n > 0) {
    merge_stack(chunk_counter_);  // finalization merges the stack into this chunk from the right
    chunk_update(p, n);
  }
}

blake3::output_reader blake3::finalize_xof() const noexcept {
  // The node that will be the root, as its compression input; pending
  // chaining values on the stack are merged into it from the right.
  output_reader r;
  std::uint64_t counter = 0;
  std::size_t i = stack_len_;
  if (chunk_len() > 0 || chunk_counter_ == 0) {
    std::memcpy(r.cv_, chunk_cv_, sizeof r.cv_);
    std::memcpy(r.block_, buf_, buf_len_);
    std::memset(r.block_ + buf_len_, 0, block_size - buf_len_);
    r.block_len_ = buf_len_;
    r.flags_ = flags_ | blake3_chunk_end | (blocks_done_ == 0 ? blake3_chunk_start : 0);
    counter = chunk_counter_;
  } else {
    // The message ended on a chunk boundary after at least two chunks: the
    // top two stack entries are the last parent's children.
    i -= 2;
    std::memcpy(r.cv_, key_, sizeof r.cv_);
    std::memcpy(r.block_, cv_stack_ + i * blake3_cv_len, 2 * blake3_cv_len);
    r.block_len_ = blake3_block_len;
    r.flags_ = flags_ | blake3_parent;
  }
  while (i > 0) {
    --i;
    std::uint32_t o[16];
    compress_one(r.cv_, r.block_, r.block_len_, counter, r.flags_, o);
    std::memcpy(r.block_, cv_stack_ + i * blake3_cv_len, blake3_cv_len);
    store_words(r.block_ + blake3_cv_len, o, 8);
    std::memcpy(r.cv_, key_, sizeof r.cv_);
    r.block_len_ = blake3_block_len;
    r.flags_ = flags_ | blake3_parent;
    counter = 0;
  }
  return r;
}

void blake3::finalize(std::span<std::uint8_t> out) const noexcept { finalize_xof().read(out); }

blake3::output_reader::~output_reader() {
  if ((flags_ & (blake3_keyed_hash | blake3_derive_key_material)) != 0) ct::wipe(this, sizeof *this);
}

void blake3::output_reader::read(std::span<std::uint8_t> out) noexcept {
  while (!out.empty()) {
    const std::uint64_t index = position_ / block_size;
    const auto offset = static_cast<std::size_t>(position_ % block_size);
    if (index != cached_index_) {
      // Spec 2.6: output block i is the root compressed with counter i.
      std::uint32_t o[16];
      compress_one(cv_, block_, block_len_, index, flags_ | blake3_root, o);
      store_words(cached_, o, 16);
      cached_index_ = index;
    }
    const std::size_t take = std::min(block_size - offset, out.size());
    std::memcpy(out.data(), cached_ + offset, take);
    out = out.subspan(take);
    position_ += take;
  }
}

void blake3::hash(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept {
  blake3 h;
  h.update(in);
  h.finalize(out);
}

void blake3::keyed_hash(std::span<std::uint8_t> out, std::span<const std::uint8_t, key_size> key,
                        std::span<const std::uint8_t> in) noexcept {
  blake3 h(key);
  h.update(in);
  h.finalize(out);
}

void blake3::derive_key(std::span<std::uint8_t> out, std::string_view context,
                        std::span<const std::uint8_t> key_material) noexcept {
  blake3 h = derive_key(context);
  h.update(key_material);
  h.finalize(out);
}

namespace {

// One piece of a hash_parallel call: the aligned subtree of `chunks` chunks
// (a power of two) starting at chunk `first`, a multiple of `chunks`.
struct parallel_piece {
  std::uint64_t first;
  std::uint64_t chunks;
};

// The shared state of one hash_parallel call: threads take pieces in order
// from `next` and write piece i's chaining value to cvs + 32 * i.
struct parallel_job {
  const std::uint8_t* in;
  const parallel_piece* pieces;
  std::uint64_t count;
  std::uint8_t* cvs;
  std::atomic<std::uint64_t> next{0};
};

void parallel_work(void* ctx) noexcept {
  auto& job = *static_cast<parallel_job*>(ctx);
  for (std::uint64_t i = job.next.fetch_add(1, std::memory_order_relaxed); i < job.count;
       i = job.next.fetch_add(1, std::memory_order_relaxed)) {
    const parallel_piece& piece = job.pieces[i];
    hash_subtree(job.in + piece.first * blake3_chunk_len, piece.chunks, piece.first, blake3_iv, 0, 1,
                 job.cvs + i * blake3_cv_len);
  }
}

// plan_pieces cuts `chunks` whole chunks into pieces, largest first (guided
// scheduling): each is the largest power of two no more than 1/divisor of
// what remains, but at least min_chunks, and no more than what remains. The
// sizes never grow, so every piece starts at a multiple of its size and is a
// subtree of the message's tree (spec 2.5); the first is at most half the
// input, so none is the root. Large pieces first keep the kernels on long
// runs; the small ones at the end let the threads finish within a small
// piece of each other. Writes up to `room` pieces and returns how many there
// are (more than room means pieces was too small and nothing is complete).
std::size_t plan_pieces(std::uint64_t chunks, std::uint64_t divisor, std::uint64_t min_chunks,
                        parallel_piece* pieces, std::size_t room) noexcept {
  std::size_t n = 0;
  for (std::uint64_t first = 0; first < chunks; ++n) {
    const std::uint64_t left = chunks - first;
    const std::uint64_t size = std::min(std::bit_floor(left), std::max(min_chunks, std::bit_floor(left / divisor)));
    if (n < room) pieces[n] = {first, size};
    first += size;
  }
  return n;
}

}  // namespace

void blake3::hash_parallel(std::span<std::uint8_t> out, std::span<const std::uint8_t> in, unsigned threads) {
  // The pool's threads outlive the call, so a call costs at most their
  // wake-up (tens of microseconds on a loaded VM), about what hashing
  // 256 KiB takes with AVX-512; below that one thread wins.
  constexpr std::size_t min_parallel = 256 * 1024;
  constexpr std::uint64_t min_piece_chunks = 32;
  constexpr std::uint64_t pieces_per_thread = 4;
  if (threads <= 1 || in.size() < min_parallel) {
    hash(out, in);
    return;
  }
  // Every whole chunk goes into a piece; a partial last chunk goes through
  // update() afterwards.
  const std::uint64_t chunks = in.size() / chunk_size;
  const std::uint64_t divisor = pieces_per_thread * threads;
  constexpr std::size_t stack_pieces = 256;
  parallel_piece stack_plan[stack_pieces];
  alignas(32) std::uint8_t stack_cvs[stack_pieces * blake3_cv_len];
  std::vector<parallel_piece> heap_plan;
  std::vector<std::uint8_t> heap_cvs;
  parallel_piece* plan = stack_plan;
  std::uint8_t* cvs = stack_cvs;
  const std::size_t count = plan_pieces(chunks, divisor, min_piece_chunks, stack_plan, stack_pieces);
  if (count > stack_pieces) {
    try {
      heap_plan.resize(count);
      heap_cvs.resize(count * blake3_cv_len);
    } catch (...) {
      hash(out, in);
      return;
    }
    plan = heap_plan.data();
    cvs = heap_cvs.data();
    plan_pieces(chunks, divisor, min_piece_chunks, plan, count);
  }
  const auto helpers = static_cast<unsigned>(std::min<std::uint64_t>(threads, count) - 1);
  parallel_job job{in.data(), plan, count, cvs};
  pool_run(&parallel_work, &job, helpers);

  blake3 h;
  for (std::size_t i = 0; i < count; ++i) h.push_cv(cvs + i * blake3_cv_len, plan[i].first);
  h.chunk_counter_ = chunks;
  h.update(in.subspan(static_cast<std::size_t>(chunks * chunk_size)));
  h.finalize(out);
}

std::string_view blake3::provider() noexcept { return kernels().name; }

}  // namespace sealwire::crypto
