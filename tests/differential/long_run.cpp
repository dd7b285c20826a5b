// SPDX-License-Identifier: Apache-2.0
// The long differential run (scripts/differential MINUTES): random inputs for
// every primitive sealwire shares with OpenSSL or libsodium, at a random CPU
// level each time, compared until the time is up. Prints the operations run
// and the mismatches per family; any mismatch fails (with the seed and case
// to reproduce it).
//
// Environment: SEALWIRE_DIFFERENTIAL_SECONDS (total run time, default 20),
// SEALWIRE_DIFFERENTIAL_SEED (default: from the clock; printed).
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/blake2b.hpp>
#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ecdh_nist.hpp>
#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/poly1305.hpp>
#include <sealwire/crypto/salsa20.hpp>
#include <sealwire/crypto/sha2.hpp>
#include <sealwire/crypto/x25519.hpp>
#include <sealwire/crypto/x448.hpp>

#include "aead_helpers.hpp"
#include "oracles.hpp"
#include "stream_helpers.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>

using namespace sealwire;
using test::bytes;

namespace {

using clock_type = std::chrono::steady_clock;

double total_seconds() {
  if (const char* env = std::getenv("SEALWIRE_DIFFERENTIAL_SECONDS")) return std::atof(env);
  return 20.0;
}

std::uint64_t run_seed() {
  static const std::uint64_t seed = [] {
    if (const char* env = std::getenv("SEALWIRE_DIFFERENTIAL_SEED"))
      return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 0));
    return static_cast<std::uint64_t>(clock_type::now().time_since_epoch().count());
  }();
  return seed;
}

struct tally {
  std::uint64_t operations = 0;
  std::uint64_t mismatches = 0;
};
std::map<std::string, tally>& tallies() {
  static std::map<std::string, tally> t;
  return t;
}

// A family's loop: one case per iteration, at a random CPU level, until its
// share of the time is used.
class LongDifferential : public ::testing::Test {
 protected:
  static constexpr int families = 6;

  void run(const std::string& family, const std::function<void(test::seeded_random&, std::uint64_t)>& one_case) {
    const auto deadline = clock_type::now() + std::chrono::duration<double>(total_seconds() / families);
    test::seeded_random rng(run_seed() ^ std::hash<std::string>{}(family));
    const auto levels = test::cpu_levels();
    const auto previous = crypto::cpu::set_max_level(crypto::cpu::detected_level());
    std::uint64_t i = 0;
    do {
      crypto::cpu::set_max_level(levels[rng.uniform(levels.size())]);
      family_ = family;
      case_ = i;
      one_case(rng, i);
      ++i;
    } while (clock_type::now() < deadline && !HasFatalFailure());
    crypto::cpu::set_max_level(previous);
  }

  // same counts one comparison and reports a mismatch with how to reproduce it.
  void same(const std::string& what, bool equal) {
    auto& t = tallies()[family_];
    ++t.operations;
    if (equal) return;
    ++t.mismatches;
    ADD_FAILURE() << family_ << ": " << what << " differs at case " << case_ << " (level "
                  << crypto::cpu::name(crypto::cpu::active_level()) << "); reproduce with SEALWIRE_DIFFERENTIAL_SEED="
                  << run_seed();
  }

  std::string family_;
  std::uint64_t case_ = 0;
};

std::size_t random_length(test::seeded_random& rng, std::size_t small, std::size_t large) {
  return rng.uniform(3) == 0 ? rng.uniform(small + 1) : rng.uniform(large + 1);
}

// in_pieces calls fn(offset, size) over [0, n) in random pieces, some empty.
void in_pieces(test::seeded_random& rng, std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn) {
  std::size_t at = 0;
  while (at < n) {
    const std::size_t piece = std::min<std::size_t>(rng.uniform(2) ? rng.uniform(70) : rng.uniform(3000), n - at);
    fn(at, piece);
    at += piece;
  }
}

// ---- reference AEADs -------------------------------------------------------

// sodium_seal: libsodium's version of an AEAD, detached (ct, tag).
bool sodium_seal(crypto::aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad, const bytes& pt,
                 bytes& ct, bytes& tag) {
  ct.resize(pt.size());
  tag.resize(16);
  unsigned long long tl = 0;
  switch (alg) {
    case crypto::aead_algorithm::chacha20_poly1305:
      return crypto_aead_chacha20poly1305_ietf_encrypt_detached(ct.data(), tag.data(), &tl, pt.data(), pt.size(),
                                                                aad.data(), aad.size(), nullptr, nonce.data(),
                                                                key.data()) == 0;
    case crypto::aead_algorithm::xchacha20_poly1305:
      return crypto_aead_xchacha20poly1305_ietf_encrypt_detached(ct.data(), tag.data(), &tl, pt.data(), pt.size(),
                                                                 aad.data(), aad.size(), nullptr, nonce.data(),
                                                                 key.data()) == 0;
    case crypto::aead_algorithm::chacha20_poly1305_original:
      return crypto_aead_chacha20poly1305_encrypt_detached(ct.data(), tag.data(), &tl, pt.data(), pt.size(),
                                                           aad.data(), aad.size(), nullptr, nonce.data(),
                                                           key.data()) == 0;
    case crypto::aead_algorithm::xsalsa20_poly1305:
      return crypto_secretbox_detached(ct.data(), tag.data(), pt.data(), pt.size(), nonce.data(), key.data()) == 0;
    default:
      return false;
  }
}

const EVP_CIPHER* evp_cipher_of(crypto::aead_algorithm alg) {
  switch (alg) {
    case crypto::aead_algorithm::chacha20_poly1305: return EVP_chacha20_poly1305();
    case crypto::aead_algorithm::aes128_gcm: return EVP_aes_128_gcm();
    case crypto::aead_algorithm::aes256_gcm: return EVP_aes_256_gcm();
    default: return nullptr;
  }
}

}  // namespace

TEST_F(LongDifferential, Aeads) {
  const crypto::aead_algorithm algs[] = {
      crypto::aead_algorithm::chacha20_poly1305,          crypto::aead_algorithm::xchacha20_poly1305,
      crypto::aead_algorithm::chacha20_poly1305_original, crypto::aead_algorithm::xsalsa20_poly1305,
      crypto::aead_algorithm::aes128_gcm,                 crypto::aead_algorithm::aes256_gcm};
  run("aead", [&](test::seeded_random& rng, std::uint64_t) {
    const auto alg = algs[rng.uniform(std::size(algs))];
    const auto& props = crypto::properties(alg);
    const bytes key = rng.fill(props.key_size), nonce = rng.fill(props.nonce_size);
    const bytes aad = props.supports_aad ? rng.fill(random_length(rng, 40, 300)) : bytes{};
    const bytes pt = rng.fill(random_length(rng, 100, 9000));
    // Ours, sealed in pieces.
    bytes our_tag;
    const bytes our_ct = test::seal_in_pieces(alg, key, nonce, aad, pt, our_tag, rng);
    // Theirs: OpenSSL where it has the AEAD, else libsodium; both for ChaCha20-Poly1305.
    std::vector<std::pair<bytes, bytes>> refs;
    if (const EVP_CIPHER* c = evp_cipher_of(alg)) {
      bytes tag(16);
      bool ok = false;
      bytes ct = test::evp_aead(c, true, key, nonce, aad, pt, tag, rng, &ok);
      refs.emplace_back(std::move(ct), std::move(tag));
    }
    bytes sct, stag;
    if (sodium_seal(alg, key, nonce, aad, pt, sct, stag)) refs.emplace_back(std::move(sct), std::move(stag));
    same(std::string(props.name) + " has a reference", !refs.empty());
    for (const auto& [ct, tag] : refs) {
      same(std::string(props.name) + " seal", ct == our_ct && tag == our_tag);
      // Open theirs with ours in pieces (trailing tag), then a tampered copy.
      bytes stream = ct;
      stream.insert(stream.end(), tag.begin(), tag.end());
      bytes back;
      const bool ok = test::open_trailing_in_pieces(alg, key, nonce, aad, stream, back, rng);
      same(std::string(props.name) + " open", ok && back == pt);
      stream[rng.uniform(stream.size())] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
      same(std::string(props.name) + " rejects a flipped bit",
           !test::open_trailing_in_pieces(alg, key, nonce, aad, stream, back, rng));
    }
  });
}

TEST_F(LongDifferential, StreamCiphers) {
  run("stream", [&](test::seeded_random& rng, std::uint64_t) {
    const bytes key = rng.fill(32), pt = rng.fill(random_length(rng, 130, 9000));
    const auto counter = static_cast<std::uint32_t>(rng.uniform(1000));
    bytes ref(pt.size());
    switch (rng.uniform(5)) {
      case 0: {  // IETF ChaCha20 (OpenSSL)
        const bytes nonce = rng.fill(12);
        const auto r = test::oracle::evp_chacha20(key, nonce, counter, pt);
        const auto ours = test::run_stream<crypto::chacha>(key, nonce, 20, std::uint64_t{counter} * 64, pt);
        same("chacha20 (ietf)", r && ours && *r == *ours);
        break;
      }
      case 1: {  // original ChaCha20 (libsodium), in pieces
        const bytes nonce = rng.fill(8);
        crypto_stream_chacha20_xor_ic(ref.data(), pt.data(), pt.size(), nonce.data(), counter, key.data());
        crypto::chacha c;
        const bool ok = c.init(key, nonce, 20) && c.seek(counter);
        same("chacha20 (original)", ok && test::apply_in_pieces(c, pt, rng) == ref);
        break;
      }
      case 2: {  // XChaCha20 (libsodium)
        const bytes nonce = rng.fill(24);
        crypto_stream_xchacha20_xor_ic(ref.data(), pt.data(), pt.size(), nonce.data(), counter, key.data());
        const auto ours = test::run_stream<crypto::chacha>(key, nonce, 20, std::uint64_t{counter} * 64, pt);
        same("xchacha20", ours && *ours == ref);
        break;
      }
      case 3: {  // Salsa20 (libsodium), in pieces
        const bytes nonce = rng.fill(8);
        crypto_stream_salsa20_xor_ic(ref.data(), pt.data(), pt.size(), nonce.data(), counter, key.data());
        crypto::salsa20 c;
        const bool ok = c.init(key, nonce, 20) && c.seek(counter);
        same("salsa20", ok && test::apply_in_pieces(c, pt, rng) == ref);
        break;
      }
      default: {  // XSalsa20 (libsodium)
        const bytes nonce = rng.fill(24);
        crypto_stream_xsalsa20_xor_ic(ref.data(), pt.data(), pt.size(), nonce.data(), counter, key.data());
        const auto ours = test::run_stream<crypto::salsa20>(key, nonce, 20, std::uint64_t{counter} * 64, pt);
        same("xsalsa20", ours && *ours == ref);
        break;
      }
    }
    // The HChaCha20 / HSalsa20 cores.
    const bytes in16 = rng.fill(16);
    std::uint8_t ours[32], theirs[32];
    crypto::hchacha20(ours, std::span<const std::uint8_t, 32>(key.data(), 32),
                      std::span<const std::uint8_t, 16>(in16.data(), 16));
    crypto_core_hchacha20(theirs, in16.data(), key.data(), nullptr);
    same("hchacha20", std::equal(ours, ours + 32, theirs));
    crypto::hsalsa20(ours, std::span<const std::uint8_t, 32>(key.data(), 32),
                     std::span<const std::uint8_t, 16>(in16.data(), 16));
    crypto_core_hsalsa20(theirs, in16.data(), key.data(), nullptr);
    same("hsalsa20", std::equal(ours, ours + 32, theirs));
  });
}

TEST_F(LongDifferential, Macs) {
  run("mac", [&](test::seeded_random& rng, std::uint64_t) {
    const bytes msg = rng.fill(random_length(rng, 100, 5000));
    {  // Poly1305 (libsodium)
      const bytes key = rng.fill(32);
      crypto::poly1305 p;
      p.init(std::span<const std::uint8_t, 32>(key.data(), 32));
      in_pieces(rng, msg.size(), [&](std::size_t at, std::size_t n) { p.update(std::span(msg).subspan(at, n)); });
      std::uint8_t ours[16], theirs[16];
      p.finish(ours);
      crypto_onetimeauth(theirs, msg.data(), msg.size(), key.data());
      same("poly1305", std::equal(ours, ours + 16, theirs));
    }
    const bytes key = rng.fill(random_length(rng, 70, 300));
    auto hmac_case = [&]<class Hash>(const char* digest) {
      crypto::hmac<Hash> h(key);
      in_pieces(rng, msg.size(), [&](std::size_t at, std::size_t n) { h.update(std::span(msg).subspan(at, n)); });
      bytes ours(Hash::digest_size);
      h.finish(std::span<std::uint8_t, Hash::digest_size>(ours.data(), Hash::digest_size));
      const auto theirs = test::oracle::evp_hmac(digest, key, msg);
      same(std::string("hmac-") + digest, theirs && *theirs == ours);
    };
    hmac_case.operator()<crypto::sha256>("SHA256");
    hmac_case.operator()<crypto::sha384>("SHA384");
    hmac_case.operator()<crypto::sha512>("SHA512");
  });
}

TEST_F(LongDifferential, Hashes) {
  run("hash", [&](test::seeded_random& rng, std::uint64_t) {
    const bytes msg = rng.fill(random_length(rng, 300, 20000));
    auto sha_case = [&]<class Hash>(const char* digest) {
      Hash h;
      in_pieces(rng, msg.size(), [&](std::size_t at, std::size_t n) { h.update(std::span(msg).subspan(at, n)); });
      bytes ours(Hash::digest_size);
      h.finish(std::span<std::uint8_t, Hash::digest_size>(ours.data(), Hash::digest_size));
      const auto theirs = test::oracle::evp_digest(digest, msg);
      same(digest, theirs && *theirs == ours);
    };
    sha_case.operator()<crypto::sha256>("SHA256");
    sha_case.operator()<crypto::sha384>("SHA384");
    sha_case.operator()<crypto::sha512>("SHA512");
    // BLAKE2b, keyed or not, any output length (libsodium's generichash).
    const bytes key = rng.uniform(2) ? rng.fill(1 + rng.uniform(64)) : bytes{};
    const std::size_t out_len = 1 + rng.uniform(64);
    crypto::blake2b b;
    bytes ours(out_len), theirs(out_len);
    const bool ok = b.init(out_len, key).has_value();
    in_pieces(rng, msg.size(), [&](std::size_t at, std::size_t n) { b.update(std::span(msg).subspan(at, n)); });
    b.finish(ours);
    crypto_generichash(theirs.data(), out_len, msg.data(), msg.size(), key.empty() ? nullptr : key.data(), key.size());
    same("blake2b", ok && ours == theirs);
  });
}

TEST_F(LongDifferential, Hkdf) {
  run("hkdf", [&](test::seeded_random& rng, std::uint64_t) {
    const bytes ikm = rng.fill(random_length(rng, 40, 200)), salt = rng.fill(random_length(rng, 10, 150));
    const bytes info = rng.fill(random_length(rng, 10, 150));
    auto hkdf_case = [&]<class Hash>(const char* digest) {
      const std::size_t size = 1 + rng.uniform(crypto::hkdf<Hash>::max_output);
      bytes prk(Hash::digest_size), ours(size);
      crypto::hkdf<Hash>::extract(std::span<std::uint8_t, Hash::digest_size>(prk.data(), Hash::digest_size), salt, ikm);
      const bool ok = crypto::hkdf<Hash>::expand(ours, prk, info).has_value();
      const auto theirs = test::oracle::evp_hkdf(digest, ikm, salt, info, size);
      same(std::string("hkdf-") + digest, ok && theirs && *theirs == ours);
    };
    hkdf_case.operator()<crypto::sha256>("SHA256");
    hkdf_case.operator()<crypto::sha384>("SHA384");
    hkdf_case.operator()<crypto::sha512>("SHA512");
  });
}

namespace {

// nist_case: a peer key pair B whose scalar comes from the run's seeded
// generator and whose public point OpenSSL computes; ours computes B's public
// key from the scalar and both shared secrets with a key pair of ours (drawn
// from the same generator), checked against OpenSSL's derive in both
// directions. Everything comes from the seed, so SEALWIRE_DIFFERENTIAL_SEED
// replays a mismatch; its message names both scalars as well.
template <class Curve>
void nist_case(const char* group, test::seeded_random& rng, const std::function<void(const std::string&, bool)>& same) {
  constexpr std::size_t n = Curve::scalar_size, pn = Curve::point_size;
  bytes b, b_pub;
  if (!test::oracle::evp_ec_key_pair(group, rng, n, pn, b, b_pub)) return same(std::string(group) + " openssl key", false);
  bytes ours_pub(pn);
  const bool pub_ok =
      Curve::public_key(std::span<std::uint8_t, pn>(ours_pub.data(), pn), std::span<const std::uint8_t, n>(b.data(), n))
          .has_value();
  const bool pub_same = pub_ok && ours_pub == b_pub;
  same(std::string(group) + " public key" + (pub_same ? "" : " of b = " + test::to_hex(b)), pub_same);
  bytes a(n), a_pub(pn);
  auto* previous = crypto::set_random_source(&rng);
  const bool gen_ok =
      Curve::generate(std::span<std::uint8_t, n>(a.data(), n), std::span<std::uint8_t, pn>(a_pub.data(), pn)).has_value();
  crypto::set_random_source(previous);
  bytes ab(n), ba(n);
  const bool ok = gen_ok &&
                  Curve::shared_secret(std::span<std::uint8_t, n>(ab.data(), n), std::span<const std::uint8_t, n>(a.data(), n), b_pub)
                      .has_value() &&
                  Curve::shared_secret(std::span<std::uint8_t, n>(ba.data(), n), std::span<const std::uint8_t, n>(b.data(), n), a_pub)
                      .has_value();
  const auto ka = test::oracle::evp_ec_key(group, a_pub, &a), kb = test::oracle::evp_ec_key(group, b_pub, &b);
  const auto theirs = ka.k && kb.k ? test::oracle::evp_derive(ka.k, kb.k, n) : std::nullopt;
  const bool secret_same = ok && theirs && *theirs == ab && ab == ba;
  same(std::string(group) + " shared secret" +
           (secret_same ? "" : " of a = " + test::to_hex(a) + " and b = " + test::to_hex(b)),
       secret_same);
}

}  // namespace

TEST_F(LongDifferential, KeyAgreement) {
  run("kex", [&](test::seeded_random& rng, std::uint64_t i) {
    {  // X25519 against libsodium: random scalars, random u-coordinates (any 32 bytes).
      const bytes a = rng.fill(32), u = rng.fill(32);
      std::uint8_t ours[32], theirs[32];
      crypto::x25519::public_key(ours, std::span<const std::uint8_t, 32>(a.data(), 32));
      crypto_scalarmult_base(theirs, a.data());
      same("x25519 public key", std::equal(ours, ours + 32, theirs));
      const bool ok = crypto::x25519::shared_secret(ours, std::span<const std::uint8_t, 32>(a.data(), 32), u).has_value();
      const bool their_ok = crypto_scalarmult(theirs, a.data(), u.data()) == 0;
      same("x25519 shared secret", ok == their_ok && (!ok || std::equal(ours, ours + 32, theirs)));
    }
    if (i % 4 == 0) {  // X448 against OpenSSL (slower)
      const bytes a = rng.fill(56), u = rng.fill(56);
      bytes ours(56);
      crypto::x448::public_key(std::span<std::uint8_t, 56>(ours.data(), 56), std::span<const std::uint8_t, 56>(a.data(), 56));
      const auto pub = test::oracle::evp_raw_public(EVP_PKEY_X448, a);
      same("x448 public key", pub && *pub == ours);
      const bool ok = crypto::x448::shared_secret(std::span<std::uint8_t, 56>(ours.data(), 56),
                                                  std::span<const std::uint8_t, 56>(a.data(), 56), u)
                          .has_value();
      const auto theirs = test::oracle::evp_raw_derive(EVP_PKEY_X448, a, u);
      same("x448 shared secret", ok == theirs.has_value() && (!ok || *theirs == ours));
    }
    const auto report = [this](const std::string& what, bool equal) { same(what, equal); };
    switch (i % 8) {  // the NIST curves, P-384 and P-521 less often (slower)
      case 0: case 2: case 4: case 6: nist_case<crypto::p256>("P-256", rng, report); break;
      case 1: case 5: nist_case<crypto::p384>("P-384", rng, report); break;
      case 3: nist_case<crypto::p521>("P-521", rng, report); break;
      default: break;
    }
  });
}

TEST_F(LongDifferential, Summary) {
  // Runs last (declaration order): prints the table the script reports.
  std::uint64_t ops = 0, bad = 0;
  std::printf("differential run, seed %llu, %.0f s\n", static_cast<unsigned long long>(run_seed()), total_seconds());
  for (const auto& [family, t] : tallies()) {
    std::printf("  %-8s %12llu operations, %llu mismatches\n", family.c_str(),
                static_cast<unsigned long long>(t.operations), static_cast<unsigned long long>(t.mismatches));
    ops += t.operations;
    bad += t.mismatches;
  }
  std::printf("DIFFERENTIAL TOTAL: %llu operations, %llu mismatches\n", static_cast<unsigned long long>(ops),
              static_cast<unsigned long long>(bad));
  EXPECT_GT(ops, 0u);
  EXPECT_EQ(bad, 0u);
}
