// SPDX-License-Identifier: Apache-2.0
// Fuzz target: HPKE public-key deserialization and the recipient's side
// (setup_recipient, then open). The input chooses the suite, the mode and the
// lengths of enc, info and aad; the rest is the ciphertext. The recipient,
// sender and PSK are fixed, so the seed generator's messages open.
//
// Invariant: a failed open leaves the output all zero.
#include "fuzz_hpke.hpp"

using namespace sealwire;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 5) return 0;
  const auto& s = fuzz::hpke_suites[data[0] % std::size(fuzz::hpke_suites)];
  const auto mode = static_cast<hpke::mode>(data[1] & 3);
  std::size_t enc_len = data[2], info_len = data[3], aad_len = data[4];
  std::size_t pos = 5;
  auto take = [&](std::size_t n) {
    n = std::min(n, size - pos);
    std::span<const std::uint8_t> v(data + pos, n);
    pos += n;
    return v;
  };
  const auto enc = take(enc_len);
  const auto info = take(info_len);
  const auto aad = take(aad_len);
  const auto ct = take(size - pos);

  static fuzz::hpke_parties parties[std::size(fuzz::hpke_suites)];
  auto& p = parties[data[0] % std::size(fuzz::hpke_suites)];
  p.ensure(s.kem);

  // DeserializePublicKey on arbitrary bytes.
  static_cast<void>(hpke::public_key::from(s.kem, enc));

  const auto ro = p.recipient_options(mode, info);
  auto rc = hpke::setup_recipient(s, enc, p.recipient.priv, ro);
  if (!rc) return 0;
  std::vector<std::uint8_t> out(ct.size() + 1, 0xa5);
  if (s.aead == hpke::aead_id::export_only) {
    std::uint8_t exported[32];
    if (!rc->export_secret(exported, aad)) fuzz::fatal("export from a valid context failed");
    return 0;
  }
  auto r = rc->open(out, ct, associated_data(aad));
  if (!r && ct.size() >= 16) {
    for (std::size_t i = 0; i < ct.size() - 16; ++i)
      if (out[i] != 0) fuzz::fatal("a failed open left plaintext in the output");
  }
  return 0;
}
