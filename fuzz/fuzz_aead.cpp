// SPDX-License-Identifier: Apache-2.0
// Fuzz target: every AEAD, differentially. The input picks the algorithm,
// the fragmentation, the AAD length and a SIMD level, then carries the key,
// the nonce, the AAD and a body, which is used twice:
//  - as plaintext: sealed at the SIMD level, at the portable level, by the
//    incremental sealer in fragments and by libsodium/OpenSSL (all four must
//    agree), then opened again, and opened with one bit flipped;
//  - as a sealed message: opened at both levels, by the incremental openers
//    (trailing and detached tag) and by the oracle.
//
// Invariants: every implementation and level produces the same ciphertext
// and reaches the same verdict; a sealed message opens to its plaintext and
// a tampered one does not; a failed one-shot open leaves the output zeroed.
#include "aead_oracle.hpp"
#include "fuzz_aead.hpp"
#include "levels.hpp"

#include <algorithm>
#include <optional>

using namespace sealwire;

namespace {

using crypto::cpu::level;

struct message {
  crypto::aead_algorithm alg;
  std::span<const std::uint8_t> key, nonce, aad;
  std::uint8_t split;  // fragmentation of the incremental paths
  level simd;          // compared with level::portable
};

// ct_and_tag splits an attached-layout message (tag first for secretbox).
std::pair<std::span<const std::uint8_t>, std::span<const std::uint8_t>> ct_and_tag(const message& m,
                                                                                   std::span<const std::uint8_t> in) {
  const std::size_t n = in.size() - crypto::aead_tag_size;
  if (crypto::properties(m.alg).tag_first) return {in.subspan(crypto::aead_tag_size), in.first(crypto::aead_tag_size)};
  return {in.first(n), in.subspan(n)};
}

std::optional<fuzz::bytes> one_shot_open(const message& m, std::span<const std::uint8_t> in, level l) {
  const fuzz::at_level forced(l);
  fuzz::bytes out(in.size(), 0xa5);
  const auto r = crypto::aead_open(m.alg, out, in, associated_data(m.aad), m.nonce, m.key);
  if (!r) {
    const std::size_t n = in.size() >= crypto::aead_tag_size ? in.size() - crypto::aead_tag_size : 0;
    if (!std::all_of(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n), [](std::uint8_t b) { return b == 0; }))
      fuzz::fatal("a failed one-shot open left plaintext");
    return std::nullopt;
  }
  out.resize(*r);
  return out;
}

// trailing_open feeds ciphertext || tag to an opener that finds the tag itself.
std::optional<fuzz::bytes> trailing_open(const message& m, std::span<const std::uint8_t> ct,
                                         std::span<const std::uint8_t> tag) {
  fuzz::bytes stream(ct.begin(), ct.end());
  stream.insert(stream.end(), tag.begin(), tag.end());
  const auto split = fuzz::splits(m.split);
  fuzz::bytes out(stream.size() + crypto::aead_tag_size, 0);
  crypto::aead_opener op;
  if (!op.init(m.alg, m.key, m.nonce, crypto::tag_position::trailing)) fuzz::fatal("opener init");
  op.aad(m.aad);
  std::size_t in_pos = 0, out_pos = 0;
  while (in_pos < stream.size()) {
    const std::size_t n = split(stream.size() - in_pos);
    const std::size_t expect = op.output_size(n);
    auto w = op.update(std::span(out).subspan(out_pos), std::span(stream).subspan(in_pos, n));
    if (!w) return std::nullopt;
    if (*w != expect) fuzz::fatal("update wrote a different count than output_size said");
    out_pos += *w;
    in_pos += n;
  }
  if (!op.finish()) return std::nullopt;
  out.resize(out_pos);
  return out;
}

std::optional<fuzz::bytes> detached_open(const message& m, std::span<const std::uint8_t> ct,
                                         std::span<const std::uint8_t> tag) {
  const auto split = fuzz::splits(static_cast<std::uint8_t>(m.split ^ 0x5a));
  fuzz::bytes out(ct.size(), 0);
  crypto::aead_opener op;
  if (!op.init(m.alg, m.key, m.nonce, crypto::tag_position::detached)) fuzz::fatal("opener init");
  op.aad(m.aad);
  std::size_t pos = 0;
  while (pos < ct.size()) {
    const std::size_t n = split(ct.size() - pos);
    auto w = op.update(std::span(out).subspan(pos), ct.subspan(pos, n));
    if (!w || *w != n) fuzz::fatal("detached update");
    pos += n;
  }
  if (!op.finish(tag)) return std::nullopt;
  return out;
}

// open_everywhere opens `in` in every way and checks that all agree;
// returns the plaintext when it opened.
std::optional<fuzz::bytes> open_everywhere(const message& m, std::span<const std::uint8_t> in) {
  const auto simd = one_shot_open(m, in, m.simd);
  const auto portable = one_shot_open(m, in, level::portable);
  if (simd != portable) fuzz::fatal("the SIMD level and the portable level open differently");
  if (fuzz::oracle::open(m.alg, m.key, m.nonce, m.aad, in) != simd)
    fuzz::fatal("sealwire and the oracle (libsodium/OpenSSL) open differently");
  if (in.size() < crypto::aead_tag_size) return simd;
  const auto [ct, tag] = ct_and_tag(m, in);
  const fuzz::at_level forced(m.simd);
  if (trailing_open(m, ct, tag) != simd) fuzz::fatal("the trailing-tag opener and the one-shot open differ");
  if (detached_open(m, ct, tag) != simd) fuzz::fatal("the detached opener and the one-shot open differ");
  return simd;
}

fuzz::bytes one_shot_seal(const message& m, std::span<const std::uint8_t> pt, level l) {
  const fuzz::at_level forced(l);
  fuzz::bytes out(pt.size() + crypto::aead_tag_size);
  if (!crypto::aead_seal(m.alg, out, pt, associated_data(m.aad), m.nonce, m.key)) fuzz::fatal("aead_seal");
  return out;
}

fuzz::bytes incremental_seal(const message& m, std::span<const std::uint8_t> pt) {
  const fuzz::at_level forced(m.simd);
  const auto split = fuzz::splits(static_cast<std::uint8_t>(m.split + 1));
  fuzz::bytes ct(pt.size());
  std::uint8_t tag[crypto::aead_tag_size];
  crypto::aead_sealer s;
  if (!s.init(m.alg, m.key, m.nonce)) fuzz::fatal("sealer init");
  s.aad(m.aad);
  std::size_t pos = 0;
  while (pos < pt.size()) {
    const std::size_t n = split(pt.size() - pos);
    auto w = s.update(std::span(ct).subspan(pos), pt.subspan(pos, n));
    if (!w || *w != n) fuzz::fatal("sealer update");
    pos += n;
  }
  s.finish(tag);
  fuzz::bytes out;
  if (crypto::properties(m.alg).tag_first) out.insert(out.end(), tag, tag + sizeof tag);
  out.insert(out.end(), ct.begin(), ct.end());
  if (!crypto::properties(m.alg).tag_first) out.insert(out.end(), tag, tag + sizeof tag);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const auto alg = fuzz::aead_algorithms[data[0] % std::size(fuzz::aead_algorithms)];
  const auto& props = crypto::properties(alg);
  const std::size_t aad_len = props.supports_aad ? data[2] : 0;
  std::size_t pos = 4;
  if (size - pos < props.key_size + props.nonce_size) return 0;
  message m{alg, {}, {}, {}, data[1], fuzz::simd_level(data[3])};
  m.key = std::span(data + pos, props.key_size);
  pos += props.key_size;
  m.nonce = std::span(data + pos, props.nonce_size);
  pos += props.nonce_size;
  m.aad = std::span(data + pos, std::min(aad_len, size - pos));
  pos += m.aad.size();
  const std::span<const std::uint8_t> body(data + pos, size - pos);

  // The body as plaintext: seal everywhere, open, tamper.
  const auto sealed = one_shot_seal(m, body, m.simd);
  if (one_shot_seal(m, body, level::portable) != sealed) fuzz::fatal("the SIMD level and the portable level seal differently");
  if (incremental_seal(m, body) != sealed) fuzz::fatal("the incremental sealer and the one-shot seal differ");
  if (fuzz::oracle::seal(alg, m.key, m.nonce, m.aad, body) != sealed)
    fuzz::fatal("sealwire and the oracle (libsodium/OpenSSL) seal differently");
  const auto opened = open_everywhere(m, sealed);
  if (!opened || !std::equal(opened->begin(), opened->end(), body.begin(), body.end()))
    fuzz::fatal("a sealed message did not open to its plaintext");
  fuzz::bytes tampered = sealed;
  const std::size_t bit = (std::size_t{data[3]} * 131 + size) % (tampered.size() * 8);
  tampered[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
  if (open_everywhere(m, tampered)) fuzz::fatal("a message with one bit flipped opened");

  // The body as a sealed message (the seed corpus holds ones that open).
  static_cast<void>(open_everywhere(m, body));
  return 0;
}
