// SPDX-License-Identifier: Apache-2.0
// AEAD benchmarks: ChaCha20-Poly1305 and AES-128/256-GCM seal/open at several
// sizes and open in pieces (both tag positions), XChaCha20-Poly1305 and
// XSalsa20-Poly1305 — beside OpenSSL's EVP (fed the same pieces) and
// libsodium (one-shot).
#include "common.hpp"

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/aes_gcm.hpp>
#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/poly1305.hpp>
#include <sealwire/crypto/salsa20.hpp>

#include <openssl/evp.h>
#include <sodium.h>

#include <string>

namespace sealwire::bench {
namespace {

using crypto::aead_algorithm;

const bytes key = pattern(32, 3);
const bytes nonce12 = pattern(12, 4);
const bytes nonce24 = pattern(24, 5);
const bytes aad = pattern(13, 6);  // a record-header-sized AAD

std::string our_kernel() {
  return std::string(crypto::chacha().provider()) + "+" + std::string(crypto::poly1305::provider());
}

// EVP ChaCha20-Poly1305 (or another EVP AEAD) with one context reused,
// re-keyed per message as a record layer would; `piece` splits the text into
// update calls.
struct evp {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  const bytes& k;
  explicit evp(const EVP_CIPHER* cipher = EVP_chacha20_poly1305(), const bytes& key_bytes = key) : k(key_bytes) {
    EVP_CipherInit_ex(ctx, cipher, nullptr, nullptr, nullptr, 1);
    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, nullptr);
  }
  ~evp() { EVP_CIPHER_CTX_free(ctx); }
  bool run(bool enc, std::uint8_t* out, const std::uint8_t* in, std::size_t n, std::uint8_t* tag, std::size_t piece) {
    int len = 0;
    EVP_CipherInit_ex(ctx, nullptr, nullptr, k.data(), nonce12.data(), enc ? 1 : 0);
    EVP_CipherUpdate(ctx, nullptr, &len, aad.data(), static_cast<int>(aad.size()));
    for (std::size_t at = 0; at < n; at += piece) {
      const std::size_t p = std::min(piece, n - at);
      EVP_CipherUpdate(ctx, out + at, &len, in + at, static_cast<int>(p));
    }
    if (!enc) EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag);
    const bool ok = EVP_CipherFinal_ex(ctx, out + n, &len) == 1;
    if (enc) EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag);
    return ok;
  }
};

// register_open_pieces: open of 16 KiB through the incremental opener, in
// pieces of the given size (16384 = one call), beside OpenSSL's EVP fed the
// same pieces. Detached: the tag goes to finish; trailing: the tag is the
// last 16 bytes of the stream and is held back.
void register_open_pieces(const std::string& op, aead_algorithm alg, const bytes& k, const EVP_CIPHER* cipher,
                          const std::string& kernel) {
  constexpr std::size_t total = 16384;
  for (std::size_t piece : {100u, 1000u, 1448u, 16384u}) {
    add(op + ".open_16k_pieces", piece, "sealwire", [piece, alg, &k](benchmark::State& st) {
      bytes sealed(total + 16), out(total);
      (void)crypto::aead_seal(alg, sealed, pattern(total), associated_data(aad), nonce12, k);
      crypto::aead_opener o;
      measure(st, total, [&] {
        (void)o.init(alg, k, nonce12);
        o.aad(aad);
        for (std::size_t at = 0; at < total; at += piece) {
          const std::size_t p = std::min(piece, total - at);
          (void)o.update(std::span(out).subspan(at, p), std::span(sealed).subspan(at, p));
        }
        if (!o.finish(std::span(sealed).subspan(total, 16))) st.SkipWithError("open");
      });
    }, kernel + " detached");
    add(op + ".open_16k_pieces", piece, "sealwire-trailing", [piece, alg, &k](benchmark::State& st) {
      bytes sealed(total + 16), out(total + 16);
      (void)crypto::aead_seal(alg, sealed, pattern(total), associated_data(aad), nonce12, k);
      crypto::aead_opener o;
      measure(st, total, [&] {
        (void)o.init(alg, k, nonce12, crypto::tag_position::trailing);
        o.aad(aad);
        std::size_t written = 0;
        for (std::size_t at = 0; at < sealed.size(); at += piece) {
          const std::size_t p = std::min(piece, sealed.size() - at);
          written += *o.update(std::span(out).subspan(written), std::span(sealed).subspan(at, p));
        }
        if (!o.finish()) st.SkipWithError("open");
      });
    });
    add(op + ".open_16k_pieces", piece, "openssl", [piece, alg, cipher, &k](benchmark::State& st) {
      bytes sealed(total + 16), out(total + 16);
      (void)crypto::aead_seal(alg, sealed, pattern(total), associated_data(aad), nonce12, k);
      evp e(cipher, k);
      measure(st, total, [&] {
        if (!e.run(false, out.data(), sealed.data(), total, sealed.data() + total, piece)) st.SkipWithError("open");
      });
    });
  }
}

void register_chacha20_poly1305() {
  for (std::size_t n : {64u, 1024u, 16384u, 65536u}) {
    add("chacha20_poly1305.seal", n, "sealwire", [n](benchmark::State& st) {
      const bytes pt = pattern(n);
      bytes out(n + 16);
      measure(st, n, [&] {
        auto r = crypto::aead_seal(aead_algorithm::chacha20_poly1305, out, pt, associated_data(aad), nonce12, key);
        benchmark::DoNotOptimize(r);
      });
    }, our_kernel());
    add("chacha20_poly1305.seal", n, "openssl", [n](benchmark::State& st) {
      const bytes pt = pattern(n);
      bytes out(n + 16);
      evp e;
      measure(st, n, [&] { e.run(true, out.data(), pt.data(), n, out.data() + n, n); });
    });
    add("chacha20_poly1305.seal", n, "libsodium", [n](benchmark::State& st) {
      const bytes pt = pattern(n);
      bytes out(n + 16);
      measure(st, n, [&] {
        crypto_aead_chacha20poly1305_ietf_encrypt(out.data(), nullptr, pt.data(), n, aad.data(), aad.size(), nullptr,
                                                  nonce12.data(), key.data());
      });
    });

    // Open: the sealed message is prepared once.
    add("chacha20_poly1305.open", n, "sealwire", [n](benchmark::State& st) {
      bytes sealed(n + 16), out(n);
      (void)crypto::aead_seal(aead_algorithm::chacha20_poly1305, sealed, pattern(n), associated_data(aad), nonce12, key);
      measure(st, n, [&] {
        if (!crypto::aead_open(aead_algorithm::chacha20_poly1305, out, sealed, associated_data(aad), nonce12, key)) st.SkipWithError("open");
      });
    }, our_kernel());
    add("chacha20_poly1305.open", n, "openssl", [n](benchmark::State& st) {
      bytes sealed(n + 16), out(n + 16);
      (void)crypto::aead_seal(aead_algorithm::chacha20_poly1305, sealed, pattern(n), associated_data(aad), nonce12, key);
      evp e;
      measure(st, n, [&] {
        if (!e.run(false, out.data(), sealed.data(), n, sealed.data() + n, n)) st.SkipWithError("open");
      });
    });
    add("chacha20_poly1305.open", n, "libsodium", [n](benchmark::State& st) {
      bytes sealed(n + 16), out(n);
      (void)crypto::aead_seal(aead_algorithm::chacha20_poly1305, sealed, pattern(n), associated_data(aad), nonce12, key);
      measure(st, n, [&] {
        if (crypto_aead_chacha20poly1305_ietf_decrypt(out.data(), nullptr, nullptr, sealed.data(), n + 16, aad.data(),
                                                      aad.size(), nonce12.data(), key.data()) != 0) {
          st.SkipWithError("open");
        }
      });
    });
  }

  register_open_pieces("chacha20_poly1305", aead_algorithm::chacha20_poly1305, key, EVP_chacha20_poly1305(),
                       our_kernel());
}

void register_extended_nonce() {
  constexpr std::size_t n = 16384;
  add("xchacha20_poly1305.seal", n, "sealwire", [](benchmark::State& st) {
    const bytes pt = pattern(n);
    bytes out(n + 16);
    measure(st, n, [&] { (void)crypto::aead_seal(aead_algorithm::xchacha20_poly1305, out, pt, associated_data(aad), nonce24, key); });
  }, our_kernel());
  add("xchacha20_poly1305.seal", n, "libsodium", [](benchmark::State& st) {
    const bytes pt = pattern(n);
    bytes out(n + 16);
    measure(st, n, [&] {
      crypto_aead_xchacha20poly1305_ietf_encrypt(out.data(), nullptr, pt.data(), n, aad.data(), aad.size(), nullptr,
                                                 nonce24.data(), key.data());
    });
  });
  add("xsalsa20_poly1305.seal", n, "sealwire", [](benchmark::State& st) {
    const bytes pt = pattern(n);
    bytes out(n + 16);
    measure(st, n, [&] { (void)crypto::aead_seal(aead_algorithm::xsalsa20_poly1305, out, pt, {}, nonce24, key); });
  }, "salsa:" + std::string(crypto::salsa20().provider()));
  add("xsalsa20_poly1305.seal", n, "libsodium", [](benchmark::State& st) {
    const bytes pt = pattern(n);
    bytes out(n + 16);
    measure(st, n, [&] { crypto_secretbox_easy(out.data(), pt.data(), n, nonce24.data(), key.data()); });
  });
}

// AES-128-GCM and AES-256-GCM: seal and open at 64 B, 1 KiB and 16 KiB, and
// open of 16 KiB in 100-byte pieces, beside OpenSSL's EVP and (AES-256-GCM
// only, and only with AES-NI) libsodium.
void register_aes_gcm() {
  struct variant {
    const char* name;
    aead_algorithm alg;
    const EVP_CIPHER* (*evp_cipher)();
  };
  static const bytes key16 = pattern(16, 7);
  for (const variant v : {variant{"aes128_gcm", aead_algorithm::aes128_gcm, &EVP_aes_128_gcm},
                          variant{"aes256_gcm", aead_algorithm::aes256_gcm, &EVP_aes_256_gcm}}) {
    const bytes& k = v.alg == aead_algorithm::aes128_gcm ? key16 : key;
    const std::string op = v.name;
    // Registration runs before main's sodium_init; libsodium's CPU check needs it.
    const bool sodium = v.alg == aead_algorithm::aes256_gcm && sodium_init() >= 0 &&
                        crypto_aead_aes256gcm_is_available() != 0;
    for (std::size_t n : {64u, 1024u, 16384u}) {
      add(op + ".seal", n, "sealwire", [n, v, &k](benchmark::State& st) {
        const bytes pt = pattern(n);
        bytes out(n + 16);
        measure(st, n, [&] {
          auto r = crypto::aead_seal(v.alg, out, pt, associated_data(aad), nonce12, k);
          benchmark::DoNotOptimize(r);
        });
      }, std::string(crypto::aes_gcm_provider()));
      add(op + ".seal", n, "openssl", [n, v, &k](benchmark::State& st) {
        const bytes pt = pattern(n);
        bytes out(n + 16);
        evp e(v.evp_cipher(), k);
        measure(st, n, [&] { e.run(true, out.data(), pt.data(), n, out.data() + n, n); });
      });
      if (sodium) {
        add(op + ".seal", n, "libsodium", [n](benchmark::State& st) {
          const bytes pt = pattern(n);
          bytes out(n + 16);
          measure(st, n, [&] {
            crypto_aead_aes256gcm_encrypt(out.data(), nullptr, pt.data(), n, aad.data(), aad.size(), nullptr,
                                          nonce12.data(), key.data());
          });
        });
      }
      add(op + ".open", n, "sealwire", [n, v, &k](benchmark::State& st) {
        bytes sealed(n + 16), out(n);
        (void)crypto::aead_seal(v.alg, sealed, pattern(n), associated_data(aad), nonce12, k);
        measure(st, n, [&] {
          if (!crypto::aead_open(v.alg, out, sealed, associated_data(aad), nonce12, k)) st.SkipWithError("open");
        });
      }, std::string(crypto::aes_gcm_provider()));
      add(op + ".open", n, "openssl", [n, v, &k](benchmark::State& st) {
        bytes sealed(n + 16), out(n + 16);
        (void)crypto::aead_seal(v.alg, sealed, pattern(n), associated_data(aad), nonce12, k);
        evp e(v.evp_cipher(), k);
        measure(st, n, [&] {
          if (!e.run(false, out.data(), sealed.data(), n, sealed.data() + n, n)) st.SkipWithError("open");
        });
      });
      if (sodium) {
        add(op + ".open", n, "libsodium", [n](benchmark::State& st) {
          bytes sealed(n + 16), out(n);
          (void)crypto::aead_seal(aead_algorithm::aes256_gcm, sealed, pattern(n), associated_data(aad), nonce12, key);
          measure(st, n, [&] {
            if (crypto_aead_aes256gcm_decrypt(out.data(), nullptr, nullptr, sealed.data(), n + 16, aad.data(),
                                              aad.size(), nonce12.data(), key.data()) != 0) {
              st.SkipWithError("open");
            }
          });
        });
      }
    }

    register_open_pieces(op, v.alg, k, v.evp_cipher(), std::string(crypto::aes_gcm_provider()));
  }
}

const registrar reg1(&register_chacha20_poly1305);
const registrar reg2(&register_extended_nonce);
const registrar reg3(&register_aes_gcm);

}  // namespace
}  // namespace sealwire::bench
