// SPDX-License-Identifier: Apache-2.0
// Fuzz target: BLAKE3 at a SIMD level against the portable level, in all
// three modes: the one-shot functions at both levels, the hasher fed in
// fragments, the XOF reader in pieces from an offset, and (hash mode)
// hash_parallel on up to four threads.
//
// Input: mode, split, output length (2 bytes), XOF offset, then a growth
// byte, then the message. The growth byte's low two bits pick the SIMD
// level; bits 2-5 (g) add g * 2 KiB to the message, and its bits 6 and 7
// together with the mode byte's bit 7 add 1 MiB + g * 16 KiB more (one
// input in eight: 1 MiB costs about 50 ms here): the fuzzer's bytes are expanded
// deterministically, so that the 4-, 8- and 16-chunk kernels (16 KiB) and
// the parallel path (1 MiB) see inputs that libFuzzer's length limit would
// never reach, while most inputs stay small enough to run fast.
#include <sealwire/crypto/blake3.hpp>

#include "harness.hpp"
#include "levels.hpp"

using namespace sealwire;

namespace {

using crypto::cpu::level;

// expand repeats the fuzzer's bytes to `extra` more bytes, each 64-byte block
// XORed with its index so that chunks differ even when the seed is short.
fuzz::bytes expand(std::span<const std::uint8_t> msg, std::size_t extra) {
  fuzz::bytes out(msg.begin(), msg.end());
  out.reserve(msg.size() + extra);
  for (std::size_t i = 0; i < extra; ++i) {
    const std::uint8_t seed = msg.empty() ? 0 : msg[i % msg.size()];
    out.push_back(static_cast<std::uint8_t>(seed ^ (i >> 6) ^ ((i >> 14) * 0x3b)));
  }
  return out;
}

const std::uint8_t* fixed_key() {
  static const auto key = [] {
    std::array<std::uint8_t, 32> k{};
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(i * 3);
    return k;
  }();
  return key.data();
}
constexpr std::string_view context = "sealwire fuzz 2026-11-30 derive_key";

crypto::blake3 hasher(unsigned mode) {
  const std::span<const std::uint8_t, 32> key(fixed_key(), 32);
  return mode == 0 ? crypto::blake3() : mode == 1 ? crypto::blake3(key) : crypto::blake3::derive_key(context);
}

fuzz::bytes one_shot(unsigned mode, std::span<const std::uint8_t> msg, std::size_t n, level l) {
  const fuzz::at_level forced(l);
  const std::span<const std::uint8_t, 32> key(fixed_key(), 32);
  fuzz::bytes out(n);
  if (mode == 0) crypto::blake3::hash(out, msg);
  if (mode == 1) crypto::blake3::keyed_hash(out, key, msg);
  if (mode == 2) crypto::blake3::derive_key(out, context, msg);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 6) return 0;
  const unsigned mode = (data[0] & 0x7f) % 3;
  const std::size_t out_len = ((std::size_t{data[2]} << 8) | data[3]) % 2049;
  const std::size_t offset = data[4];
  const level simd = fuzz::simd_level(data[5]);
  const std::size_t g = (data[5] >> 2) & 15;
  const bool huge = (data[5] & 0xc0) == 0xc0 && (data[0] & 0x80) != 0;
  const std::size_t grow = g * 2048 + (huge ? (std::size_t{1} << 20) + g * 16384 : 0);
  const fuzz::bytes msg_bytes = expand(std::span(data + 6, size - 6), grow);
  const std::span<const std::uint8_t> msg(msg_bytes);

  // One shot at both levels, out_len + offset bytes.
  const fuzz::bytes one = one_shot(mode, msg, out_len + offset, simd);
  if (one_shot(mode, msg, out_len + offset, level::portable) != one)
    fuzz::fatal("BLAKE3 at the SIMD level and at the portable level differ");

  const fuzz::at_level forced(simd);

  // Incremental in fragments: whole chunks at a time reach the kernels only
  // in large updates, so fragments of a grown message are larger.
  const auto split = fuzz::splits(data[1]);
  const std::size_t scale = grow == 0 ? 1 : 67;
  crypto::blake3 h = hasher(mode);
  std::size_t pos = 0;
  while (pos < msg.size()) {
    const std::size_t n = std::min(msg.size() - pos, split(msg.size() - pos) * scale);
    h.update(msg.subspan(pos, n));
    pos += n;
  }
  fuzz::bytes two(out_len + offset);
  h.finalize(two);
  if (two != one) fuzz::fatal("incremental finalize differs from the one-shot hash");

  // XOF reader: from the offset, in pieces.
  auto reader = h.finalize_xof();
  reader.seek(offset);
  fuzz::bytes three(out_len);
  std::size_t got = 0;
  while (got < out_len) {
    const std::size_t n = split(out_len - got);
    reader.read(std::span(three).subspan(got, n));
    got += n;
  }
  if (!std::equal(three.begin(), three.end(), one.begin() + static_cast<std::ptrdiff_t>(offset)))
    fuzz::fatal("the XOF reader differs from the one-shot output");

  // hash_parallel (hash mode only): same output as hash() on 1..4 threads.
  if (mode == 0) {
    const unsigned threads = 1 + (data[1] >> 6);
    fuzz::bytes four(out_len + offset);
    crypto::blake3::hash_parallel(four, msg, threads);
    if (four != one) fuzz::fatal("hash_parallel differs from hash");
  }
  return 0;
}
