// SPDX-License-Identifier: Apache-2.0
// The portable driver shared by ChaCha and Salsa20: counter limits, the
// buffered partial block, and the wide-to-narrow waterfall over the kernels.
#include <sealwire/crypto/stream_cipher.hpp>
#include <sealwire/crypto/ct.hpp>

#include "detail/bytes.hpp"
#include "detail/kernels.hpp"
#include "detail/stream_state.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace sealwire::crypto {
namespace detail {
namespace {

const stream_kernels& kernels_for(stream_family f) noexcept {
  return f == stream_family::chacha ? chacha_kernels() : salsa_kernels();
}

// run_kernels processes whole blocks, widest kernel first, and advances.
void run_kernels(const stream_kernels& ks, stream_state& st, std::uint8_t* out, const std::uint8_t* in,
                 std::size_t blocks) noexcept {
  std::uint64_t ctr = st.counter;
  const std::size_t total = blocks;
  for (const stream_kernel& k : ks.k) {
    if (k.fn == nullptr) break;
    if (blocks < k.width) continue;
    const std::size_t m = blocks - blocks % k.width;
    k.fn(st.words, ctr, out, in, m, st.rounds);
    ctr += m;
    out += 64 * m;
    in += 64 * m;
    blocks -= m;
  }
  stream_advance(st, total);
}

// refill generates keystream for at least `need` (< 64 * batch) bytes into
// ks, and ahead of need by the look-ahead: what the stream has generated
// through this buffer so far, up to the kernels' batch. A stream fed in small
// pieces runs the widest kernel over a full batch from its third or fourth
// refill on, while the keystream that may go unused at its end stays below
// the work done through the buffer and below one batch. The count is rounded
// up to a kernel's width (three blocks cost less as one x4 than as three
// single blocks), and a need of more than a quarter of a batch gets a whole
// batch from the widest kernel (cheaper than the narrow ones over the blocks
// needed; the rest serves the next piece), one-shot or not.
void refill(const stream_kernels& ks, stream_state& st, std::size_t need) noexcept {
  std::uint64_t blocks = std::max<std::uint64_t>((need + 63) / 64, st.lookahead);
  if (ks.k[0].width > 1 && 4 * blocks > ks.batch) blocks = ks.batch;
  std::uint64_t cover = blocks;
  for (const stream_kernel& k : ks.k) {  // widest first: the last match is the narrowest that covers
    if (k.fn != nullptr && k.width >= blocks) cover = k.width;
  }
  blocks = cover;
  blocks = std::min<std::uint64_t>(blocks, ks.batch);
  if (!stream_have_blocks(st, blocks)) blocks = st.last_counter - st.counter + 1;  // never past the limit
  run_kernels(ks, st, st.ks, stream_zero_text, static_cast<std::size_t>(blocks));
  st.ks_pos = 0;
  st.xr = ks.xr;
  st.ks_len = static_cast<std::uint16_t>(64 * blocks);
  st.ks_high = std::max(st.ks_high, st.ks_len);
  st.buffered_blocks = static_cast<std::uint32_t>(std::min<std::uint64_t>(st.buffered_blocks + blocks, 1u << 30));
  st.lookahead = static_cast<std::uint8_t>(std::clamp<std::uint64_t>(st.buffered_blocks, 1, ks.batch));
}

// xor_buffered XORs n bytes of in with the buffered keystream at `ks`.
inline void xor_buffered(const stream_state& st, std::uint8_t* out, const std::uint8_t* in, const std::uint8_t* ks,
                         std::size_t n) noexcept {
  if (st.xr != nullptr && n >= 64) return st.xr(out, in, ks, n);
  xor_bytes(out, in, ks, n);
}

}  // namespace

void stream_wipe(stream_state& st) noexcept {
  ct::wipe(st.ks, st.ks_high);
  ct::wipe(st.words, sizeof st.words);
  st.counter = st.counter_base = st.last_counter = 0;
  st.ks_pos = st.ks_len = st.ks_high = 0;
  st.buffered_blocks = 0;
  st.lookahead = 1;
  st.xr = nullptr;
  st.rounds = 0;
  st.family = stream_family::chacha;
  st.exhausted = false;
}

void stream_start(stream_state& st, std::uint64_t first) noexcept {
  st.counter = first;
  st.ks_pos = st.ks_len = 0;
  st.buffered_blocks = 0;
  st.lookahead = 1;
  st.exhausted = false;
}

result<void> stream_xor(stream_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  const std::size_t buffered = static_cast<std::size_t>(st.ks_len - st.ks_pos);
  if (n <= buffered) {  // the common case for small pieces
    xor_buffered(st, out, in, st.ks + st.ks_pos, n);
    st.ks_pos = static_cast<std::uint16_t>(st.ks_pos + n);
    return {};
  }
  if (!stream_have_blocks(st, (n - buffered + 63) / 64)) return crypto_errc::counter_exhausted;

  xor_buffered(st, out, in, st.ks + st.ks_pos, buffered);
  out += buffered;
  in += buffered;
  n -= buffered;
  st.ks_pos = st.ks_len;

  const stream_kernels& ks = kernels_for(st.family);
  if (n >= 64 * ks.batch) {
    // Long input: whole batches go straight from in to out through the
    // widest kernel; the tail (under a batch) goes through the buffer, which
    // refill fills with the widest kernel too. Running the tail's whole
    // blocks straight through the narrower kernels cost more than a full
    // batch of the widest (a 1448-byte TCP segment is 22.6 blocks: 16 + 4 +
    // 1 + 1 + a partial, and the next piece starts mid-block).
    const std::size_t blocks = n / (64 * ks.batch) * ks.batch;
    run_kernels(ks, st, out, in, blocks);
    out += 64 * blocks;
    in += 64 * blocks;
    n -= 64 * blocks;
  }
  if (n != 0) {
    refill(ks, st, n);
    xor_buffered(st, out, in, st.ks, n);
    st.ks_pos = static_cast<std::uint16_t>(n);
  }
  return {};
}

void stream_xor_rest(stream_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  static_cast<void>(stream_xor(st, out, in, n));
}

result<void> stream_seek(stream_state& st, std::uint64_t block, std::size_t offset) noexcept {
  SEALWIRE_EXPECTS(offset < 64);
  // For IETF ChaCha `counter` also holds the first nonce word in its high
  // half; counter_base maps the caller's block number onto it.
  if (block > st.last_counter - st.counter_base) return crypto_errc::counter_exhausted;
  stream_start(st, st.counter_base + block);
  if (offset != 0) {
    refill(kernels_for(st.family), st, 1);  // a fresh stream's first refill is one block
    st.ks_pos = static_cast<std::uint16_t>(offset);
  }
  return {};
}

void stream_generate(stream_state& st, std::size_t need) noexcept {
  if (st.ks_pos == st.ks_len && st.counter == st.counter_base && !st.exhausted) refill(kernels_for(st.family), st, need);
}

bool stream_take(stream_state& st, std::uint64_t blocks, std::uint64_t& first) noexcept {
  if (blocks == 0 || st.ks_pos != st.ks_len || !stream_have_blocks(st, blocks)) return false;
  first = st.counter;
  stream_advance(st, blocks);
  return true;
}

std::uint8_t* stream_take_buffer(stream_state& st, std::uint64_t& first) noexcept {
  return stream_fill_buffer(st, first, kernels_for(st.family).xr);
}

std::uint8_t* stream_take_buffer_after(stream_state& st, std::uint64_t& first) noexcept {
  if (!stream_take(st, stream_buffer_blocks + 1, first)) return nullptr;
  st.ks_pos = 0;
  st.ks_len = static_cast<std::uint16_t>(64 * stream_buffer_blocks);
  st.ks_high = st.ks_len;  // the whole buffer: wipe clears it
  st.xr = kernels_for(st.family).xr;
  return st.ks;
}

std::uint8_t* stream_take_tail(stream_state& st, std::uint64_t blocks, std::uint64_t& first) noexcept {
  if (!stream_take(st, blocks + 1, first)) return nullptr;
  st.ks_pos = 0;
  st.ks_len = 64;
  if (st.ks_high < st.ks_len) st.ks_high = st.ks_len;
  st.xr = kernels_for(st.family).xr;
  return st.ks;
}

std::string_view stream_provider(stream_family f) noexcept { return kernels_for(f).name; }

}  // namespace detail

stream_cipher::stream_cipher() noexcept { ::new (storage_.get()) detail::stream_state; }

stream_cipher::stream_cipher(stream_cipher&& other) noexcept : stream_cipher() {
  state() = other.state();
  detail::stream_wipe(other.state());
}

stream_cipher& stream_cipher::operator=(stream_cipher&& other) noexcept {
  if (this != &other) {
    state() = other.state();
    detail::stream_wipe(other.state());
  }
  return *this;
}

stream_cipher::~stream_cipher() { detail::stream_wipe(state()); }

detail::stream_state& stream_cipher::state() noexcept {
  return *std::launder(static_cast<detail::stream_state*>(storage_.get()));
}

const detail::stream_state& stream_cipher::state() const noexcept {
  return *std::launder(static_cast<const detail::stream_state*>(storage_.get()));
}

result<void> stream_cipher::apply(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept {
  SEALWIRE_EXPECTS(out.size() == in.size());
  const auto o = reinterpret_cast<std::uintptr_t>(out.data());
  const auto i = reinterpret_cast<std::uintptr_t>(in.data());
  SEALWIRE_EXPECTS(o == i || o + out.size() <= i || i + in.size() <= o);
  return detail::stream_xor(state(), out.data(), in.data(), in.size());
}

result<void> stream_cipher::apply_in_place(std::span<std::uint8_t> buf) noexcept {
  return detail::stream_xor(state(), buf.data(), buf.data(), buf.size());
}

result<void> stream_cipher::keystream(std::span<std::uint8_t> out) noexcept {
  std::memset(out.data(), 0, out.size());
  return detail::stream_xor(state(), out.data(), out.data(), out.size());
}

result<void> stream_cipher::seek(std::uint64_t block, std::size_t offset) noexcept {
  return detail::stream_seek(state(), block, offset);
}

std::string_view stream_cipher::provider() const noexcept { return detail::stream_provider(state().family); }

}  // namespace sealwire::crypto
