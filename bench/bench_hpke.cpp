// SPDX-License-Identifier: Apache-2.0
// HPKE benchmarks beside the key-agreement operations they are built on, and
// X448 beside OpenSSL. Setup targets: a sender's setup within 1.1x of one key
// generation plus one DH, a recipient's within 1.1x of one DH.
#include "common.hpp"

#include <sealwire/crypto/x25519.hpp>
#include <sealwire/crypto/x448.hpp>
#include <sealwire/crypto/xwing.hpp>
#include <sealwire/hpke/hpke.hpp>

#include <openssl/evp.h>

#include "detail/test_access.hpp"  // context_test_access: reopen at the same sequence number

#include <string>

namespace sealwire::bench {
namespace {

struct suite_case {
  std::string name;
  hpke::suite s;
};

template <class X>
void primitive_ops(benchmark::State& st, int ops) {
  std::uint8_t sk[X::scalar_size], pk[X::point_size], out[X::point_size], peer[X::point_size];
  const bytes seed = pattern(X::scalar_size, 9);
  X::public_key(peer, std::span<const std::uint8_t, X::scalar_size>(seed.data(), X::scalar_size));
  measure(st, 0, [&] {
    if (ops == 2) (void)X::generate(sk, pk);  // the sender's ephemeral key
    (void)X::shared_secret(out, std::span<const std::uint8_t, X::scalar_size>(seed.data(), X::scalar_size), peer);
    benchmark::DoNotOptimize(out);
  });
}

void register_all() {
  const suite_case cases[] = {
      {"x25519_sha256_chacha", {hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha256, hpke::aead_id::chacha20_poly1305}},
      {"x448_sha512_chacha", {hpke::kem_id::x448, hpke::kdf_id::hkdf_sha512, hpke::aead_id::chacha20_poly1305}},
  };
  for (const auto& c : cases) {
    const bool is25519 = c.s.kem == hpke::kem_id::x25519;
    const std::string prefix = "hpke_" + c.name;
    add(prefix + ".setup_sender", 1, "sealwire", [c](benchmark::State& st) {
      auto kp = *hpke::derive_key_pair(c.s.kem, pattern(64, 1));
      measure(st, 0, [&] { benchmark::DoNotOptimize(hpke::setup_sender(c.s, kp.pub)); });
    });
    add(prefix + ".setup_sender", 1, is25519 ? "x25519_keygen_and_dh" : "x448_keygen_and_dh", [is25519](benchmark::State& st) {
      if (is25519) {
        primitive_ops<crypto::x25519>(st, 2);
      } else {
        primitive_ops<crypto::x448>(st, 2);
      }
    });
    add(prefix + ".setup_recipient", 1, "sealwire", [c](benchmark::State& st) {
      auto kp = *hpke::derive_key_pair(c.s.kem, pattern(64, 1));
      auto setup = *hpke::setup_sender(c.s, kp.pub);
      const bytes enc(setup.enc.bytes().begin(), setup.enc.bytes().end());
      measure(st, 0, [&] { benchmark::DoNotOptimize(hpke::setup_recipient(c.s, enc, kp.priv)); });
    });
    add(prefix + ".setup_recipient", 1, is25519 ? "x25519_dh" : "x448_dh", [is25519](benchmark::State& st) {
      if (is25519) {
        primitive_ops<crypto::x25519>(st, 1);
      } else {
        primitive_ops<crypto::x448>(st, 1);
      }
    });
    for (std::size_t n : {64u, 1024u}) {
      add(prefix + ".seal", n, "sealwire", [c, n](benchmark::State& st) {
        auto kp = *hpke::derive_key_pair(c.s.kem, pattern(64, 1));
        auto setup = *hpke::setup_sender(c.s, kp.pub);
        const bytes pt = pattern(n), aad = pattern(13);
        bytes out(n + 16);
        measure(st, n, [&] { benchmark::DoNotOptimize(setup.context.seal(out, pt, associated_data(aad))); });
      });
      add(prefix + ".open", n, "sealwire", [c, n](benchmark::State& st) {
        auto kp = *hpke::derive_key_pair(c.s.kem, pattern(64, 1));
        auto setup = *hpke::setup_sender(c.s, kp.pub);
        const bytes pt = pattern(n), aad = pattern(13);
        bytes ct(n + 16), out(n);
        (void)setup.context.seal(ct, pt, associated_data(aad));
        auto r = *hpke::setup_recipient(c.s, setup.enc.bytes(), kp.priv);
        // The same ciphertext, opened at the same sequence number each time.
        measure(st, n, [&] {
          hpke::detail::context_test_access::set_sequence(r, 0, 0);
          benchmark::DoNotOptimize(r.open(out, ct, associated_data(aad)));
        });
      });
    }
    add(prefix + ".export32", 1, "sealwire", [c](benchmark::State& st) {
      auto kp = *hpke::derive_key_pair(c.s.kem, pattern(64, 1));
      auto setup = *hpke::setup_sender(c.s, kp.pub);
      std::uint8_t out[32];
      const bytes ctx = pattern(16);
      measure(st, 0, [&] { benchmark::DoNotOptimize(setup.context.export_secret(out, ctx)); });
    });
  }

  // X-Wing (draft-ietf-hpke-pq): the setups beside X-Wing's own Encaps and
  // its Decaps from the seed (HPKE keeps the private key as the seed, so
  // every Decap expands it). Seal and open are the AEAD's, as above.
  const hpke::suite xw{hpke::kem_id::xwing, hpke::kdf_id::hkdf_sha256, hpke::aead_id::chacha20_poly1305};
  add("hpke_xwing_sha256_chacha.setup_sender", 1, "sealwire", [xw](benchmark::State& st) {
    auto kp = *hpke::derive_key_pair(xw.kem, pattern(64, 1));
    measure(st, 0, [&] { benchmark::DoNotOptimize(hpke::setup_sender(xw, kp.pub)); });
  });
  add("hpke_xwing_sha256_chacha.setup_sender", 1, "xwing_encaps", [](benchmark::State& st) {
    const auto dk = *crypto::xwing::decapsulation_key::from_seed(pattern(32, 1));
    std::uint8_t ct[crypto::xwing::ciphertext_size], ss[32];
    measure(st, 0, [&] { benchmark::DoNotOptimize(crypto::xwing::encapsulate(ct, ss, dk.encapsulation_key())); });
  });
  add("hpke_xwing_sha256_chacha.setup_recipient", 1, "sealwire", [xw](benchmark::State& st) {
    auto kp = *hpke::derive_key_pair(xw.kem, pattern(64, 1));
    auto setup = *hpke::setup_sender(xw, kp.pub);
    const bytes enc(setup.enc.bytes().begin(), setup.enc.bytes().end());
    measure(st, 0, [&] { benchmark::DoNotOptimize(hpke::setup_recipient(xw, enc, kp.priv)); });
  });
  add("hpke_xwing_sha256_chacha.setup_recipient", 1, "xwing_expand_and_decaps", [](benchmark::State& st) {
    const bytes seed = pattern(32, 1);
    const auto dk = *crypto::xwing::decapsulation_key::from_seed(seed);
    std::uint8_t ct[crypto::xwing::ciphertext_size], ss[32];
    (void)crypto::xwing::encapsulate(ct, ss, dk.encapsulation_key());
    measure(st, 0, [&] {
      auto k = crypto::xwing::decapsulation_key::from_seed(seed);
      benchmark::DoNotOptimize(k->decapsulate(ss, ct));
    });
  });

  add("x448.shared", 1, "sealwire", [](benchmark::State& st) { primitive_ops<crypto::x448>(st, 1); },
      std::string(crypto::x448::provider()));
  add("x448.shared", 1, "openssl", [](benchmark::State& st) { openssl_raw_derive(st, EVP_PKEY_X448, 56); });
  add("x448.keygen", 1, "sealwire", [](benchmark::State& st) {
    std::uint8_t sk[56], pk[56];
    measure(st, 0, [&] { (void)crypto::x448::generate(sk, pk); });
  }, std::string(crypto::x448::provider()));
  add("x448.keygen", 1, "openssl", [](benchmark::State& st) { openssl_raw_keygen(st, EVP_PKEY_X448); });
}

const registrar reg(&register_all);

}  // namespace
}  // namespace sealwire::bench
