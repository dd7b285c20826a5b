// SPDX-License-Identifier: Apache-2.0
// Fuzz target: BLAKE3 fed in fragments against the one-shot functions, in all
// three modes, with the output read through finalize and through the XOF
// reader in pieces and from an offset.
#include <sealwire/crypto/blake3.hpp>

#include "harness.hpp"

using namespace sealwire;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 5) return 0;
  const unsigned mode = data[0] % 3;
  const auto split = fuzz::splits(data[1]);
  const std::size_t out_len = ((std::size_t{data[2]} << 8) | data[3]) % 2049;
  const std::size_t offset = data[4];
  const std::span<const std::uint8_t> msg(data + 5, size - 5);
  std::uint8_t key[32];
  for (std::size_t i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(i * 3);
  constexpr std::string_view context = "sealwire fuzz 2026-11-30 derive_key";

  // One shot, out_len + offset bytes.
  std::vector<std::uint8_t> one(out_len + offset);
  crypto::blake3 h = mode == 0   ? crypto::blake3()
                     : mode == 1 ? crypto::blake3(std::span<const std::uint8_t, 32>(key))
                                 : crypto::blake3::derive_key(context);
  if (mode == 0) crypto::blake3::hash(one, msg);
  if (mode == 1) crypto::blake3::keyed_hash(one, std::span<const std::uint8_t, 32>(key), msg);
  if (mode == 2) crypto::blake3::derive_key(one, context, msg);

  // Incremental in fragments.
  std::size_t pos = 0;
  while (pos < msg.size()) {
    const std::size_t n = split(msg.size() - pos);
    h.update(msg.subspan(pos, n));
    pos += n;
  }
  std::vector<std::uint8_t> two(out_len + offset);
  h.finalize(two);
  if (two != one) fuzz::fatal("incremental finalize differs from the one-shot hash");

  // XOF reader: from the offset, in pieces.
  auto reader = h.finalize_xof();
  reader.seek(offset);
  std::vector<std::uint8_t> three(out_len);
  std::size_t got = 0;
  while (got < out_len) {
    const std::size_t n = split(out_len - got);
    reader.read(std::span(three).subspan(got, n));
    got += n;
  }
  if (!std::equal(three.begin(), three.end(), one.begin() + static_cast<std::ptrdiff_t>(offset)))
    fuzz::fatal("the XOF reader differs from the one-shot output");
  return 0;
}
