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
// datagram (sequence number 0) opens again every iteration. Only what one
// record changed is undone (a reset would clear the whole ring, a cost the
// raw AEAD beside it does not pay).
struct channel_test_access {
  static void rewind(channel& c) {
    replay_window& w = c.s_->held(c.s_->rx_epoch)->window;
    w.next_ = 0;
    w.bits_[0] = 0;
  }
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

// mask_only measures one header-protection mask (9.3) from a ready key, the
// sample taken from the previous mask's output as a record's would be.
void mask_only(benchmark::State& st, record::record_aead aead, std::size_t m) {
  record::datagram::detail::suite s;
  static_cast<void>(record::datagram::detail::make_suite(s, aead, hpke::kdf_id::hkdf_sha256));
  record::datagram::detail::header_protection hp;
  const bytes secret(32, 0x11);
  hp.init(s, secret);
  std::uint8_t sample[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  std::uint8_t mask[5];
  measure(st, m, [&] {
    hp.mask(mask, std::span<const std::uint8_t, 16>(sample, 16));
    sample[0] ^= mask[0];  // a dependency, as a record's sample depends on its ciphertext
    benchmark::DoNotOptimize(mask);
  });
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
    // The floor: the header-protection mask alone (one ChaCha20 block or one
    // AES block under a ready key), listed at each size for the ratio tables.
    add("datagram.seal" + suffix, n, "hp_mask", [aead, m](benchmark::State& st) { mask_only(st, aead, m); });
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
