// SPDX-License-Identifier: Apache-2.0
// Datagram channel test harness: a test hook into the channel (sequence
// numbers, the header protection key), pairs of channels keyed from fixed
// secrets, and sealing helpers.
#pragma once

#include <sealwire/record/datagram/channel.hpp>

#include "detail/kdf.hpp"
#include "detail/state.hpp"
#include "vectors.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sealwire::record::datagram::detail {
struct channel_test_access {
  static std::uint64_t send_sequence(const channel& c) { return c.s_->tx_seq; }
  static void set_send_sequence(channel& c, std::uint64_t s) { c.s_->tx_seq = s; }
  static const suite& suite_of(const channel& c) { return c.s_->s; }
  // receive_keys_wiped: no receiving AEAD key is held.
  static bool receive_keys_wiped(const channel& c) {
    bool any = false;
    for (const auto& e : c.s_->slots) any = any || e.keys.key.keyed();
    return !any;
  }
  // keys_wiped: no AEAD key of either direction is held.
  static bool keys_wiped(const channel& c) {
    bool any = c.s_->tx.key.keyed();
    for (const auto& e : c.s_->slots) any = any || e.keys.key.keyed();
    return !any;
  }
};
}  // namespace sealwire::record::datagram::detail

namespace sealwire::record::datagram::test {

using sealwire::test::bytes;
using hook = detail::channel_test_access;

// secret_a and secret_b are fixed initial secrets (dg_0) of 64 bytes; a
// suite takes its first Nh.
inline bytes secret_a() { return bytes(64, 0xa5); }
inline bytes secret_b() { return bytes(64, 0x5b); }

struct channel_pair {
  channel a;  // sends with secret_a
  channel b;  // sends with secret_b
};

inline channel make_channel(record_aead aead, bool side_a, const config& cfg = {},
                            hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256) {
  const std::size_t nh = record::detail::hash_size(kdf);
  const bytes sa = secret_a(), sb = secret_b();
  const bytes_view a = bytes_view(sa).first(nh), b = bytes_view(sb).first(nh);
  auto c = channel::from_secrets(aead, kdf, side_a ? a : b, side_a ? b : a, cfg);
  EXPECT_TRUE(c.has_value()) << c.error().message();
  return std::move(*c);
}

inline channel_pair make_pair(record_aead aead, const config& cfg = {},
                              hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256) {
  return {make_channel(aead, true, cfg, kdf), make_channel(aead, false, cfg, kdf)};
}

// seal_one seals one message into a datagram of its own.
inline bytes seal_one(channel& c, bytes_view msg) {
  bytes out(c.max_message_size() + 64);
  auto n = c.seal(out, msg);
  EXPECT_TRUE(n.has_value()) << n.error().message();
  out.resize(n.value_or(0));
  return out;
}

// open_copy opens a copy of a datagram and returns the messages as bytes.
struct opened {
  std::vector<bytes> data;
  std::vector<std::uint64_t> epochs, seqs;
};
inline opened open_copy(channel& c, const bytes& dgram, clock::time_point now = clock::time_point{}) {
  bytes buf = dgram;
  std::vector<message> out;
  auto n = c.open(buf, out, now);
  EXPECT_TRUE(n.has_value()) << n.error().message();
  opened r;
  for (const auto& m : out) {
    r.data.emplace_back(m.data.begin(), m.data.end());
    r.epochs.push_back(m.epoch);
    r.seqs.push_back(m.sequence);
  }
  return r;
}

inline bytes msg_of(std::string_view s) { return bytes(s.begin(), s.end()); }

inline const std::array<record_aead, 4> all_aeads = {record_aead::chacha20_poly1305, record_aead::xchacha20_poly1305,
                                                     record_aead::aes128_gcm, record_aead::aes256_gcm};

}  // namespace sealwire::record::datagram::test
