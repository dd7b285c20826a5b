// SPDX-License-Identifier: Apache-2.0
// Stream cipher and Poly1305 benchmarks beside OpenSSL and libsodium.
#include "common.hpp"

#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/poly1305.hpp>
#include <sealwire/crypto/salsa20.hpp>

#include <openssl/evp.h>
#include <sodium.h>

namespace sealwire::bench {
namespace {

const bytes key = pattern(32, 7);
const bytes nonce8 = pattern(8, 8);
const bytes nonce12 = pattern(12, 9);
const bytes nonce24 = pattern(24, 10);

template <class Cipher>
void ours(benchmark::State& st, std::size_t n, const bytes& nonce, unsigned rounds) {
  const bytes in = pattern(n);
  bytes out(n);
  Cipher c;
  measure(st, n, [&] {
    (void)c.init(key, nonce, rounds);
    (void)c.apply(out, in);
    benchmark::DoNotOptimize(out.data());
  });
}

void register_all() {
  constexpr std::size_t n = 16384;
  add("chacha20.xor", n, "sealwire", [](benchmark::State& st) { ours<crypto::chacha>(st, n, nonce12, 20); },
      std::string(crypto::chacha().provider()));
  add("chacha20.xor", n, "openssl", [](benchmark::State& st) {
    const bytes in = pattern(n);
    bytes out(n), iv(16, 0);
    std::copy(nonce12.begin(), nonce12.end(), iv.begin() + 4);
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    int len = 0;
    measure(st, n, [&] {
      EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key.data(), iv.data());
      EVP_EncryptUpdate(ctx, out.data(), &len, in.data(), static_cast<int>(n));
    });
    EVP_CIPHER_CTX_free(ctx);
  });
  add("chacha20.xor", n, "libsodium", [](benchmark::State& st) {
    const bytes in = pattern(n);
    bytes out(n);
    measure(st, n, [&] { crypto_stream_chacha20_ietf_xor(out.data(), in.data(), n, nonce12.data(), key.data()); });
  });
  add("chacha12.xor", n, "sealwire", [](benchmark::State& st) { ours<crypto::chacha>(st, n, nonce8, 12); },
      std::string(crypto::chacha().provider()));
  add("chacha8.xor", n, "sealwire", [](benchmark::State& st) { ours<crypto::chacha>(st, n, nonce8, 8); },
      std::string(crypto::chacha().provider()));

  for (unsigned rounds : {20u, 12u, 8u}) {
    const std::string op = "salsa20_" + std::to_string(rounds) + ".xor";
    add(op, n, "sealwire", [rounds](benchmark::State& st) { ours<crypto::salsa20>(st, n, nonce8, rounds); },
        std::string(crypto::salsa20().provider()));
    add(op, n, "libsodium", [rounds](benchmark::State& st) {
      const bytes in = pattern(n);
      bytes out(n);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
      auto fn = rounds == 20 ? &crypto_stream_salsa20_xor : rounds == 12 ? &crypto_stream_salsa2012_xor : &crypto_stream_salsa208_xor;
#pragma GCC diagnostic pop
      measure(st, n, [&] { fn(out.data(), in.data(), n, nonce8.data(), key.data()); });
    });
  }
  add("xsalsa20.xor", n, "sealwire", [](benchmark::State& st) { ours<crypto::salsa20>(st, n, nonce24, 20); },
      std::string(crypto::salsa20().provider()));
  add("xsalsa20.xor", n, "libsodium", [](benchmark::State& st) {
    const bytes in = pattern(n);
    bytes out(n);
    measure(st, n, [&] { crypto_stream_xsalsa20_xor(out.data(), in.data(), n, nonce24.data(), key.data()); });
  });

  for (std::size_t len : {64u, 1024u, 16384u}) {
    add("poly1305.mac", len, "sealwire", [len](benchmark::State& st) {
      const bytes msg = pattern(len);
      std::uint8_t tag[16];
      measure(st, len, [&] {
        crypto::poly1305::mac(tag, msg, std::span<const std::uint8_t, 32>(key.data(), 32));
        benchmark::DoNotOptimize(tag);
      });
    }, std::string(crypto::poly1305::provider()));
    add("poly1305.mac", len, "openssl", [len](benchmark::State& st) {
      const bytes msg = pattern(len);
      EVP_MAC* mac = EVP_MAC_fetch(nullptr, "POLY1305", nullptr);
      EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
      std::uint8_t tag[16];
      std::size_t out_len = 0;
      measure(st, len, [&] {
        EVP_MAC_init(ctx, key.data(), 32, nullptr);
        EVP_MAC_update(ctx, msg.data(), len);
        EVP_MAC_final(ctx, tag, &out_len, sizeof tag);
      });
      EVP_MAC_CTX_free(ctx);
      EVP_MAC_free(mac);
    });
    add("poly1305.mac", len, "libsodium", [len](benchmark::State& st) {
      const bytes msg = pattern(len);
      std::uint8_t tag[16];
      measure(st, len, [&] { crypto_onetimeauth(tag, msg.data(), len, key.data()); });
    });
  }
}

const registrar reg(&register_all);

}  // namespace
}  // namespace sealwire::bench
