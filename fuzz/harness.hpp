// SPDX-License-Identifier: Apache-2.0
// Shared by the fuzz targets and the seed generator: a deterministic random
// source, fixed keys, and record connections whose handshake is the same
// every time, so that records recorded by the seed generator decrypt in the
// targets and the fuzzer mutates real, verifiable records.
#pragma once

#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/sha2.hpp>
#include <sealwire/hpke/hpke.hpp>
#include <sealwire/record/connection.hpp>

#include "record_pump.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

namespace sealwire::fuzz {

using bytes = std::vector<std::uint8_t>;

// fatal stops the fuzzer with a finding: an invariant the library promised broke.
// The message goes to stderr, unbuffered: stdout would be lost in abort()
// when it is a pipe (ctest).
[[noreturn]] inline void fatal(const char* what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

// counter_source: SHA-256(seed || counter) blocks; restarted for every input.
class counter_source final : public crypto::random_source {
 public:
  void restart(std::uint64_t seed) noexcept {
    seed_ = seed;
    counter_ = 0;
  }
  result<void> fill(std::span<std::uint8_t> out) noexcept override {
    std::size_t done = 0;
    while (done < out.size()) {
      std::uint8_t in[16], block[32];
      std::memcpy(in, &seed_, 8);
      std::memcpy(in + 8, &counter_, 8);
      ++counter_;
      crypto::sha256::hash(std::span<std::uint8_t, 32>(block), in);
      const std::size_t n = std::min<std::size_t>(32, out.size() - done);
      std::memcpy(out.data() + done, block, n);
      done += n;
    }
    return {};
  }

 private:
  std::uint64_t seed_ = 0, counter_ = 0;
};

// install_deterministic_random makes every later random_bytes call
// deterministic, starting over from `seed`.
inline void install_deterministic_random(std::uint64_t seed) {
  static counter_source src;
  src.restart(seed);
  crypto::set_random_source(&src);
}

// fixed_key derives a key pair from a label, the same on every run.
inline hpke::key_pair fixed_key(hpke::kem_id kem, std::uint8_t label) {
  std::array<std::uint8_t, 64> ikm{};
  ikm.fill(label);
  auto kp = hpke::derive_key_pair(kem, ikm);
  if (!kp) fatal("derive_key_pair on a fixed seed");
  return std::move(*kp);
}

// options chosen by a record-target input's first byte: bit 0 client auth,
// bits 1 and 5 the AEAD, bits 2-3 the KDF, bit 4 the KEM (X448), bit 6 the
// KEM X-Wing (over bit 4).
struct record_options {
  bool client_auth = false;
  record::record_aead aead = record::record_aead::chacha20_poly1305;
  hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256;
  hpke::kem_id kem = hpke::kem_id::x25519;

  static record_options from(std::uint8_t b) {
    record_options o;
    o.client_auth = (b & 1) != 0;
    constexpr record::record_aead aeads[] = {record::record_aead::chacha20_poly1305,
                                             record::record_aead::xchacha20_poly1305, record::record_aead::aes128_gcm,
                                             record::record_aead::aes256_gcm};
    o.aead = aeads[((b >> 1) & 1) | ((b >> 4) & 2)];  // bits 1 and 5
    constexpr hpke::kdf_id kdfs[] = {hpke::kdf_id::hkdf_sha256, hpke::kdf_id::hkdf_sha384,
                                     hpke::kdf_id::hkdf_sha512, hpke::kdf_id::hkdf_sha256};
    o.kdf = kdfs[(b >> 2) & 3];
    o.kem = (b & 64) != 0   ? hpke::kem_id::xwing
            : (b & 16) != 0 ? hpke::kem_id::x448
                            : hpke::kem_id::x25519;
    return o;
  }
};

// A client and a server with fixed keys and small limits (so that limits are
// reachable by the fuzzer), created after the deterministic source is reset.
struct endpoints {
  record::connection client;
  record::connection server;
};

// X-Wing's handshake messages (a 1216-byte key, 1120-byte encapsulations)
// need more than the 1024 bytes the classical KEMs get.
inline record::limits small_limits(hpke::kem_id kem = hpke::kem_id::x25519) {
  record::limits l;
  l.max_record_size = 2048;
  l.max_handshake_size = kem == hpke::kem_id::xwing ? 4096 : 1024;
  l.max_empty_records = 4;
  l.key_update_after = 8;
  l.max_buffered_plaintext = 8192;
  l.max_send_buffer = 16384;
  return l;
}

inline endpoints make_endpoints(const record_options& o, std::uint64_t seed) {
  install_deterministic_random(seed);
  // The fixed keys are derived once per KEM (a scalar multiplication each).
  static std::shared_ptr<const hpke::private_key> cached[3][2];
  auto& keys = cached[o.kem == hpke::kem_id::x448 ? 1 : o.kem == hpke::kem_id::xwing ? 2 : 0];
  if (!keys[0]) {
    keys[0] = std::make_shared<const hpke::private_key>(fixed_key(o.kem, 1).priv);
    keys[1] = std::make_shared<const hpke::private_key>(fixed_key(o.kem, 2).priv);
  }
  const auto& server_key = keys[0];
  const auto& client_key = keys[1];
  auto cc = std::make_shared<record::client_config>();
  cc->kdf = o.kdf;
  cc->server_key = server_key->public_key();
  cc->aeads = {o.aead};
  cc->limits = small_limits(o.kem);
  if (o.client_auth) cc->client_key = client_key;
  auto sc = std::make_shared<record::server_config>();
  sc->static_key = server_key;
  sc->require_client_auth = o.client_auth;
  sc->accept_any_client_key = true;
  sc->limits = small_limits(o.kem);
  auto c = record::connection::client(cc);
  auto s = record::connection::server(sc);
  if (!c || !s) fatal("connection setup with a valid configuration");
  return {std::move(*c), std::move(*s)};
}

// splits turns one byte into a fragment-size chooser (1..64 * (b % 8 + 1)),
// driven by a small xorshift generator.
inline record::test::splitter splits(std::uint8_t b) {
  auto state = std::make_shared<std::uint32_t>(0x9e3779b9u ^ b);
  const std::size_t max = 64u * (b % 8u + 1u);
  return [state, max](std::size_t left) {
    std::uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return std::min<std::size_t>(left, 1 + x % max);
  };
}

}  // namespace sealwire::fuzz
