// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the recipient's side of HPKE with the post-quantum KEMs
// (ML-KEM-512/768/1024, X-Wing): key loading, setup_recipient (ML-KEM
// Decaps with implicit rejection) and open. Input: suite index, mode, u16
// enc length, info length, aad length, then enc, info, aad and the
// ciphertext. The recipient and PSK are fixed, so the seeds' messages open.
//
// Invariants: an auth mode is refused with auth_not_supported; an enc of
// exactly Nenc bytes always decapsulates in base and psk mode (implicit
// rejection never fails); a failed open leaves the output all zero.
#include "fuzz_hpke_pq.hpp"

using namespace sealwire;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 6) return 0;
  const std::size_t index = data[0] % std::size(fuzz::hpke_pq_suites);
  const auto& s = fuzz::hpke_pq_suites[index];
  const auto mode = static_cast<hpke::mode>(data[1] & 3);
  const auto in = fuzz::split_hpke_input({data + 6, size - 6}, (std::size_t{data[2]} << 8) | data[3], data[4], data[5]);
  const auto& enc = in.enc;

  static fuzz::hpke_parties parties[std::size(fuzz::hpke_pq_suites)];
  auto& p = parties[index];
  p.ensure(s.kem);

  // DeserializePublicKey and DeserializePrivateKey on arbitrary bytes.
  static_cast<void>(hpke::public_key::from(s.kem, enc));
  static_cast<void>(hpke::private_key::from(s.kem, enc.first(std::min<std::size_t>(enc.size(), 64))));

  auto ro = p.recipient_options(mode, in.info);
  const bool auth = mode == hpke::mode::auth || mode == hpke::mode::auth_psk;
  auto rc = hpke::setup_recipient(s, enc, p.recipient.priv, ro);
  if (auth) {
    if (rc || rc.error() != hpke_errc::auth_not_supported) fuzz::fatal("an auth mode was not refused");
    return 0;
  }
  const std::size_t nenc = hpke::kem_info(s.kem)->enc;
  if (!rc) {
    if (enc.size() == nenc) fuzz::fatal("an enc of Nenc bytes did not decapsulate");
    return 0;
  }
  fuzz::open_checked(*rc, in, s.aead == hpke::aead_id::export_only);
  return 0;
}
