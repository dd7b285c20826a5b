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
  const auto in = fuzz::split_hpke_input({data + 5, size - 5}, data[2], data[3], data[4]);
  const auto& enc = in.enc;

  static fuzz::hpke_parties parties[std::size(fuzz::hpke_suites)];
  auto& p = parties[data[0] % std::size(fuzz::hpke_suites)];
  p.ensure(s.kem);

  // DeserializePublicKey on arbitrary bytes.
  static_cast<void>(hpke::public_key::from(s.kem, enc));

  const auto ro = p.recipient_options(mode, in.info);
  auto rc = hpke::setup_recipient(s, enc, p.recipient.priv, ro);
  if (!rc) return 0;
  fuzz::open_checked(*rc, in, s.aead == hpke::aead_id::export_only);
  return 0;
}
