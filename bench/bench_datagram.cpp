// SPDX-License-Identifier: Apache-2.0
// Datagram channel benchmarks (docs/protocol.md 9), each beside the raw AEAD
// doing the same work with a key set up once: seal and open of one 100-byte
// and one 1200-byte datagram (one record, 16-bit sequence numbers, header
// protection included) for ChaCha20-Poly1305 and AES-128-GCM (targets:
// overhead at most 20% at 100 bytes, 5% at 1200 bytes).
#include "common.hpp"

#include <sealwire/crypto/aead.hpp>
#include <sealwire/record/datagram/channel.hpp>

#include "detail/state.hpp"

#include <cstring>

namespace sealwire::record::datagram::detail {
// The benchmark's hook: rewind the receiver's replay window so that the same
// datagram opens again (the same record every iteration).
struct channel_test_access {
  static void rewind(channel& c) { c.s_->slots[c.s_->cur].window.reset(c.s_->cfg.replay_window); }
};
}  // namespace sealwire::record::datagram::detail

namespace sealwire::bench {
namespace {

using record::datagram::channel;
using hook = record::datagram::detail::channel_test_access;

constexpr std::size_t record_overhead = 3 + 16;  // header (16-bit sequence number, no length) + tag

channel make(record::record_aead aead, bool a) {
  const bytes x(32, 0x11), y(32, 0x22);
  return channel::from_secrets(aead, hpke::kdf_id::hkdf_sha256, a ? x : y, a ? y : x).value();
}

void register_datagram(record::record_aead aead, crypto::aead_algorithm alg, const std::string& suffix) {
  const std::size_t key_size = crypto::properties(alg).key_size;
  for (std::size_t n : {100u, 1200u}) {
    const std::size_t m = n - record_overhead;
    add("datagram.seal" + suffix, n, "sealwire", [m, aead](benchmark::State& st) {
      channel tx = make(aead, true);
      const bytes msg = pattern(m);
      bytes out(1200);
      measure(st, m, [&] { benchmark::DoNotOptimize(tx.seal(out, msg)); });
    });
    add("datagram.seal" + suffix, n, "raw_aead", [m, alg, key_size](benchmark::State& st) {
      const auto key = crypto::aead_key::make(alg, pattern(key_size, 3)).value();
      const bytes msg = pattern(m), nonce = pattern(12, 4), aad = pattern(3, 5);
      bytes out(1200);
      measure(st, m, [&] {
        benchmark::DoNotOptimize(key.seal(std::span(out).subspan(3), msg, associated_data(aad), nonce));
      });
    });
    add("datagram.open" + suffix, n, "sealwire", [m, aead](benchmark::State& st) {
      channel tx = make(aead, true), rx = make(aead, false);
      bytes d(1200);
      d.resize(tx.seal(d, pattern(m)).value());
      bytes buf(d.size());
      std::vector<record::datagram::message> out;
      out.reserve(4);
      measure(st, m, [&] {
        std::memcpy(buf.data(), d.data(), d.size());
        hook::rewind(rx);
        out.clear();
        benchmark::DoNotOptimize(rx.open(buf, out));
      });
      if (rx.statistics().delivered != static_cast<std::uint64_t>(st.iterations())) st.SkipWithError("a datagram did not open");
    });
    add("datagram.open" + suffix, n, "raw_aead", [m, alg, key_size](benchmark::State& st) {
      const auto key = crypto::aead_key::make(alg, pattern(key_size, 3)).value();
      const bytes nonce = pattern(12, 4), aad = pattern(3, 5);
      bytes ct(m + 16), buf(m + 16);
      (void)key.seal(ct, pattern(m), associated_data(aad), nonce);
      measure(st, m, [&] {
        std::memcpy(buf.data(), ct.data(), ct.size());
        benchmark::DoNotOptimize(key.open(buf, buf, associated_data(aad), nonce));
      });
    });
  }
}

void register_all() {
  register_datagram(record::record_aead::chacha20_poly1305, crypto::aead_algorithm::chacha20_poly1305, "");
  register_datagram(record::record_aead::aes128_gcm, crypto::aead_algorithm::aes128_gcm, ".aes128_gcm");
}

const registrar reg(&register_all);

}  // namespace
}  // namespace sealwire::bench
