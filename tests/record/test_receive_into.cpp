// SPDX-License-Identifier: Apache-2.0
// connection::receive_into (issue 22 item 7): whole records opened straight
// into the caller's buffer, without the plaintext buffer; records it cannot
// open that way (partial, too large for the buffer, behind unread
// plaintext) are left for more input or for receive(); a failed record is
// wiped from the caller's buffer, after the verified ones before it.
#include <sealwire/record/connection.hpp>

#include "harness.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace sealwire::record::test {
namespace {

bytes receive_pattern(std::size_t n, std::uint8_t seed) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 7 + seed + (i >> 9));
  return b;
}

pair make_pair() {
  auto key = make_key(hpke::kem_id::x25519);
  return connected(client_cfg(*key), server_cfg(key));
}

TEST(RecordReceiveInto, WholeRecordsAndAKeyUpdateGoStraightIntoTheBuffer) {
  auto p = make_pair();
  const bytes first = receive_pattern(40000, 1), second = receive_pattern(5000, 2);
  bytes wire;
  write_all(p.client, first, wire);
  ASSERT_TRUE(p.client.update_keys().has_value());
  write_all(p.client, second, wire);
  ASSERT_EQ(records_of(wire).size(), 5u);  // 16384 + 16384 + 7232, key update, 5000

  bytes out(first.size() + second.size() + 64);
  auto r = p.server.receive_into(wire, out);
  ASSERT_TRUE(r.has_value()) << r.error().message();
  EXPECT_EQ(r->consumed, wire.size());
  EXPECT_EQ(r->delivered, first.size() + second.size());
  EXPECT_EQ(r->wanted, 0u);
  bytes want = first;
  want.insert(want.end(), second.begin(), second.end());
  EXPECT_TRUE(std::equal(want.begin(), want.end(), out.begin()));
  EXPECT_FALSE(hook::plaintext_buffer(p.server)) << "no plaintext buffer on this path";
  EXPECT_EQ(p.server.readable(), 0u);
}

TEST(RecordReceiveInto, StopsAtAPartialRecordAndSaysHowMuchItNeeds) {
  auto p = make_pair();
  const bytes data = receive_pattern(20000, 3);
  bytes wire;
  write_all(p.client, data, wire);
  const auto recs = records_of(wire);
  ASSERT_EQ(recs.size(), 2u);
  bytes out(32 * 1024);

  // The header alone is not whole: it asks for a header.
  auto r = p.server.receive_into(bytes_view(wire).first(3), out);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->consumed, 0u);
  EXPECT_EQ(r->wanted, record_header_size);

  // The first record whole, the second cut: the first is delivered, the
  // second left in the input, its size asked for.
  const std::size_t cut = wire.size() - 10;
  r = p.server.receive_into(bytes_view(wire).first(cut), out);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->consumed, recs[0].size);
  EXPECT_EQ(r->delivered, 16384u);
  EXPECT_EQ(r->wanted, recs[1].size);
  EXPECT_TRUE(std::equal(data.begin(), data.begin() + 16384, out.begin()));

  // With the rest it arrives.
  r = p.server.receive_into(bytes_view(wire).subspan(recs[1].offset), out);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->consumed, recs[1].size);
  EXPECT_EQ(r->delivered, data.size() - 16384);
  EXPECT_TRUE(std::equal(data.begin() + 16384, data.end(), out.begin()));
  EXPECT_FALSE(hook::plaintext_buffer(p.server));
}

TEST(RecordReceiveInto, LeavesRecordsItCannotTakeForReceiveAndKeepsTheOrder) {
  auto p = make_pair();
  const bytes a = receive_pattern(3000, 4), b = receive_pattern(100, 5);
  bytes wire;
  write_all(p.client, a, wire);
  write_all(p.client, b, wire);
  const auto recs = records_of(wire);
  ASSERT_EQ(recs.size(), 2u);

  // Too large for the buffer (3000 bytes of content and a type byte).
  bytes small(3000);
  auto r = p.server.receive_into(wire, small);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->consumed, 0u);
  EXPECT_EQ(r->delivered, 0u);
  EXPECT_EQ(r->wanted, 0u);

  // receive() takes the first record; while its plaintext waits unread,
  // receive_into takes nothing (the order of the data is kept).
  auto k = p.server.receive(bytes_view(wire).first(recs[0].size));
  ASSERT_TRUE(k.has_value());
  ASSERT_EQ(p.server.readable(), a.size());
  bytes big(8192);
  r = p.server.receive_into(bytes_view(wire).subspan(recs[1].offset), big);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->consumed, 0u);
  bytes got(a.size());
  ASSERT_EQ(p.server.read(got), a.size());
  EXPECT_EQ(got, a);
  r = p.server.receive_into(bytes_view(wire).subspan(recs[1].offset), big);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->delivered, b.size());
  EXPECT_TRUE(std::equal(b.begin(), b.end(), big.begin()));

  // A record half received by receive() is finished by receive(), not here.
  bytes more;
  write_all(p.client, b, more);
  ASSERT_TRUE(p.server.receive(bytes_view(more).first(7)).has_value());
  r = p.server.receive_into(bytes_view(more).subspan(7), big);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->consumed, 0u);
  EXPECT_EQ(r->wanted, 0u);
}

TEST(RecordReceiveInto, AFailedRecordIsWipedAfterTheVerifiedOnesAreDelivered) {
  auto p = make_pair();
  const bytes first = receive_pattern(3000, 6), second = receive_pattern(3000, 7);
  bytes wire;
  write_all(p.client, first, wire);
  write_all(p.client, second, wire);
  const auto recs = records_of(wire);
  ASSERT_EQ(recs.size(), 2u);
  wire[recs[1].offset + recs[1].size - 1] ^= 1;  // the second record's tag

  bytes out(8192, 0xee);
  auto r = p.server.receive_into(wire, out);
  ASSERT_TRUE(r.has_value()) << "the verified record comes first";
  EXPECT_EQ(r->delivered, first.size());
  EXPECT_TRUE(std::equal(first.begin(), first.end(), out.begin()));
  // The second record's plaintext went where it was opened, and was wiped.
  EXPECT_TRUE(std::all_of(out.begin() + 3000, out.begin() + 6001, [](std::uint8_t v) { return v == 0; }));
  EXPECT_EQ(p.server.error(), record_errc::bad_record_mac);
  EXPECT_EQ(p.server.receive_into(bytes_view(wire).subspan(recs[1].offset), out).error(),
            record_errc::bad_record_mac);  // sticky
  EXPECT_FALSE(hook::plaintext_buffer(p.server));
}

TEST(RecordReceiveInto, ATamperedFirstRecordFailsAndIsWiped) {
  auto p = make_pair();
  const bytes data = receive_pattern(2000, 8);
  bytes wire;
  write_all(p.client, data, wire);
  wire[record_header_size + 5] ^= 0x40;  // a ciphertext byte
  bytes out(4096, 0xee);
  auto r = p.server.receive_into(wire, out);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error(), record_errc::bad_record_mac);
  EXPECT_TRUE(std::all_of(out.begin(), out.begin() + 2001, [](std::uint8_t v) { return v == 0; }));
}

TEST(RecordReceiveInto, BytesAfterTheCloseRecordAreAnError) {
  auto p = make_pair();
  const bytes data = receive_pattern(500, 9);
  bytes wire;
  write_all(p.client, data, wire);
  ASSERT_TRUE(p.client.close().has_value());
  const bytes close = take_pending(p.client);
  wire.insert(wire.end(), close.begin(), close.end());
  bytes out(4096);
  // A clean close: the data, then the close.
  auto clean = make_pair();
  bytes clean_wire;
  write_all(clean.client, data, clean_wire);
  ASSERT_TRUE(clean.client.close().has_value());
  const bytes clean_close = take_pending(clean.client);
  clean_wire.insert(clean_wire.end(), clean_close.begin(), clean_close.end());
  auto ok = clean.server.receive_into(clean_wire, out);
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->delivered, data.size());
  EXPECT_EQ(ok->consumed, clean_wire.size());
  EXPECT_TRUE(clean.server.peer_closed());
  EXPECT_FALSE(clean.server.error());

  // The same with junk after the close: the data first, then the error.
  wire.push_back(0x02);
  auto r = p.server.receive_into(wire, out);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->delivered, data.size());
  EXPECT_EQ(p.server.error(), record_errc::unexpected_record);
}

}  // namespace
}  // namespace sealwire::record::test
