// SPDX-License-Identifier: Apache-2.0
// Stream-cipher peers that OpenSSL and libsodium lack: ChaCha8/12/20 and
// Salsa20/8/12/20 from Botan 2 and Crypto++, for the reduced-round targets.
#include "common.hpp"

#include <botan/stream_cipher.h>
#include <cryptopp/algparam.h>
#include <cryptopp/argnames.h>
#include <cryptopp/chacha.h>
#include <cryptopp/salsa.h>

#include <memory>
#include <string>

namespace sealwire::bench {
namespace {

const bytes key = pattern(32, 7);
const bytes nonce8 = pattern(8, 8);

void botan(benchmark::State& st, const std::string& name, std::size_t n) {
  const bytes in = pattern(n);
  bytes out(n);
  auto c = Botan::StreamCipher::create_or_throw(name);
  measure(st, n, [&] {
    c->set_key(key.data(), key.size());
    c->set_iv(nonce8.data(), nonce8.size());
    c->cipher(in.data(), out.data(), n);
  });
}

template <class Encryption>
void cryptopp(benchmark::State& st, int rounds, std::size_t n) {
  const bytes in = pattern(n);
  bytes out(n);
  Encryption c;
  const auto params = CryptoPP::MakeParameters(CryptoPP::Name::Rounds(), rounds)(
      CryptoPP::Name::IV(), CryptoPP::ConstByteArrayParameter(nonce8.data(), nonce8.size()));
  measure(st, n, [&] {
    c.SetKey(key.data(), key.size(), params);
    c.ProcessData(out.data(), in.data(), n);
  });
}

void register_all() {
  constexpr std::size_t n = 16384;
  for (int rounds : {20, 12, 8}) {
    const std::string chacha = "chacha" + std::to_string(rounds) + ".xor";
    add(chacha, n, "botan", [rounds](benchmark::State& st) { botan(st, "ChaCha(" + std::to_string(rounds) + ")", n); });
    add(chacha, n, "cryptopp", [rounds](benchmark::State& st) { cryptopp<CryptoPP::ChaCha::Encryption>(st, rounds, n); });
    const std::string salsa = "salsa20_" + std::to_string(rounds) + ".xor";
    if (rounds == 20) add(salsa, n, "botan", [](benchmark::State& st) { botan(st, "Salsa20", n); });
    add(salsa, n, "cryptopp", [rounds](benchmark::State& st) { cryptopp<CryptoPP::Salsa20::Encryption>(st, rounds, n); });
  }
}

const registrar reg(&register_all);

}  // namespace
}  // namespace sealwire::bench
