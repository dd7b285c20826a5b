// SPDX-License-Identifier: Apache-2.0
// Constant-time check under valgrind memcheck (the BoringSSL approach): the
// secret inputs are marked undefined with memcheck's client requests, so any
// branch or memory address that depends on them is reported as a use of an
// uninitialised value. Values the algorithm makes public (a tag check's
// verdict, an all-zero test) are declassified in the library through
// ct::declassify; outputs are declassified here before they are compared.
//
// Every operation runs twice at every CPU level valgrind lets us see: once
// with plain inputs (the reference) and once with the secrets marked; the
// outputs must agree, so the marked run really computed something.
//
//   sealwire_ct_check          run every check; exit 1 on a mismatch
//   sealwire_ct_check leaky    run a deliberately leaky comparison (a branch
//                              on a secret byte) that memcheck must report
//
// Run it under `valgrind --error-exitcode=99`; natively it only checks that
// the two runs agree. ctest does both (tests/CMakeLists.txt).
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/aes.hpp>
#include <sealwire/crypto/blake2b.hpp>
#include <sealwire/crypto/blake3.hpp>
#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ecdh_nist.hpp>
#include <sealwire/crypto/ecdsa.hpp>
#include <sealwire/crypto/ed25519.hpp>
#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/poly1305.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/salsa20.hpp>
#include <sealwire/crypto/sha2.hpp>
#include <sealwire/crypto/x25519.hpp>
#include <sealwire/crypto/x448.hpp>
#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/xwing.hpp>
#include <sealwire/crypto/ed448.hpp>
#include <sealwire/crypto/sha3.hpp>
#include <sealwire/hpke/hpke.hpp>

#include "detail/ed25519_kernels.hpp"
#include "detail/nist_kernel.hpp"
#include "detail/poly1305_state.hpp"

#include <valgrind/memcheck.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace sealwire;
using bytes = std::vector<std::uint8_t>;

// ---- marking -----------------------------------------------------------------

bool g_mark = false;  // whether the current run marks secrets

// secret returns n bytes of a fixed pattern, marked undefined in the marked run.
bytes secret(std::size_t n, std::uint8_t seed) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed * 31u + i * 7u + (i >> 3));
  if (g_mark && n != 0) VALGRIND_MAKE_MEM_UNDEFINED(b.data(), b.size());
  return b;
}

// secret_scalar is secret() with the top byte cleared, so that it is below
// every curve's group order.
bytes secret_scalar(std::size_t n, std::uint8_t seed) {
  const bool mark = g_mark;
  g_mark = false;
  bytes b = secret(n, seed);
  g_mark = mark;
  b[0] = 0;
  if (g_mark) VALGRIND_MAKE_MEM_UNDEFINED(b.data(), b.size());
  return b;
}

// public_bytes returns n bytes of a fixed pattern, never marked.
bytes public_bytes(std::size_t n, std::uint8_t seed) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + i * 13u);
  return b;
}

// publish declassifies a value the caller is entitled to see (an output).
template <class T>
void publish(const T& v) {
  if (!v.empty()) VALGRIND_MAKE_MEM_DEFINED(v.data(), v.size());
}

// A check collects its outputs; they are published before they are compared.
struct outputs {
  std::vector<bytes> values;
  void add(bytes v) {
    publish(v);
    values.push_back(std::move(v));
  }
  void add_flag(bool ok) {
    VALGRIND_MAKE_MEM_DEFINED(&ok, sizeof ok);
    values.push_back(bytes{static_cast<std::uint8_t>(ok ? 1 : 0)});
  }
};

int g_failures = 0;
int g_checks = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  ++g_failures;
}

void expect(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

// Message sizes reaching the single-block, multi-block and SIMD-batch paths.
constexpr std::size_t sizes[] = {1, 64, 200, 1000, 4100};

// ---- the checks -------------------------------------------------------------

void stream_ciphers(outputs& o) {
  for (unsigned rounds : {8u, 12u, 20u}) {
    for (std::size_t nonce_size : {8u, 12u, 24u}) {
      const std::size_t n = 1000;
      const bytes key = secret(32, 1);
      const bytes nonce = public_bytes(nonce_size, 2);
      const bytes pt = secret(n, 3);
      bytes out(n);
      crypto::chacha c;
      expect(c.init(key, nonce, rounds).has_value(), "chacha init");
      expect(c.apply(out, pt).has_value(), "chacha apply");
      o.add(out);
      if (nonce_size == 12) continue;  // Salsa20 takes 8 (Salsa20) or 24 (XSalsa20)
      crypto::salsa20 s;
      expect(s.init(key, nonce, rounds).has_value(), "salsa20 init");
      expect(s.apply(out, pt).has_value(), "salsa20 apply");
      o.add(out);
    }
  }
}

void poly1305(outputs& o) {
  for (std::size_t n : sizes) {
    const bytes key = secret(32, 4);
    const bytes msg = secret(n, 5);
    bytes tag(16);
    crypto::poly1305::mac(std::span<std::uint8_t, 16>(tag), msg, std::span<const std::uint8_t, 32>(key));
    crypto::poly1305 p;
    p.init(std::span<const std::uint8_t, 32>(key));
    p.update(msg);
    bytes check = tag;  // the expected tag is public; verify's verdict is declassified
    publish(check);
    o.add_flag(p.verify(std::span<const std::uint8_t, 16>(check)));
    o.add(tag);
  }
}

void aeads(outputs& o) {
  const crypto::aead_algorithm algs[] = {
      crypto::aead_algorithm::chacha20_poly1305, crypto::aead_algorithm::xchacha20_poly1305,
      crypto::aead_algorithm::xsalsa20_poly1305, crypto::aead_algorithm::chacha20_poly1305_original,
      crypto::aead_algorithm::aes128_gcm,        crypto::aead_algorithm::aes256_gcm};
  for (auto alg : algs) {
    const auto& props = crypto::properties(alg);
    for (std::size_t n : sizes) {
      const bytes key = secret(props.key_size, 6);
      const bytes nonce = public_bytes(props.nonce_size, 7);
      const bytes aad = props.supports_aad ? public_bytes(33, 8) : bytes{};
      const bytes pt = secret(n, 9);
      bytes sealed(n + 16);
      expect(crypto::aead_seal(alg, sealed, pt, associated_data(aad), nonce, key).has_value(), "aead_seal");
      publish(sealed);  // the ciphertext and tag are public
      o.add(sealed);

      bytes opened(n);
      const auto r = crypto::aead_open(alg, opened, sealed, associated_data(aad), nonce, key);
      o.add_flag(r.has_value());
      o.add(opened);

      // A forged tag: the opener must reject it, checking the tag in constant time.
      bytes forged = sealed;
      forged[props.tag_first ? 0 : forged.size() - 1] ^= 1;
      o.add_flag(crypto::aead_open(alg, opened, forged, associated_data(aad), nonce, key).has_value());

      // The incremental opener with a trailing tag, in uneven pieces.
      crypto::aead_opener op;
      if (!props.tag_first) {
        expect(op.init(alg, key, nonce, crypto::tag_position::trailing).has_value(), "opener init");
        op.aad(aad);
        std::size_t done = 0, at = 0;
        while (at < sealed.size()) {
          const std::size_t piece = std::min<std::size_t>(sealed.size() - at, 97);
          auto w = op.update(std::span(opened).subspan(done), std::span(sealed).subspan(at, piece));
          expect(w.has_value(), "opener update");
          if (w) done += *w;
          at += piece;
        }
        o.add_flag(op.finish().has_value());
        o.add(opened);
      }
    }
  }
}

void macs_and_kdfs(outputs& o) {
  for (std::size_t n : {16u, 64u, 200u}) {
    const bytes key = secret(n, 10);
    const bytes msg = secret(300, 11);
    bytes t256(32), t512(64);
    crypto::hmac_sha256::mac(std::span<std::uint8_t, 32>(t256), key, msg);
    crypto::hmac_sha512::mac(std::span<std::uint8_t, 64>(t512), key, msg);
    o.add(t256);
    o.add(t512);
    bytes check = t256;
    publish(check);
    o.add_flag(crypto::hmac_sha256::verify(check, key, msg));

    const bytes salt = public_bytes(13, 12);
    const bytes info = public_bytes(10, 13);
    bytes prk(32), okm(100);
    crypto::hkdf<crypto::sha256>::extract(std::span<std::uint8_t, 32>(prk), salt, key);
    expect(crypto::hkdf<crypto::sha256>::expand(okm, prk, info).has_value(), "hkdf expand");
    o.add(okm);
    bytes prk384(48);
    crypto::hkdf<crypto::sha384>::extract(std::span<std::uint8_t, 48>(prk384), salt, key);
    expect(crypto::hkdf<crypto::sha384>::expand(okm, prk384, info).has_value(), "hkdf-384 expand");
    o.add(okm);
  }
  for (std::size_t n : sizes) {
    const bytes msg = secret(n, 14);
    bytes d(64);
    crypto::sha512::hash(std::span<std::uint8_t, 64>(d), msg);
    o.add(d);
  }
}

void hashes_keyed(outputs& o) {
  for (std::size_t n : {1u, 64u, 1000u, 5000u}) {
    const bytes key = secret(32, 15);
    const bytes msg = secret(n, 16);
    bytes out(32);
    crypto::blake3::keyed_hash(out, std::span<const std::uint8_t, 32>(key), msg);
    o.add(out);
    crypto::blake3::derive_key(out, "sealwire ct check", key);
    o.add(out);
    bytes b2(64);
    const bytes key64 = secret(64, 17);
    expect(crypto::blake2b::hash(b2, msg, key64).has_value(), "blake2b keyed");
    o.add(b2);
  }
}

// key_exchange: two key pairs from secret scalars, both public keys
// (published) and both shared secrets, for X25519, X448 and the NIST curves.
template <class X>
void key_exchange(outputs& o, std::uint8_t seed) {
  constexpr std::size_t n = X::scalar_size, pn = X::point_size;
  // secret_scalar clears the top byte: below every NIST group order.
  const bytes a = secret_scalar(n, seed), b = secret_scalar(n, static_cast<std::uint8_t>(seed + 1));
  bytes pa(pn), pb(pn), s1(n), s2(n);
  for (auto [scalar, pub] : {std::pair{&a, &pa}, std::pair{&b, &pb}}) {
    const std::span<std::uint8_t, pn> out(*pub);
    const std::span<const std::uint8_t, n> k(*scalar);
    if constexpr (std::is_void_v<decltype(X::public_key(out, k))>) {
      X::public_key(out, k);
    } else {
      expect(X::public_key(out, k).has_value(), "public key");
    }
    publish(*pub);
  }
  expect(X::shared_secret(std::span<std::uint8_t, n>(s1), std::span<const std::uint8_t, n>(a), pb).has_value(),
         "shared secret");
  expect(X::shared_secret(std::span<std::uint8_t, n>(s2), std::span<const std::uint8_t, n>(b), pa).has_value(),
         "shared secret");
  o.add(pa);
  o.add(s1);
  o.add(s2);
}

void key_agreement(outputs& o) {
  key_exchange<crypto::x25519>(o, 18);
  key_exchange<crypto::x448>(o, 20);
}

void nist_curves(outputs& o) {
  key_exchange<crypto::p256>(o, 33);
  key_exchange<crypto::p384>(o, 35);
  key_exchange<crypto::p521>(o, 37);
}

// fixed_random hands out a constant pattern, so that the hedged signature
// is the same in the reference and the marked run.
class fixed_random final : public crypto::random_source {
 public:
  result<void> fill(std::span<std::uint8_t> out) noexcept override {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(0x5a ^ i);
    return {};
  }
};

// ecdsa_signing: a key from a secret scalar (its public key published),
// then deterministic, low-S, hedged and DER signatures of a public
// message; the secrets are the scalar and every nonce derived from it.
template <class E>
void ecdsa_signing(outputs& o, std::uint8_t seed) {
  const bytes d = secret_scalar(E::private_key_size, seed);
  auto key = E::signing_key::from_private_key(typename E::private_key_span(d.data(), d.size()));
  expect(key.has_value(), "ecdsa key");
  if (!key) return;
  bytes pub(key->public_key().begin(), key->public_key().end());
  o.add(pub);
  const bytes msg = public_bytes(100, static_cast<std::uint8_t>(seed + 1));
  fixed_random fixed;
  crypto::random_source* previous = crypto::set_random_source(&fixed);
  for (const crypto::ecdsa_sign_options opt : {crypto::ecdsa_sign_options{false, false},
                                               crypto::ecdsa_sign_options{false, true},
                                               crypto::ecdsa_sign_options{true, false}}) {
    bytes sig(E::signature_size);
    expect(key->sign(typename E::signature_span(sig.data(), sig.size()), msg, opt).has_value(), "ecdsa sign");
    o.add(sig);
    bytes der(E::max_der_signature_size);
    const auto n = key->sign_der(typename E::der_span(der.data(), der.size()), msg, opt);
    expect(n.has_value(), "ecdsa sign_der");
    der.resize(n ? *n : 0);
    o.add(der);
  }
  crypto::set_random_source(previous);
}

void signatures(outputs& o) {
  ecdsa_signing<crypto::ecdsa_p256>(o, 41);
  ecdsa_signing<crypto::ecdsa_p384>(o, 43);
  ecdsa_signing<crypto::ecdsa_p521>(o, 45);
}

// sha3: SHA3-256/512 and SHAKE128/256 of secret messages (the Keccak
// permutation and the sponge's buffering), squeezed in two pieces.
void sha3(outputs& o) {
  for (std::size_t n : sizes) {
    const bytes msg = secret(n, 40);
    bytes d256(32), d512(64), x128(300), x256(200);
    crypto::sha3_256::hash(std::span<std::uint8_t, 32>(d256), msg);
    crypto::sha3_512::hash(std::span<std::uint8_t, 64>(d512), msg);
    crypto::shake128 x;
    x.update(msg);
    x.squeeze(std::span<std::uint8_t>(x128).first(100));
    x.squeeze(std::span<std::uint8_t>(x128).subspan(100));
    crypto::shake256::hash(x256, msg);
    o.add(d256);
    o.add(d512);
    o.add(x128);
    o.add(x256);
  }
}

// ed448: key expansion from a secret seed (the fixed-base comb), and
// signing secret messages with and without a context.
void ed448(outputs& o) {
  const bytes seed = secret(57, 41);
  auto key = crypto::ed448::signing_key::from_seed(seed);
  expect(key.has_value(), "ed448 from_seed");
  if (!key) return;
  const bytes pub(key->public_key().begin(), key->public_key().end());
  publish(pub);
  o.add(pub);
  for (std::size_t n : {0u, 64u, 1000u}) {
    const bytes msg = secret(n, 42);
    bytes sig(crypto::ed448::signature_size), sig_ctx(crypto::ed448::signature_size);
    key->sign(std::span<std::uint8_t, 114>(sig), msg);
    key->sign(std::span<std::uint8_t, 114>(sig_ctx), msg, public_bytes(8, 43));
    o.add(sig);
    o.add(sig_ctx);
  }
}

// ed25519_signing: key expansion from a secret seed (the public key is an
// output) and signatures of messages of a few sizes: the scalar, the nonce
// prefix and the per-message nonce r stay secret throughout.
void ed25519_signing(outputs& o) {
  const bytes seed = secret(32, 41);
  auto key = crypto::ed25519::signing_key::from_seed(seed);
  expect(key.has_value(), "ed25519 from_seed");
  if (!key) return;
  o.add(bytes(key->public_key().begin(), key->public_key().end()));
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{200}}) {
    const bytes msg = public_bytes(n, 43);
    bytes sig(64);
    key->sign(std::span<std::uint8_t, 64>(sig), msg);
    o.add(sig);
  }
}

void hpke_key_schedule(outputs& o) {
  const hpke::suite suites[] = {
      {hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha256, hpke::aead_id::chacha20_poly1305},
      {hpke::kem_id::x448, hpke::kdf_id::hkdf_sha512, hpke::aead_id::chacha20_poly1305},
      {hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha384, hpke::aead_id::export_only},
      {hpke::kem_id::p256, hpke::kdf_id::hkdf_sha256, hpke::aead_id::aes128_gcm},
      {hpke::kem_id::p521, hpke::kdf_id::hkdf_sha512, hpke::aead_id::aes256_gcm},
  };
  for (const auto& s : suites) {
    const auto sizes_r = hpke::kem_info(s.kem);
    if (!sizes_r) {
      fail("kem_info");
      continue;
    }
    for (auto mode : {hpke::mode::base, hpke::mode::auth_psk}) {
      const bytes ikm_r = secret(64, 22);
      const bytes ikm_s = secret(64, 23);
      const bytes ikm_e = secret(64, 24);
      const bytes psk = secret(32, 25);
      const bytes psk_id = public_bytes(8, 26);
      const bytes info = public_bytes(20, 27);
      auto kr = hpke::derive_key_pair(s.kem, ikm_r);
      auto ks = hpke::derive_key_pair(s.kem, ikm_s);
      if (!kr || !ks) {
        fail("derive_key_pair");
        continue;
      }
      publish(kr->pub.bytes());  // public keys are public
      publish(ks->pub.bytes());
      publish(kr->priv.public_key().bytes());
      publish(ks->priv.public_key().bytes());

      hpke::sender_options so;
      so.mode = mode;
      so.info = info;
      so.ikm_e = ikm_e;
      hpke::recipient_options ro;
      ro.mode = mode;
      ro.info = info;
      if (mode == hpke::mode::auth_psk) {
        so.psk = psk;
        so.psk_id = psk_id;
        so.sender_key = &ks->priv;
        ro.psk = psk;
        ro.psk_id = psk_id;
        ro.sender_key = &ks->pub;
      }
      auto snd = hpke::setup_sender(s, kr->pub, so);
      if (!snd) {
        fail("setup_sender");
        continue;
      }
      publish(snd->enc.bytes());  // enc goes on the wire
      o.add(bytes(snd->enc.bytes().begin(), snd->enc.bytes().end()));
      auto rcv = hpke::setup_recipient(s, snd->enc.bytes(), kr->priv, ro);
      if (!rcv) {
        fail("setup_recipient");
        continue;
      }
      bytes e1(48), e2(48);
      const bytes exporter_context = public_bytes(5, 28);
      expect(snd->context.export_secret(e1, exporter_context).has_value(), "export");
      expect(rcv->export_secret(e2, exporter_context).has_value(), "export");
      o.add(e1);
      o.add(e2);
      if (s.aead == hpke::aead_id::export_only) continue;
      const bytes pt = secret(100, 29);
      const bytes aad = public_bytes(7, 30);
      bytes ct(pt.size() + 16), back(pt.size());
      auto n = snd->context.seal(ct, pt, associated_data(aad));
      expect(n.has_value(), "hpke seal");
      publish(ct);
      o.add(ct);
      o.add_flag(rcv->open(back, ct, associated_data(aad)).has_value());
      o.add(back);
    }
  }
}

// ML-KEM-768 KeyGen from a marked seed, Encaps with a marked m, Decaps of the
// valid ciphertext and of a tampered one (the implicit-rejection path: the
// re-encryption comparison and the choice of J(z || c) must not branch).
// X-Wing KeyGen, Encaps and Decaps likewise.
void post_quantum_kems(outputs& o) {
  using kem = crypto::ml_kem_768;
  const bytes seed = secret(64, 40);
  const auto dk = kem::decapsulation_key::from_seed(seed).value();
  bytes ek(dk.public_key().bytes().begin(), dk.public_key().bytes().end());
  publish(ek);  // the encapsulation key is public
  o.add(ek);
  const auto pk = kem::encapsulation_key::from_bytes(ek).value();
  const bytes m = secret(32, 41);
  bytes c(kem::ciphertext_size), k(32);
  pk.encapsulate(std::span<std::uint8_t, kem::ciphertext_size>(c), std::span<std::uint8_t, 32>(k),
                 std::span<const std::uint8_t, 32>(m.data(), 32));
  publish(c);  // the ciphertext is public
  o.add(c);
  o.add(k);
  bytes ss(32);
  expect(dk.decapsulate(std::span<std::uint8_t, 32>(ss), c).has_value(), "ml-kem decapsulate");
  o.add(ss);
  bytes bad = c;
  bad[17] ^= 4;
  expect(dk.decapsulate(std::span<std::uint8_t, 32>(ss), bad).has_value(), "ml-kem decapsulate (rejection)");
  o.add(ss);

  const auto xdk = crypto::xwing::decapsulation_key::from_seed(secret(32, 42)).value();
  bytes xpk(xdk.encapsulation_key().begin(), xdk.encapsulation_key().end());
  publish(xpk);
  o.add(xpk);
  const bytes eseed = secret(64, 43);
  bytes xc(crypto::xwing::ciphertext_size), xk(32);
  expect(crypto::xwing::encapsulate(std::span<std::uint8_t, 1120>(xc), std::span<std::uint8_t, 32>(xk), xpk,
                                    std::span<const std::uint8_t, 64>(eseed.data(), 64))
             .has_value(),
         "xwing encapsulate");
  publish(xc);
  o.add(xc);
  o.add(xk);
  expect(xdk.decapsulate(std::span<std::uint8_t, 32>(ss), xc).has_value(), "xwing decapsulate");
  o.add(ss);
  xc[5] ^= 1;
  expect(xdk.decapsulate(std::span<std::uint8_t, 32>(ss), xc).has_value(), "xwing decapsulate (rejection)");
  o.add(ss);
}

// The single-block AES of header protection (docs/protocol.md 9.3): a
// secret key, a public sample.
void aes_block(outputs& o) {
  for (std::size_t n : {16u, 32u}) {
    const bytes key = secret(n, 33);
    const bytes in = public_bytes(16, 34);
    crypto::aes_block_cipher aes;
    expect(aes.init(key).has_value(), "aes init");
    std::array<std::uint8_t, 16> out{};
    aes.encrypt_block(out, std::span<const std::uint8_t, 16>(in.data(), 16));
    bytes b(out.begin(), out.end());
    publish(b);  // a header-protection mask goes on the wire (XORed)
    o.add(b);
  }
}

// The four-limb X25519 ladder (BMI2/ADX, fe25519_4x64.hpp), called by name:
// valgrind's CPU model hides ADX, so the level loop never selects it there,
// but valgrind runs mulx/adcx/adox all the same. Natively it runs only where
// the CPU has both; elsewhere the check records that it did not run.
#if defined(__x86_64__)
}  // namespace
namespace sealwire::crypto::detail {
void x25519_bmi2(std::uint8_t out[32], const std::uint8_t k[32], const std::uint8_t u[32]) noexcept;
void x25519_bmi2_base(std::uint8_t out[32], const std::uint8_t k[32]) noexcept;
}  // namespace sealwire::crypto::detail
namespace {

void x25519_four_limb(outputs& o) {
  const std::uint32_t need = crypto::cpu::bmi2 | crypto::cpu::adx;
  if (RUNNING_ON_VALGRIND == 0 && (crypto::cpu::detected() & need) != need) {
    o.add_flag(false);  // not runnable on this CPU
    return;
  }
  for (std::uint8_t seed : {40, 42}) {
    bytes k = secret(32, seed);
    k[0] &= 248;  // RFC 7748 5 decoding, as x25519.cpp does before the ladder
    k[31] = static_cast<std::uint8_t>((k[31] & 127) | 64);
    bytes pub(32), shared(32);
    crypto::detail::x25519_bmi2_base(pub.data(), k.data());
    publish(pub);
    // The peer's u: a public value with bit 255 set and one at or above p.
    for (bytes u : {public_bytes(32, 43), bytes(32, 0xff)}) {
      crypto::detail::x25519_bmi2(shared.data(), k.data(), u.data());
      o.add(shared);
    }
    o.add(pub);
  }
}

// The other BMI2/ADX kernels, called by name for the same reason: the
// scalar Poly1305 block function (poly1305_bmi2.cpp; the AVX2 and IFMA
// levels use it for short messages and tails) and Ed25519's base-point
// multiplication (ed25519_point_bmi2.cpp; key expansion and signing).
}  // namespace
namespace sealwire::crypto::detail {
void poly1305_blocks_bmi2(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                          std::uint64_t hibit) noexcept;
extern const ed25519_kernel ed25519_kernel_bmi2;
}  // namespace sealwire::crypto::detail
namespace {

void bmi2_adx_kernels(outputs& o) {
  const std::uint32_t need = crypto::cpu::bmi2 | crypto::cpu::adx;
  if (RUNNING_ON_VALGRIND == 0 && (crypto::cpu::detected() & need) != need) {
    o.add_flag(false);  // not runnable on this CPU
    return;
  }
  for (std::size_t blocks : {std::size_t{1}, std::size_t{3}, std::size_t{64}}) {
    const bytes key = secret(32, 46);
    const bytes msg = secret(16 * blocks, 47);
    crypto::detail::poly1305_state st{};
    std::uint64_t r0 = 0, r1 = 0;
    std::memcpy(&r0, key.data(), 8);
    std::memcpy(&r1, key.data() + 8, 8);
    st.r[0] = r0 & 0x0ffffffc0fffffffULL;  // RFC 8439 2.5.1 clamping
    st.r[1] = r1 & 0x0ffffffc0ffffffcULL;
    crypto::detail::poly1305_blocks_bmi2(st, msg.data(), blocks, 1);
    bytes h(sizeof st.h);
    std::memcpy(h.data(), st.h, h.size());
    o.add(h);
  }
  for (std::uint8_t seed : {48, 49}) {
    bytes scalar = secret(32, seed);
    scalar[31] &= 127;  // below 2^255, as the kernel requires
    bytes point(32);
    crypto::detail::ed25519_kernel_bmi2.base_mul(point.data(), scalar.data());
    o.add(point);
  }
}
#endif

// The P-256 kernel on the four-limb mulx field (nist_p256_bmi2.cpp), called
// by name for the same reason: key generation (base), ECDH (shared) and
// ECDSA's nonce point (base_x). The public parts (ECDSA verification) are
// variable time by design and stay out.
#if defined(__x86_64__)
}  // namespace
namespace sealwire::crypto::detail {
extern const nist_kernel p256_kernel_bmi2;
}  // namespace sealwire::crypto::detail
namespace {

void p256_four_limb(outputs& o) {
  const std::uint32_t need = crypto::cpu::avx2 | crypto::cpu::bmi2 | crypto::cpu::adx;
  if (RUNNING_ON_VALGRIND == 0 && (crypto::cpu::detected() & need) != need) {
    o.add_flag(false);  // not runnable on this CPU
    return;
  }
  const auto& kernel = crypto::detail::p256_kernel_bmi2;
  // The peer: the public key of a public scalar, from the library.
  const bytes peer_scalar = public_bytes(32, 47);
  bytes peer(65);
  expect(crypto::p256::public_key(std::span<std::uint8_t, 65>(peer), crypto::p256::scalar_span(peer_scalar)).has_value(),
         "p256 peer");
  for (std::uint8_t seed : {48, 50}) {
    const bytes k = secret_scalar(32, seed);
    bytes pub(64), x(32), shared(32);
    kernel.base(pub.data(), k.data());
    publish(pub);
    o.add(pub);
    kernel.base_x(x.data(), k.data());
    publish(x);
    o.add(x);
    const bool ok = kernel.shared(shared.data(), k.data(), peer.data() + 1);
    o.add_flag(ok);
    o.add(shared);
  }
}
#endif

struct named_check {
  std::string_view name;
  void (*run)(outputs&);
};

constexpr named_check checks[] = {
    {"stream ciphers (ChaCha, XChaCha, Salsa20, XSalsa20; 8/12/20 rounds)", stream_ciphers},
    {"Poly1305 (mac, verify)", poly1305},
    {"AEADs incl. AES-GCM (seal, open, forged tag, incremental trailing-tag open)", aeads},
    {"HMAC, HKDF, SHA-512", macs_and_kdfs},
    {"BLAKE3 keyed and derive_key, BLAKE2b keyed", hashes_keyed},
    {"X25519, X448", key_agreement},
    {"P-256, P-384, P-521", nist_curves},
    {"ECDSA signing (P-256, P-384, P-521)", signatures},
    {"SHA-3, SHAKE", sha3},
    {"Ed448 key expansion and signing", ed448},
    {"Ed25519 (key expansion, sign)", ed25519_signing},
    {"HPKE key schedule, seal, open, export", hpke_key_schedule},
    {"ML-KEM-768 (keygen, encaps, decaps incl. implicit rejection), X-Wing", post_quantum_kems},
    {"AES single block (header protection)", aes_block},
#if defined(__x86_64__)
    {"X25519 four-limb ladder (BMI2/ADX), called directly", x25519_four_limb},
    {"Poly1305 blocks and Ed25519 base multiplication (BMI2/ADX), called directly", bmi2_adx_kernels},
    {"P-256 four-limb kernel (BMI2/ADX), called directly", p256_four_limb},
#endif
};

// ---- the deliberately leaky function ------------------------------------------

// leaky_equal returns at the first differing byte: its running time, and the
// branch taken, depend on the secret. memcheck must report it.
__attribute__((noinline)) bool leaky_equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

int run_leaky() {
  g_mark = true;
  const bytes key = secret(16, 31);
  const bytes guess = public_bytes(16, 32);
  const bool same = leaky_equal(key.data(), guess.data(), key.size());
  std::printf("leaky_equal ran (%d); memcheck should have reported a conditional jump on a secret\n",
              same ? 1 : 0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "leaky") return run_leaky();
  if (argc > 1) {
    std::fprintf(stderr, "usage: %s [leaky]\n", argv[0]);
    return 2;
  }
  const bool under_valgrind = RUNNING_ON_VALGRIND != 0;
  std::printf("running %s valgrind; CPU levels:", under_valgrind ? "under" : "without");
  for (auto l : crypto::cpu::available_levels()) std::printf(" %s", std::string(crypto::cpu::name(l)).c_str());
  std::printf("\n");
  for (auto level : crypto::cpu::available_levels()) {
    crypto::cpu::set_max_level(level);
    for (const auto& c : checks) {
      outputs reference, marked;
      g_mark = false;
      c.run(reference);
      g_mark = true;
      c.run(marked);
      g_mark = false;
      ++g_checks;
      const std::string where = std::string(c.name) + " at " + std::string(crypto::cpu::name(level));
      expect(!reference.values.empty(), where + ": produced nothing");
      expect(reference.values == marked.values, where + ": the marked run's outputs differ");
      std::printf("  %-8s %s: %zu outputs\n", std::string(crypto::cpu::name(level)).c_str(),
                  std::string(c.name).c_str(), reference.values.size());
    }
  }
  std::printf("%d checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
