// SPDX-License-Identifier: Apache-2.0
// Ed25519 (RFC 8032) sign and verify beside libsodium's detached API and
// OpenSSL's EVP_DigestSign/Verify with a reused key, and our batch
// verification of 64 signatures (reported per signature).
#include <sealwire/crypto/ed25519.hpp>

#include "common.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <array>

namespace sealwire::bench {
namespace {

constexpr std::size_t message_size = 64;
constexpr std::size_t batch_size = 64;

struct sig_case {
  bytes seed = pattern(32, 7), msg = pattern(message_size, 9);
  crypto::ed25519::signing_key key = crypto::ed25519::signing_key::from_seed(seed).value();
  std::array<std::uint8_t, 64> sig{};
  sig_case() { key.sign(sig, msg); }
};

void register_ed25519() {
  const std::string provider(crypto::ed25519::provider());
  add("ed25519.sign", message_size, "sealwire", [](benchmark::State& st) {
    sig_case c;
    measure(st, 0, [&] {
      c.key.sign(c.sig, c.msg);
      benchmark::DoNotOptimize(c.sig);
    });
  }, provider);
  add("ed25519.sign", message_size, "libsodium", [](benchmark::State& st) {
    sig_case c;
    std::uint8_t pk[32], sk[64];
    crypto_sign_seed_keypair(pk, sk, c.seed.data());
    measure(st, 0, [&] { benchmark::DoNotOptimize(crypto_sign_detached(c.sig.data(), nullptr, c.msg.data(), c.msg.size(), sk)); });
  });
  add("ed25519.sign", message_size, "openssl", [](benchmark::State& st) {
    sig_case c;
    EVP_PKEY* key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, c.seed.data(), 32);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    measure(st, 0, [&] {
      std::size_t len = c.sig.size();
      EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, key);
      benchmark::DoNotOptimize(EVP_DigestSign(ctx, c.sig.data(), &len, c.msg.data(), c.msg.size()));
    });
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
  });

  add("ed25519.verify", message_size, "sealwire", [](benchmark::State& st) {
    sig_case c;
    measure(st, 0, [&] { benchmark::DoNotOptimize(crypto::ed25519::verify(c.key.public_key(), c.msg, c.sig).has_value()); });
  }, provider);
  add("ed25519.verify", message_size, "libsodium", [](benchmark::State& st) {
    sig_case c;
    measure(st, 0, [&] {
      benchmark::DoNotOptimize(crypto_sign_verify_detached(c.sig.data(), c.msg.data(), c.msg.size(), c.key.public_key().data()));
    });
  });
  add("ed25519.verify", message_size, "openssl", [](benchmark::State& st) {
    sig_case c;
    EVP_PKEY* key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, c.key.public_key().data(), 32);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    measure(st, 0, [&] {
      EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key);
      benchmark::DoNotOptimize(EVP_DigestVerify(ctx, c.sig.data(), c.sig.size(), c.msg.data(), c.msg.size()));
    });
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
  });

  // Batch of 64 distinct keys and messages; cycles_per_op is per signature.
  add("ed25519.verify_batch64", message_size, "sealwire", [](benchmark::State& st) {
    std::vector<crypto::ed25519::signing_key> keys;
    std::vector<bytes> msgs, sigs;
    std::vector<crypto::ed25519::batch_item> items;
    for (std::size_t i = 0; i < batch_size; ++i) {
      keys.push_back(crypto::ed25519::signing_key::from_seed(pattern(32, static_cast<std::uint8_t>(i))).value());
      msgs.push_back(pattern(message_size, static_cast<std::uint8_t>(i + 100)));
      sigs.emplace_back(64);
      keys.back().sign(std::span<std::uint8_t, 64>(sigs.back().data(), 64), msgs.back());
    }
    for (std::size_t i = 0; i < batch_size; ++i) items.push_back({keys[i].public_key(), msgs[i], sigs[i]});
    bool valid[batch_size];
    measure(st, 0, [&] { benchmark::DoNotOptimize(crypto::ed25519::verify_batch(items, valid).has_value()); });
    st.counters["cycles_per_op"] = st.counters["cycles_per_op"] / static_cast<double>(batch_size);
    st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * batch_size));
  }, provider);
}

const registrar reg(&register_ed25519);

}  // namespace
}  // namespace sealwire::bench
