// SPDX-License-Identifier: Apache-2.0
// The HPKE fuzz target's fixed parties, shared with the seed generator.
#pragma once

#include "harness.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <vector>

namespace sealwire::fuzz {

inline constexpr hpke::suite hpke_suites[] = {
    {hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha256, hpke::aead_id::chacha20_poly1305},
    {hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha384, hpke::aead_id::export_only},
    {hpke::kem_id::x448, hpke::kdf_id::hkdf_sha512, hpke::aead_id::chacha20_poly1305},
    {hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha512, hpke::aead_id::chacha20_poly1305},
    {hpke::kem_id::p256, hpke::kdf_id::hkdf_sha256, hpke::aead_id::aes128_gcm},
    {hpke::kem_id::p384, hpke::kdf_id::hkdf_sha384, hpke::aead_id::aes256_gcm},
    {hpke::kem_id::p521, hpke::kdf_id::hkdf_sha512, hpke::aead_id::chacha20_poly1305},
};

inline constexpr std::uint8_t hpke_psk[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                              17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
inline constexpr std::uint8_t hpke_psk_id[4] = {'f', 'u', 'z', 'z'};

// hpke_parties: a recipient and an authenticating sender with fixed keys.
struct hpke_parties {
  hpke::key_pair recipient, sender;
  bool ready = false;

  void ensure(hpke::kem_id kem) {
    if (ready) return;
    recipient = fixed_key(kem, 3);
    sender = fixed_key(kem, 4);
    ready = true;
  }
  [[nodiscard]] hpke::recipient_options recipient_options(hpke::mode mode, std::span<const std::uint8_t> info) const {
    hpke::recipient_options o;
    o.mode = mode;
    o.info = info;
    if (mode == hpke::mode::psk || mode == hpke::mode::auth_psk) {
      o.psk = hpke_psk;
      o.psk_id = hpke_psk_id;
    }
    if (mode == hpke::mode::auth || mode == hpke::mode::auth_psk) o.sender_key = &sender.pub;
    return o;
  }
  [[nodiscard]] hpke::sender_options sender_options(hpke::mode mode, std::span<const std::uint8_t> info) const {
    hpke::sender_options o;
    o.mode = mode;
    o.info = info;
    if (mode == hpke::mode::psk || mode == hpke::mode::auth_psk) {
      o.psk = hpke_psk;
      o.psk_id = hpke_psk_id;
    }
    if (mode == hpke::mode::auth || mode == hpke::mode::auth_psk) o.sender_key = &sender.priv;
    return o;
  }
};

// hpke_input: the rest of a fuzz input after its header, cut into enc, info
// and aad of the lengths the header chose (each clipped to what is left)
// and the ciphertext (all that remains).
struct hpke_input {
  std::span<const std::uint8_t> enc, info, aad, ct;
};

[[nodiscard]] inline hpke_input split_hpke_input(std::span<const std::uint8_t> rest, std::size_t enc_len,
                                                 std::size_t info_len, std::size_t aad_len) {
  auto take = [&](std::size_t n) {
    n = std::min(n, rest.size());
    auto v = rest.first(n);
    rest = rest.subspan(n);
    return v;
  };
  hpke_input in;
  in.enc = take(enc_len);
  in.info = take(info_len);
  in.aad = take(aad_len);
  in.ct = rest;
  return in;
}

// open_checked: what both HPKE targets do with a recipient context they set
// up: export (export-only suites; it must succeed), or open the ciphertext
// and check that a failed open left no plaintext behind.
inline void open_checked(hpke::recipient_context& rc, const hpke_input& in, bool export_only) {
  if (export_only) {
    std::uint8_t exported[32];
    if (!rc.export_secret(exported, in.aad)) fatal("export from a valid context failed");
    return;
  }
  std::vector<std::uint8_t> out(in.ct.size() + 1, 0xa5);
  auto r = rc.open(out, in.ct, associated_data(in.aad));
  if (!r && in.ct.size() >= 16) {
    for (std::size_t i = 0; i < in.ct.size() - 16; ++i)
      if (out[i] != 0) fatal("a failed open left plaintext in the output");
  }
}

}  // namespace sealwire::fuzz
