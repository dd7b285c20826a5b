// SPDX-License-Identifier: Apache-2.0
// Fuzz target: ML-KEM Decaps (FIPS 203 Algorithm 18) with implicit
// rejection, for ML-KEM-512, -768 and -1024, at a SIMD level against the
// portable level.
//
// Input: byte 0: parameter set (bits 0-1: 0 ML-KEM-512, 1 ML-KEM-768,
// 2 ML-KEM-1024, 3 ML-KEM-768 again) and, in bits 2-7, the SIMD level
// (levels.hpp); byte 1: the mode. Then:
//   mode even ("tamper"): 32 bytes of m (zero-padded), a 2-byte big-endian
//     offset, then up to one ciphertext's worth of bytes XORed into the
//     honest ciphertext Encaps(ek, m) from that offset on (wrapping); when
//     that tail has an odd length its last byte is not XORed but changes
//     the length: bit 0 drops the ciphertext's last byte, else bit 1 adds
//     one.
//   mode odd ("raw"): the rest is the ciphertext itself.
// The decapsulation key is fixed: the expansion of a constant seed d || z.
//
// Invariants beyond the sanitizers:
// - a ciphertext of the wrong length is refused (invalid_argument) with the
//   output zeroed;
// - the honest ciphertext yields Encaps's shared secret;
// - any other ciphertext of the right length yields J(z || c) =
//   SHAKE256(z || c)[0..32] (implicit rejection), computed here
//   independently. (A changed or raw ciphertext that happens to be another
//   honest encapsulation would need the fuzzer to run Encaps under this key:
//   its re-encryption check would have to match all ciphertext bytes);
// - the SIMD level and the portable level agree on every output.
#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/sha3.hpp>

#include "harness.hpp"
#include "levels.hpp"

#include <algorithm>
#include <array>
#include <cstring>

using namespace sealwire;

namespace {

constexpr std::array<std::uint8_t, 64> fixed_seed() {
  std::array<std::uint8_t, 64> s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(0xa5 ^ (i * 29));
  return s;
}

template <class Kem>
const typename Kem::decapsulation_key& fixed_key() {
  static const auto key = [] {
    const auto seed = fixed_seed();
    auto k = Kem::decapsulation_key::from_seed(seed);
    if (!k) fuzz::fatal("ML-KEM key from a fixed seed");
    return std::move(*k);
  }();
  return key;
}

template <class Kem>
fuzz::bytes decaps_at(crypto::cpu::level l, std::span<const std::uint8_t> ct, bool& ok) {
  const fuzz::at_level forced(l);
  fuzz::bytes out(Kem::shared_secret_size, 0x5a);
  ok = fixed_key<Kem>().decapsulate(std::span<std::uint8_t, Kem::shared_secret_size>(out), ct).has_value();
  return out;
}

template <class Kem>
void run(crypto::cpu::level simd, const std::uint8_t* data, std::size_t size, bool raw) {
  fuzz::bytes ct;
  fuzz::bytes honest_secret;
  bool changed = true;  // whether ct differs from the honest ciphertext
  if (raw) {
    ct.assign(data, data + size);
  } else {
    std::array<std::uint8_t, Kem::message_size> m{};
    const std::size_t mn = std::min(size, m.size());
    std::memcpy(m.data(), data, mn);
    data += mn;
    size -= mn;
    ct.resize(Kem::ciphertext_size);
    honest_secret.resize(Kem::shared_secret_size);
    fixed_key<Kem>().public_key().encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(ct),
                                              std::span<std::uint8_t, Kem::shared_secret_size>(honest_secret), m);
    std::size_t offset = 0;
    if (size >= 2) {
      offset = (std::size_t{data[0]} << 8 | data[1]) % Kem::ciphertext_size;
      data += 2;
      size -= 2;
    }
    std::uint8_t length_change = 0;
    if (size > 0 && size % 2 == 1) {  // an odd tail ends in the length byte
      length_change = data[size - 1];
      --size;
    }
    // Each byte changes at most once, so the change is known from the input
    // alone (no comparison with the honest ciphertext that libFuzzer could
    // learn it from and replay in raw mode).
    const std::size_t n = std::min(size, ct.size());
    changed = (length_change & 3) != 0;
    for (std::size_t i = 0; i < n; ++i) {
      ct[(offset + i) % ct.size()] ^= data[i];
      changed = changed || data[i] != 0;
    }
    if (length_change & 1) ct.pop_back();
    else if (length_change & 2) ct.push_back(length_change);
  }

  bool ok_simd = false, ok_portable = false;
  const fuzz::bytes got = decaps_at<Kem>(simd, ct, ok_simd);
  const fuzz::bytes ref = decaps_at<Kem>(crypto::cpu::level::portable, ct, ok_portable);
  if (ok_simd != ok_portable || got != ref) fuzz::fatal("SIMD and portable Decaps differ");

  if (ct.size() != Kem::ciphertext_size) {
    if (ok_simd) fuzz::fatal("a ciphertext of the wrong length was accepted");
    if (std::any_of(got.begin(), got.end(), [](std::uint8_t b) { return b != 0; }))
      fuzz::fatal("refused Decaps left output");
    return;
  }
  if (!ok_simd) fuzz::fatal("Decaps refused a ciphertext of the right length");

  // The honest ciphertext (tamper mode with nothing changed) decapsulates to
  // Encaps's secret; every other one to J(z || c).
  fuzz::bytes expected(Kem::shared_secret_size);
  if (!changed) {
    expected = honest_secret;
  } else {
    const auto seed = fixed_seed();
    crypto::shake256 j;
    j.update(std::span<const std::uint8_t>(seed).subspan(32));
    j.update(ct);
    j.squeeze(expected);
  }
  if (got != expected) fuzz::fatal(!changed ? "the honest ciphertext gave another secret"
                                                           : "implicit rejection gave something other than J(z || c)");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const auto simd = fuzz::simd_level(static_cast<std::uint8_t>(data[0] >> 2));
  const bool raw = (data[1] & 1) != 0;
  switch (data[0] & 3) {
    case 0: run<crypto::ml_kem_512>(simd, data + 2, size - 2, raw); break;
    case 2: run<crypto::ml_kem_1024>(simd, data + 2, size - 2, raw); break;
    default: run<crypto::ml_kem_768>(simd, data + 2, size - 2, raw); break;
  }
  return 0;
}
