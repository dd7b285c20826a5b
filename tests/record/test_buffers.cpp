// SPDX-License-Identifier: Apache-2.0
// The connection's buffers come and go with the data (issue 22 item 8): an
// idle connection holds no plaintext, send or handshake buffer; a buffer
// stays while it holds something (unread plaintext, a record half opened,
// bytes not yet sent) and goes back once that drains.
#include <sealwire/record/connection.hpp>

#include "harness.hpp"

#include <gtest/gtest.h>

namespace sealwire::record::test {
namespace {

bytes buffer_pattern(std::size_t n, std::uint8_t seed) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 13 + seed + (i >> 7));
  return b;
}

void expect_idle(const connection& c, const char* where) {
  EXPECT_FALSE(hook::plaintext_buffer(c)) << where;
  EXPECT_FALSE(hook::send_buffer(c)) << where;
  EXPECT_EQ(hook::handshake_buffer(c), 0u) << where;
  EXPECT_EQ(c.readable(), 0u) << where;
  EXPECT_TRUE(c.pending().empty()) << where;
}

TEST(RecordBuffers, IdleAfterTheHandshakeAndAfterDataDrained) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  expect_idle(p.client, "client after the handshake");
  expect_idle(p.server, "server after the handshake");

  // Sealing takes the send buffer; sending everything gives it back.
  const bytes data = buffer_pattern(40000, 1);
  auto w = p.client.write(data);
  ASSERT_TRUE(w.has_value());
  EXPECT_TRUE(hook::send_buffer(p.client));
  bytes wire = take_pending(p.client);
  EXPECT_FALSE(hook::send_buffer(p.client));
  std::size_t sent = *w;
  while (sent < data.size()) {
    auto more = p.client.write(bytes_view(data).subspan(sent));
    ASSERT_TRUE(more.has_value());
    sent += *more;
    const bytes part = take_pending(p.client);
    wire.insert(wire.end(), part.begin(), part.end());
  }

  // A record half received holds the plaintext buffer (nothing readable yet).
  auto r = p.server.receive(bytes_view(wire).first(100));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, 100u);
  EXPECT_EQ(p.server.readable(), 0u);
  EXPECT_TRUE(hook::plaintext_buffer(p.server));

  // Unread plaintext holds it; reading everything gives it back, and the
  // next record takes it again.
  bytes got;
  std::size_t pos = 100;
  while (pos < wire.size()) {
    auto k = p.server.receive(bytes_view(wire).subspan(pos));
    ASSERT_TRUE(k.has_value()) << k.error().message();
    pos += *k;
    ASSERT_GT(p.server.readable(), 1u);
    bytes part(p.server.readable() / 2);
    ASSERT_EQ(p.server.read(part), part.size());
    got.insert(got.end(), part.begin(), part.end());
    EXPECT_TRUE(hook::plaintext_buffer(p.server)) << "plaintext still unread";
    const auto rest = p.server.peek();
    got.insert(got.end(), rest.begin(), rest.end());
    p.server.discard(rest.size());
    EXPECT_FALSE(hook::plaintext_buffer(p.server)) << "drained at " << pos;
  }
  EXPECT_EQ(got, data);
  expect_idle(p.server, "server after reading everything");
  expect_idle(p.client, "client after sending everything");
}

TEST(RecordBuffers, ControlRecordsLeaveNothingHeld) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  // A key update, an empty-content path (nothing readable), then a close.
  ASSERT_TRUE(p.client.update_keys().has_value());
  bytes wire = take_pending(p.client);
  ASSERT_TRUE(p.client.close().has_value());
  const bytes close = take_pending(p.client);
  wire.insert(wire.end(), close.begin(), close.end());
  // Byte by byte: the buffer is held while a record is half received only.
  for (std::size_t i = 0; i < wire.size(); ++i) {
    auto r = p.server.receive(bytes_view(wire).subspan(i, 1));
    ASSERT_TRUE(r.has_value()) << r.error().message();
    ASSERT_EQ(*r, 1u);
  }
  EXPECT_TRUE(p.server.peer_closed());
  expect_idle(p.server, "server after a key update and a close");
  expect_idle(p.client, "client after sending them");
}

// The send buffer is allocated to what a write seals, and grows, keeping
// what is pending (also after part of it was sent), when a later write
// needs more; the peer opens everything in order.
TEST(RecordBuffers, TheSendBufferIsSizedToWhatIsSealedAndGrowsKeepingWhatIsPending) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  const bytes small = buffer_pattern(300, 2), large = buffer_pattern(20000, 3), last = buffer_pattern(5000, 4);
  ASSERT_EQ(p.client.write(small).value(), small.size());
  const std::size_t first = hook::send_buffer_size(p.client);
  EXPECT_GE(first, p.client.pending().size());
  EXPECT_LT(first, 1024u) << "a 300-byte write took the whole send buffer";
  ASSERT_EQ(p.client.write(large).value(), large.size());
  EXPECT_GT(hook::send_buffer_size(p.client), first);
  bytes wire(p.client.pending().begin(), p.client.pending().begin() + 7);
  p.client.consume(7);  // part sent: the next growth moves the rest to the front
  ASSERT_EQ(p.client.write(last).value(), last.size());
  const bytes rest = take_pending(p.client);
  wire.insert(wire.end(), rest.begin(), rest.end());
  EXPECT_FALSE(hook::send_buffer(p.client));

  bytes want = small;
  want.insert(want.end(), large.begin(), large.end());
  want.insert(want.end(), last.begin(), last.end());
  bytes got;
  std::size_t pos = 0;
  while (pos < wire.size()) {
    auto k = p.server.receive(bytes_view(wire).subspan(pos));
    ASSERT_TRUE(k.has_value()) << k.error().message();
    pos += *k;
    const auto view = p.server.peek();
    got.insert(got.end(), view.begin(), view.end());
    p.server.discard(view.size());
  }
  EXPECT_EQ(got, want);
}

TEST(RecordBuffers, AFailedRecordIsWipedAndTheBufferGoesUnlessPlaintextWaits) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  const bytes first = buffer_pattern(3000, 2), second = buffer_pattern(3000, 3);
  ASSERT_TRUE(p.client.write(first).has_value());
  ASSERT_TRUE(p.client.write(second).has_value());
  bytes wire = take_pending(p.client);
  const auto recs = records_of(wire);
  ASSERT_EQ(recs.size(), 2u);
  wire[recs[1].offset + recs[1].size - 1] ^= 1;  // the second record's tag
  auto r = p.server.receive(wire);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error(), record_errc::bad_record_mac);
  // The first record verified: it stays readable, in its buffer.
  ASSERT_EQ(p.server.readable(), first.size());
  EXPECT_TRUE(hook::plaintext_buffer(p.server));
  bytes got(first.size());
  EXPECT_EQ(p.server.read(got), got.size());
  EXPECT_EQ(got, first);
  EXPECT_FALSE(hook::plaintext_buffer(p.server));
  EXPECT_EQ(p.server.receive(wire).error(), record_errc::bad_record_mac);  // sticky
  EXPECT_FALSE(hook::plaintext_buffer(p.server));
}

}  // namespace
}  // namespace sealwire::record::test
