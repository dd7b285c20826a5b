// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the incremental AEAD opener against the one-shot open, for
// every AEAD. The input picks the algorithm, the fragmentation and the AAD
// length, then carries the nonce, the AAD and ciphertext || tag. Keys are
// fixed (fuzz_aead.hpp), so the seed generator's messages verify.
//
// Invariants: the one-shot open, the trailing-tag opener and the
// detached-tag opener reach the same verdict; on success the same
// plaintext; on failure the one-shot output is all zero.
#include "fuzz_aead.hpp"

using namespace sealwire;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const auto alg = fuzz::aead_algorithms[data[0] % std::size(fuzz::aead_algorithms)];
  const auto& props = crypto::properties(alg);
  const auto split = fuzz::splits(data[1]);
  const std::size_t aad_len = props.supports_aad ? data[2] : 0;
  std::size_t pos = 3;
  if (size - pos < props.nonce_size) return 0;
  const std::span<const std::uint8_t> nonce(data + pos, props.nonce_size);
  pos += props.nonce_size;
  const std::span<const std::uint8_t> aad(data + pos, std::min(aad_len, size - pos));
  pos += aad.size();
  const std::span<const std::uint8_t> input(data + pos, size - pos);
  const auto key = fuzz::aead_key(alg);

  // One shot.
  std::vector<std::uint8_t> one(input.size(), 0xa5);
  const auto r1 = crypto::aead_open(alg, one, input, associated_data(aad), nonce, key);
  if (!r1 && input.size() >= 16) {
    for (std::size_t i = 0; i < input.size() - 16; ++i)
      if (one[i] != 0) fuzz::fatal("a failed one-shot open left plaintext");
  }
  if (props.tag_first) return 0;  // the incremental opener takes tag-last layouts

  // Trailing tag, in fragments.
  std::vector<std::uint8_t> two(input.size() + 16, 0);
  crypto::aead_opener op;
  if (!op.init(alg, key, nonce, crypto::tag_position::trailing)) fuzz::fatal("opener init");
  op.aad(aad);
  std::size_t in_pos = 0, out_pos = 0;
  bool update_failed = false;
  while (in_pos < input.size()) {
    const std::size_t n = split(input.size() - in_pos);
    const std::size_t expect = op.output_size(n);
    auto w = op.update(std::span(two).subspan(out_pos), input.subspan(in_pos, n));
    if (!w) {
      update_failed = true;
      break;
    }
    if (*w != expect) fuzz::fatal("update wrote a different count than output_size said");
    out_pos += *w;
    in_pos += n;
  }
  const bool ok2 = !update_failed && op.finish().has_value();
  if (ok2 != r1.has_value()) fuzz::fatal("trailing-tag opener and one-shot open disagree");
  if (ok2 && (out_pos != *r1 || !std::equal(one.begin(), one.begin() + static_cast<std::ptrdiff_t>(*r1), two.begin())))
    fuzz::fatal("trailing-tag opener and one-shot open released different plaintext");

  // Detached tag, in fragments.
  if (input.size() < 16) return 0;
  const auto ct = input.first(input.size() - 16);
  const auto tag = input.last(16);
  std::vector<std::uint8_t> three(ct.size(), 0);
  crypto::aead_opener det;
  if (!det.init(alg, key, nonce, crypto::tag_position::detached)) fuzz::fatal("opener init");
  det.aad(aad);
  in_pos = 0;
  while (in_pos < ct.size()) {
    const std::size_t n = split(ct.size() - in_pos);
    auto w = det.update(std::span(three).subspan(in_pos), ct.subspan(in_pos, n));
    if (!w || *w != n) fuzz::fatal("detached update");
    in_pos += n;
  }
  const bool ok3 = det.finish(tag).has_value();
  if (ok3 != r1.has_value()) fuzz::fatal("detached opener and one-shot open disagree");
  if (ok3 && !std::equal(three.begin(), three.end(), one.begin()))
    fuzz::fatal("detached opener and one-shot open released different plaintext");
  return 0;
}
