// SPDX-License-Identifier: Apache-2.0
// Record-layer test harness: keys and configurations, a test hook into the
// connection, moving bytes between two sans-IO connections with chosen
// fragmentation, and splitting a byte stream into records.
#pragma once

#include <sealwire/record/connection.hpp>

#include "record_pump.hpp"

#include "vectors.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace sealwire::record::detail {
// The test hook: sequence numbers, and sealing records the public API never
// produces (empty application data).
struct connection_test_access {
  static std::uint64_t send_sequence(const connection& c) { return c.tx_.seq; }
  static std::uint64_t receive_sequence(const connection& c) { return c.rx_.seq; }
  static void set_send_sequence(connection& c, std::uint64_t s) { c.tx_.seq = s; }
  static void set_receive_sequence(connection& c, std::uint64_t s) { c.rx_.seq = s; }
  static std::uint64_t send_blocks(const connection& c) { return c.tx_.blocks; }
  static void set_send_blocks(connection& c, std::uint64_t b) { c.tx_.blocks = b; }
  // keys_wiped: a direction's traffic secret and IV are all zero and its key
  // holds nothing.
  static bool keys_wiped(connection& c, bool send) {
    direction_keys& d = send ? c.tx_ : c.rx_;
    bool zero = true;
    for (std::uint8_t b : d.secret.span()) zero = zero && b == 0;
    for (std::uint8_t b : d.iv.span()) zero = zero && b == 0;
    return zero && !d.key.keyed();
  }
  // The buffers that come and go with the data (issue 22 item 8).
  static bool plaintext_buffer(const connection& c) { return c.plain_.allocated(); }
  static bool send_buffer(const connection& c) { return c.out_.allocated(); }
  static std::size_t send_buffer_size(const connection& c) { return c.out_.size(); }
  static std::size_t handshake_buffer(const connection& c) { return c.hs_buf_.capacity(); }
  static result<void> seal_empty_application_record(connection& c) {
    // Room for the record as padded (the send buffer is allocated to what is asked).
    std::uint8_t* p = c.out_room(record_header_size + c.inner_size(0) + record_tag_size);
    if (p == nullptr) return record_errc::send_buffer_full;
    auto w = c.seal_record(p, 2, {}, 0, 0);
    if (!w) return w.error();
    c.out_end_ += *w;
    return {};
  }
};
}  // namespace sealwire::record::detail

namespace sealwire::record::test {

using sealwire::test::bytes;
using sealwire::test::to_bytes;
using hook = detail::connection_test_access;

struct keys {
  std::shared_ptr<const hpke::private_key> server;
  std::shared_ptr<const hpke::private_key> client;
};

inline std::shared_ptr<const hpke::private_key> make_key(hpke::kem_id kem) {
  auto kp = hpke::generate_key_pair(kem);
  EXPECT_TRUE(kp.has_value());
  return std::make_shared<const hpke::private_key>(std::move(kp->priv));
}

// The KEM of a configuration is its key's (the pinned server key, the static key).
inline std::shared_ptr<client_config> client_cfg(const hpke::private_key& server) {
  auto c = std::make_shared<client_config>();
  c->server_key = server.public_key();
  return c;
}

inline std::shared_ptr<server_config> server_cfg(std::shared_ptr<const hpke::private_key> key) {
  auto s = std::make_shared<server_config>();
  s->static_key = std::move(key);
  return s;
}

inline splitter random_split(sealwire::test::seeded_random& rng, std::size_t max) {
  return [&rng, max](std::size_t left) { return 1 + static_cast<std::size_t>(rng.uniform(std::min(left, max))); };
}

struct pair {
  connection client;
  connection server;
};

inline pair connected(std::shared_ptr<const client_config> cc, std::shared_ptr<const server_config> sc) {
  auto c = connection::client(std::move(cc));
  auto s = connection::server(std::move(sc));
  EXPECT_TRUE(c.has_value()) << c.error().message();
  EXPECT_TRUE(s.has_value()) << s.error().message();
  pair p{std::move(*c), std::move(*s)};
  const auto e = run_handshake(p.client, p.server);
  EXPECT_FALSE(e) << e.message();
  return p;
}

// write_all seals all of data (flushing into `wire` whenever write stops).
inline void write_all(connection& c, bytes_view data, bytes& wire) {
  std::size_t pos = 0;
  while (pos < data.size()) {
    auto r = c.write(data.subspan(pos));
    ASSERT_TRUE(r.has_value()) << r.error().message();
    pos += *r;
    const auto p = c.pending();
    wire.insert(wire.end(), p.begin(), p.end());
    c.consume(p.size());
  }
}

// record_spans splits a byte stream into whole records (offset, size); a
// trailing partial record is left out.
struct record_span {
  std::size_t offset, size;
  std::uint8_t type;
};
inline std::vector<record_span> records_of(bytes_view wire) {
  std::vector<record_span> out;
  std::size_t pos = 0;
  while (wire.size() - pos >= record_header_size) {
    const std::size_t len = (std::size_t{wire[pos + 1]} << 16) | (std::size_t{wire[pos + 2]} << 8) | wire[pos + 3];
    if (wire.size() - pos - record_header_size < len) break;
    out.push_back({pos, record_header_size + len, wire[pos]});
    pos += record_header_size + len;
  }
  return out;
}

}  // namespace sealwire::record::test
