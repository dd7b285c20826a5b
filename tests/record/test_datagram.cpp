// SPDX-License-Identifier: Apache-2.0
// The datagram channel (docs/protocol.md 9): round trips for every AEAD and
// keying from a real connection; loss, duplication, reordering within and
// beyond the replay window; truncated, corrupted and forged datagrams;
// epochs and the previous epoch's lifetime; header protection against an
// independent OpenSSL computation; the integrity limit; datagram sizes;
// sequence number reconstruction (RFC 9000 A.3).
#include <sealwire/record/datagram/channel.hpp>

#include "datagram_harness.hpp"
#include "detail/header.hpp"
#include "harness.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <set>

using namespace sealwire;
using namespace sealwire::record::datagram;
using namespace sealwire::record::datagram::test;
using record::record_aead;
using namespace std::chrono_literals;

namespace {

class Datagram : public ::testing::TestWithParam<record_aead> {};
INSTANTIATE_TEST_SUITE_P(aead, Datagram, ::testing::ValuesIn(all_aeads),
                         [](const auto& param_info) { return std::string(record::to_string(param_info.param)); });

const clock::time_point t0{};

// numbered is prefix || decimal i (appended, not operator+: GCC 12 warns
// falsely about the temporary at -O3).
bytes numbered(std::string prefix, int i) {
  prefix += std::to_string(i);
  return msg_of(prefix);
}

TEST_P(Datagram, RoundTripBothDirections) {
  auto p = make_pair(GetParam());
  for (int i = 0; i < 3; ++i) {
    const bytes m = numbered("hello ", i);
    const auto r = open_copy(p.b, seal_one(p.a, m));
    ASSERT_EQ(r.data.size(), 1u);
    EXPECT_EQ(r.data[0], m);
    EXPECT_EQ(r.epochs[0], 0u);
    EXPECT_EQ(r.seqs[0], static_cast<std::uint64_t>(i));
  }
  const auto back = open_copy(p.a, seal_one(p.b, msg_of("back")));
  ASSERT_EQ(back.data.size(), 1u);
  EXPECT_EQ(back.data[0], msg_of("back"));
  // A datagram opens only in the other direction: the sender's own
  // receiving keys are the peer's.
  // (Under the other header protection key the epoch bits and sequence
  // number come out random: dropped as forged, stale or replayed.)
  const auto self = open_copy(p.a, seal_one(p.a, msg_of("self")));
  EXPECT_TRUE(self.data.empty());
  const stats sa = p.a.statistics();
  EXPECT_EQ(sa.forged + sa.stale_epoch + sa.replayed, 1u);
  EXPECT_EQ(p.b.statistics().delivered, 3u);
}

TEST_P(Datagram, SeveralRecordsAndEmptyMessages) {
  auto p = make_pair(GetParam());
  const bytes m1 = msg_of("first"), m2, m3(300, 7);
  const bytes_view msgs[] = {m1, m2, m3};
  bytes out(1200);
  auto n = p.a.seal(out, msgs);
  ASSERT_TRUE(n);
  // 5 + 5 + 3 header bytes (lengths on all but the last), 3 tags.
  EXPECT_EQ(*n, 5 + m1.size() + 5 + 0 + 3 + m3.size() + 3 * 16);
  out.resize(*n);
  const auto r = open_copy(p.b, out);
  ASSERT_EQ(r.data.size(), 3u);
  EXPECT_EQ(r.data[0], m1);
  EXPECT_EQ(r.data[1], m2);
  EXPECT_EQ(r.data[2], m3);
  EXPECT_EQ(r.seqs, (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(p.a.seal(out, std::span<const bytes_view>{}).value(), 0u);
}

TEST(DatagramKeying, FromConnectionBothRolesAndContexts) {
  using namespace sealwire::record::test;
  const auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->aeads = {record_aead::aes128_gcm};
  auto conns = connected(cc, server_cfg(key));
  auto c = channel::from_connection(conns.client, {}, bytes{1});
  auto s = channel::from_connection(conns.server, {}, bytes{1});
  auto other = channel::from_connection(conns.server, {}, bytes{2});
  ASSERT_TRUE(c && s && other);
  EXPECT_EQ(c->aead(), record_aead::aes128_gcm);
  const bytes m = msg_of("over udp");
  const auto r = open_copy(*s, seal_one(*c, m));
  ASSERT_EQ(r.data.size(), 1u);
  EXPECT_EQ(r.data[0], m);
  EXPECT_EQ(open_copy(*c, seal_one(*s, m)).data.size(), 1u);
  // Another context is another channel.
  EXPECT_TRUE(open_copy(*other, seal_one(*c, m)).data.empty());
  const stats so = other->statistics();
  EXPECT_EQ(so.forged + so.stale_epoch + so.replayed, 1u);

  // Not before the handshake.
  auto fresh = record::connection::client(cc);
  ASSERT_TRUE(fresh);
  EXPECT_EQ(channel::from_connection(*fresh).error(), datagram_errc::bad_state);
}

TEST(DatagramConfig, LimitsAreChecked) {
  const bytes s(32, 1);
  auto bad = [&](auto edit) {
    config c;
    edit(c);
    return channel::from_secrets(record_aead::chacha20_poly1305, hpke::kdf_id::hkdf_sha256, s, s, c).error();
  };
  const std::error_code invalid = datagram_errc::invalid_config;
  EXPECT_EQ(bad([](config& c) { c.max_datagram_size = 63; }), invalid);
  EXPECT_EQ(bad([](config& c) { c.max_datagram_size = max_udp_payload + 1; }), invalid);
  EXPECT_EQ(bad([](config& c) { c.sequence_bits = 24; }), invalid);
  EXPECT_EQ(bad([](config& c) { c.replay_window = 100; }), invalid);
  EXPECT_EQ(bad([](config& c) { c.replay_window = 32768 + 64; }), invalid);
  EXPECT_EQ(bad([](config& c) { c.key_update_after = 0; }), invalid);
  EXPECT_EQ(channel::from_secrets(record_aead::chacha20_poly1305, hpke::kdf_id::hkdf_sha256, bytes(31), s).error(),
            std::make_error_code(std::errc::invalid_argument));
  EXPECT_EQ(channel::from_secrets(static_cast<record_aead>(9), hpke::kdf_id::hkdf_sha256, s, s).error(),
            record_errc::unsupported_algorithm);
}

// ---- loss, duplication, reordering -----------------------------------------

TEST_P(Datagram, LossDuplicationAndReorderingWithinTheWindow) {
  auto p = make_pair(GetParam());
  std::vector<bytes> d;
  for (int i = 0; i < 200; ++i) d.push_back(seal_one(p.a, numbered("m", i)));
  std::set<std::uint64_t> got;
  // Every third lost; the rest backwards; then each one again.
  for (int i = 199; i >= 0; --i) {
    if (i % 3 == 0) continue;
    const auto r = open_copy(p.b, d[i]);
    ASSERT_EQ(r.data.size(), 1u) << i;
    EXPECT_EQ(r.data[0], numbered("m", i));
    EXPECT_EQ(r.seqs[0], static_cast<std::uint64_t>(i));
    EXPECT_TRUE(got.insert(r.seqs[0]).second);
  }
  for (int i = 0; i < 200; ++i) {
    if (i % 3 == 0) continue;
    EXPECT_TRUE(open_copy(p.b, d[i]).data.empty()) << "duplicate " << i;
  }
  const stats st = p.b.statistics();
  EXPECT_EQ(st.delivered, got.size());
  EXPECT_EQ(st.replayed, got.size());
  EXPECT_EQ(st.forged, 0u);
  // A lost one that arrives late still opens (within the window).
  EXPECT_EQ(open_copy(p.b, d[99]).data.size(), 1u);
}

TEST_P(Datagram, ReorderingBeyondTheWindow) {
  config cfg;
  cfg.replay_window = 64;
  auto p = make_pair(GetParam(), cfg);
  std::vector<bytes> d;
  for (int i = 0; i < 200; ++i) d.push_back(seal_one(p.a, msg_of("x")));
  EXPECT_EQ(open_copy(p.b, d[199]).data.size(), 1u);
  EXPECT_EQ(open_copy(p.b, d[136]).data.size(), 1u);  // 199 - 136 = 63: the window's oldest slot
  EXPECT_TRUE(open_copy(p.b, d[135]).data.empty());   // 64 behind: too old
  EXPECT_TRUE(open_copy(p.b, d[0]).data.empty());
  EXPECT_EQ(p.b.statistics().replayed, 2u);
  EXPECT_EQ(p.b.statistics().forged, 0u);
}

TEST_P(Datagram, AWindowThatIsNoPowerOfTwoKeepsItsSize) {
  // 192 records, kept in a ring of 256 bits: the window is still 192.
  config cfg;
  cfg.replay_window = 192;
  auto p = make_pair(GetParam(), cfg);
  std::vector<bytes> d;
  for (int i = 0; i < 700; ++i) d.push_back(seal_one(p.a, msg_of("x")));
  EXPECT_EQ(open_copy(p.b, d[599]).data.size(), 1u);
  EXPECT_EQ(open_copy(p.b, d[408]).data.size(), 1u);  // 600 - 408 = 192: the oldest in the window
  EXPECT_TRUE(open_copy(p.b, d[407]).data.empty());   // 193 behind: too old, though its ring bit is free
  EXPECT_TRUE(open_copy(p.b, d[408]).data.empty());   // a duplicate
  EXPECT_EQ(open_copy(p.b, d[420]).data.size(), 1u);
  EXPECT_EQ(open_copy(p.b, d[676]).data.size(), 1u);  // 420 + 256: the same ring bit as 420
  EXPECT_EQ(open_copy(p.b, d[500]).data.size(), 1u);  // 177 behind, never seen
  EXPECT_TRUE(open_copy(p.b, d[500]).data.empty());
  EXPECT_TRUE(open_copy(p.b, d[676]).data.empty());
  EXPECT_EQ(open_copy(p.b, d[640]).data.size(), 1u);
  EXPECT_EQ(p.b.statistics().replayed, 4u);
  EXPECT_EQ(p.b.statistics().forged, 0u);
}

TEST_P(Datagram, ReplayOfARecordedDatagramLater) {
  auto p = make_pair(GetParam());
  const bytes recorded = seal_one(p.a, msg_of("pay 10"));
  EXPECT_EQ(open_copy(p.b, recorded).data.size(), 1u);
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(open_copy(p.b, seal_one(p.a, msg_of("tick"))).data.size(), 1u);
  EXPECT_TRUE(open_copy(p.b, recorded).data.empty());
  EXPECT_EQ(p.b.statistics().replayed, 1u);
}

TEST_P(Datagram, SixteenBitSequenceNumbersAcrossTheWrap) {
  for (const unsigned bits : {16u, 32u}) {
    config cfg;
    cfg.sequence_bits = bits;
    cfg.key_update_after = std::uint64_t{1} << 48;  // no automatic epoch at 2^32
    auto p = make_pair(GetParam(), cfg);
    const std::uint64_t start = (std::uint64_t{1} << bits) - 5;
    // The receiver learns the region from a first record; then the wrap.
    hook::set_send_sequence(p.a, start - 100);
    ASSERT_EQ(open_copy(p.b, seal_one(p.a, msg_of("first"))).data.size(), 1u);
    hook::set_send_sequence(p.a, start);
    std::vector<bytes> d;
    for (int i = 0; i < 10; ++i) d.push_back(seal_one(p.a, msg_of("w")));
    for (int i : {9, 3, 0, 8, 1, 2, 4, 7, 5, 6}) {
      const auto r = open_copy(p.b, d[i]);
      ASSERT_EQ(r.seqs.size(), 1u) << bits << " " << i;
      EXPECT_EQ(r.seqs[0], start + i);
    }
  }
}

// ---- damaged and forged datagrams -----------------------------------------

TEST_P(Datagram, EveryBitFlipIsDroppedAndNothingElseChanges) {
  auto a = make_channel(GetParam(), true);
  const bytes m1 = msg_of("one"), m2 = msg_of("two!");
  const bytes_view msgs[] = {m1, m2};
  bytes d(200);
  d.resize(a.seal(d, msgs).value());
  for (std::size_t bit = 0; bit < 8 * d.size(); ++bit) {
    auto b = make_channel(GetParam(), false);
    bytes t = d;
    t[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    const auto r = open_copy(b, t);
    // The damaged record never opens; the other may, unaltered.
    ASSERT_LE(r.data.size(), 1u) << bit;
    for (std::size_t i = 0; i < r.data.size(); ++i) {
      EXPECT_TRUE((r.data[i] == m1 && r.seqs[i] == 0) || (r.data[i] == m2 && r.seqs[i] == 1)) << bit;
    }
    const stats st = b.statistics();
    EXPECT_EQ(st.delivered + st.forged + st.malformed + st.stale_epoch + st.replayed >= 1, true) << bit;
  }
}

TEST_P(Datagram, TruncatedDatagrams) {
  auto a = make_channel(GetParam(), true);
  const bytes m1 = msg_of("abc"), m2(40, 2);
  const bytes_view msgs[] = {m1, m2};
  bytes d(200);
  d.resize(a.seal(d, msgs).value());
  const std::size_t first = 5 + m1.size() + 16;
  for (std::size_t len = 0; len < d.size(); ++len) {
    auto b = make_channel(GetParam(), false);
    const auto r = open_copy(b, bytes(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(len)));
    // The first record is whole from `first` bytes on; the second never is.
    EXPECT_EQ(r.data.size(), len >= first ? 1u : 0u) << len;
    if (!r.data.empty()) {
      EXPECT_EQ(r.data[0], m1);
    }
  }
}

TEST_P(Datagram, ForgedDatagramsAreCountedAndDropped) {
  auto p = make_pair(GetParam());
  sealwire::test::seeded_random rng(0xf0);
  for (int i = 0; i < 100; ++i) {
    bytes f = rng.fill(21 + rng.uniform(100));
    f[0] = static_cast<std::uint8_t>(0x20 | (f[0] & 0x0b));  // well-formed first byte, no length
    bytes buf = f;
    std::vector<message> out;
    ASSERT_EQ(p.b.open(buf, out, t0).value(), 0u);
    // Nothing released, and the record's body was wiped in place.
    const std::size_t hlen = (f[0] & 0x08) != 0 ? 5 : 3;
    EXPECT_EQ(bytes(buf.begin() + static_cast<std::ptrdiff_t>(hlen), buf.end()), bytes(buf.size() - hlen, 0));
  }
  const stats st = p.b.statistics();
  EXPECT_EQ(st.delivered, 0u);
  EXPECT_EQ(st.forged + st.stale_epoch + st.replayed, 100u);
  // A random epoch is current or next half the time (forged), else two or
  // three ahead: tried under those epochs' keys, failed, counted stale.
  EXPECT_GT(st.forged, 25u);
  EXPECT_GT(st.stale_epoch, 25u);
  EXPECT_EQ(p.b.receive_epoch(), 0u);  // tried under epochs 2 and 3 ahead, never adopted
  EXPECT_EQ(st.epochs_followed, 0u);
  EXPECT_FALSE(p.b.error());
  // The channel still works.
  EXPECT_EQ(open_copy(p.b, seal_one(p.a, msg_of("ok"))).data.size(), 1u);
  // Garbage that is not a record at all.
  bytes junk = {0xff, 1, 2, 3};
  std::vector<message> out;
  EXPECT_EQ(p.b.open(junk, out, t0).value(), 0u);
  EXPECT_EQ(p.b.statistics().malformed, 1u);
}

TEST_P(Datagram, IntegrityLimitEndsTheChannel) {
  config cfg;
  cfg.integrity_limit = 5;
  auto p = make_pair(GetParam(), cfg);
  for (int i = 0; i < 4; ++i) {
    bytes d = seal_one(p.a, msg_of("m"));
    d.back() ^= 1;
    EXPECT_TRUE(open_copy(p.b, d).data.empty());
  }
  EXPECT_FALSE(p.b.error());
  EXPECT_EQ(open_copy(p.b, seal_one(p.a, msg_of("still fine"))).data.size(), 1u);
  bytes d = seal_one(p.a, msg_of("m"));
  d.back() ^= 1;
  std::vector<message> out;
  EXPECT_EQ(p.b.open(d, out, t0).error(), datagram_errc::integrity_limit_reached);
  EXPECT_EQ(p.b.error(), datagram_errc::integrity_limit_reached);
  EXPECT_TRUE(hook::receive_keys_wiped(p.b));
  bytes good = seal_one(p.a, msg_of("late"));
  EXPECT_EQ(p.b.open(good, out, t0).error(), datagram_errc::integrity_limit_reached);
  bytes buf(100);
  EXPECT_EQ(p.b.seal(buf, msg_of("x")).error(), datagram_errc::integrity_limit_reached);
  EXPECT_EQ(p.b.update_keys(t0).error(), datagram_errc::integrity_limit_reached);
  EXPECT_TRUE(hook::keys_wiped(p.b));  // the sending side wiped its own
  EXPECT_EQ(std::error_code(datagram_errc::integrity_limit_reached), condition::limit_reached);
}

// ---- epochs ---------------------------------------------------------------

TEST_P(Datagram, KeyUpdateAndThePreviousEpochsLifetime) {
  config cfg;
  cfg.previous_epoch_lifetime = 3s;
  auto p = make_pair(GetParam(), cfg);
  const bytes old1 = seal_one(p.a, msg_of("old 1")), old2 = seal_one(p.a, msg_of("old 2"));
  ASSERT_TRUE(p.a.update_keys(t0));
  EXPECT_EQ(p.a.send_epoch(), 1u);
  EXPECT_EQ(p.a.update_keys(t0 + 2s).error(), datagram_errc::update_too_soon);
  const bytes new1 = seal_one(p.a, msg_of("new 1"));
  auto r = open_copy(p.b, new1, t0 + 1s);
  ASSERT_EQ(r.data.size(), 1u);
  EXPECT_EQ(r.epochs[0], 1u);
  EXPECT_EQ(r.seqs[0], 0u);
  EXPECT_EQ(p.b.receive_epoch(), 1u);
  // Reordered behind the update, within the lifetime: opens in epoch 0.
  r = open_copy(p.b, old1, t0 + 3s);
  ASSERT_EQ(r.data.size(), 1u);
  EXPECT_EQ(r.epochs[0], 0u);
  EXPECT_TRUE(open_copy(p.b, old1, t0 + 3s).data.empty());  // and only once
  // After the lifetime the previous epoch's keys are gone.
  EXPECT_TRUE(open_copy(p.b, old2, t0 + 4s + 1ms).data.empty());
  EXPECT_EQ(p.b.statistics().stale_epoch, 1u);
  EXPECT_EQ(p.b.statistics().epochs_followed, 1u);
  // More updates, spaced: the receiver follows each.
  for (int e = 2; e < 7; ++e) {
    ASSERT_TRUE(p.a.update_keys(t0 + std::chrono::seconds(3 * e)));
    r = open_copy(p.b, seal_one(p.a, msg_of("e")), t0 + std::chrono::seconds(3 * e));
    ASSERT_EQ(r.epochs.size(), 1u);
    EXPECT_EQ(r.epochs[0], static_cast<std::uint64_t>(e));
  }
}

// forge_last flips the last byte of a datagram's tag: the sample (and so the
// epoch bits the receiver unprotects) stays, authentication fails.
bytes forge_last(bytes d) {
  d.back() ^= 1;
  return d;
}

TEST_P(Datagram, EpochsWhoseRecordsWereAllLostAreCrossed) {
  config cfg;
  cfg.previous_epoch_lifetime = 3s;
  auto p = make_pair(GetParam(), cfg);
  const bytes old0 = seal_one(p.a, msg_of("epoch 0"));
  ASSERT_EQ(open_copy(p.b, seal_one(p.a, msg_of("0")), t0).epochs.size(), 1u);
  // Every record of epoch 1 is lost for the whole lifetime (one arrives late).
  ASSERT_TRUE(p.a.update_keys(t0));
  const bytes late1 = seal_one(p.a, msg_of("epoch 1"));
  static_cast<void>(seal_one(p.a, msg_of("lost")));
  ASSERT_TRUE(p.a.update_keys(t0 + 3s));
  // Epoch 2 (two ahead): a forged record moves nothing, a genuine one is adopted.
  const bytes e2 = seal_one(p.a, msg_of("epoch 2"));
  EXPECT_TRUE(open_copy(p.b, forge_last(e2), t0 + 4s).data.empty());
  EXPECT_EQ(p.b.receive_epoch(), 0u);
  EXPECT_EQ(p.b.statistics().epochs_followed, 0u);
  EXPECT_EQ(p.b.statistics().stale_epoch, 1u);
  auto r = open_copy(p.b, e2, t0 + 4s);
  ASSERT_EQ(r.data.size(), 1u);
  EXPECT_EQ(r.data[0], msg_of("epoch 2"));
  EXPECT_EQ(r.epochs[0], 2u);
  EXPECT_EQ(p.b.receive_epoch(), 2u);
  EXPECT_EQ(p.b.statistics().epochs_followed, 2u);
  // Epoch 1 is now the previous epoch: its late record opens within the lifetime.
  r = open_copy(p.b, late1, t0 + 5s);
  ASSERT_EQ(r.epochs.size(), 1u);
  EXPECT_EQ(r.epochs[0], 1u);
  // Epoch 0's are gone (its bits now name epoch 4): dropped as stale.
  EXPECT_TRUE(open_copy(p.b, old0, t0 + 5s).data.empty());
  // Two more epochs lost (3 and 4): epoch 5 is three ahead, followed once the
  // previous epoch (1) has expired; a forged record of it moves nothing.
  ASSERT_TRUE(p.a.update_keys(t0 + 6s));
  ASSERT_TRUE(p.a.update_keys(t0 + 9s));
  ASSERT_TRUE(p.a.update_keys(t0 + 12s));
  const bytes e5 = seal_one(p.a, msg_of("epoch 5"));
  const stats before = p.b.statistics();
  EXPECT_TRUE(open_copy(p.b, forge_last(e5), t0 + 12s).data.empty());
  EXPECT_EQ(p.b.receive_epoch(), 2u);
  EXPECT_EQ(p.b.statistics().stale_epoch, before.stale_epoch + 1);
  r = open_copy(p.b, e5, t0 + 12s);
  ASSERT_EQ(r.epochs.size(), 1u);
  EXPECT_EQ(r.epochs[0], 5u);
  EXPECT_EQ(r.seqs[0], 0u);
  EXPECT_EQ(p.b.receive_epoch(), 5u);
  EXPECT_EQ(p.b.statistics().epochs_followed, 5u);
  EXPECT_EQ(p.b.statistics().forged, 0u);
  // And the channel goes on: epoch 6, one ahead, as usual.
  ASSERT_TRUE(p.a.update_keys(t0 + 15s));
  r = open_copy(p.b, seal_one(p.a, msg_of("epoch 6")), t0 + 15s);
  ASSERT_EQ(r.epochs.size(), 1u);
  EXPECT_EQ(r.epochs[0], 6u);
}

TEST_P(Datagram, ARecordAheadWithinThePreviousLifetimeIsThePreviousEpoch) {
  // Three epochs ahead shares its bits with the previous epoch: while that
  // is kept, the record is tried as the previous epoch's (and fails).
  config cfg;
  cfg.previous_epoch_lifetime = 3s;
  auto p = make_pair(GetParam(), cfg);
  ASSERT_TRUE(p.a.update_keys(t0));
  ASSERT_EQ(open_copy(p.b, seal_one(p.a, msg_of("1")), t0 + 9s).epochs.size(), 1u);  // previous kept to 12 s
  ASSERT_TRUE(p.a.update_keys(t0 + 3s));
  ASSERT_TRUE(p.a.update_keys(t0 + 6s));
  ASSERT_TRUE(p.a.update_keys(t0 + 9s));
  const bytes e4 = seal_one(p.a, msg_of("epoch 4"));
  EXPECT_TRUE(open_copy(p.b, e4, t0 + 11s).data.empty());
  EXPECT_EQ(p.b.statistics().forged, 1u);  // under epoch 0's key
  EXPECT_EQ(p.b.receive_epoch(), 1u);
  // A later copy, after the lifetime, is epoch 4's.
  const auto r = open_copy(p.b, e4, t0 + 12s);
  ASSERT_EQ(r.epochs.size(), 1u);
  EXPECT_EQ(r.epochs[0], 4u);
}

// seal_at seals one message at time `now` into a datagram of its own (empty on an error, returned in `err`).
bytes seal_at(channel& c, bytes_view msg, clock::time_point now, std::error_code* err = nullptr) {
  bytes out(c.max_message_size() + 64);
  const auto n = c.seal(out, msg, now);
  if (err != nullptr) *err = n ? std::error_code{} : n.error();
  out.resize(n.value_or(0));
  return out;
}

TEST_P(Datagram, AutomaticEpochsAreSpacedAsKeyUpdates) {
  config cfg;
  cfg.key_update_after = 3;
  cfg.previous_epoch_lifetime = 3s;
  auto p = make_pair(GetParam(), cfg);
  std::vector<std::uint64_t> epochs;
  const auto send = [&](clock::time_point now) {
    const auto r = open_copy(p.b, seal_at(p.a, msg_of("n"), now), now);
    ASSERT_EQ(r.epochs.size(), 1u);
    epochs.push_back(r.epochs[0]);
  };
  // The first automatic epoch may start at once; the next one waits for the
  // lifetime, the epoch going on past key_update_after meanwhile.
  for (int i = 0; i < 8; ++i) send(t0);
  send(t0 + 2999ms);
  send(t0 + 3s);
  EXPECT_EQ(epochs, (std::vector<std::uint64_t>{0, 0, 0, 1, 1, 1, 1, 1, 1, 2}));
  EXPECT_EQ(p.a.statistics().epochs_started, 2u);
  // An automatic epoch counts as an update for update_keys, and the other way round.
  EXPECT_EQ(p.a.update_keys(t0 + 5s).error(), datagram_errc::update_too_soon);
  ASSERT_TRUE(p.a.update_keys(t0 + 6s));
  epochs.clear();
  for (int i = 0; i < 4; ++i) send(t0 + 6s);
  send(t0 + 9s);
  EXPECT_EQ(epochs, (std::vector<std::uint64_t>{3, 3, 3, 3, 4}));
  // The receiver followed every epoch: nothing dropped as stale or forged.
  const stats rs = p.b.statistics();
  EXPECT_EQ(rs.epochs_followed, 4u);
  EXPECT_EQ(rs.stale_epoch + rs.forged + rs.replayed, 0u);

}

TEST_P(Datagram, AHardKeyLimitIsNeverCrossedToUpdateSooner) {
  config cfg;
  cfg.previous_epoch_lifetime = 3s;
  cfg.key_blocks_limit = 6;  // three records of up to 16 bytes (1 + 1 blocks each) per key
  auto p = make_pair(GetParam(), cfg);
  for (int i = 0; i < 6; ++i) {  // epoch 0: three records; the fourth starts epoch 1 (the first may come at once)
    ASSERT_EQ(open_copy(p.b, seal_at(p.a, msg_of("sixteen bytes..."), t0), t0).epochs.size(), 1u);
  }
  EXPECT_EQ(p.a.send_epoch(), 1u);
  // Epoch 1 is full and epoch 2 may not start yet: refused, nothing changed.
  std::error_code err;
  const std::uint64_t seq = hook::send_sequence(p.a);
  EXPECT_TRUE(seal_at(p.a, msg_of("m"), t0 + 2s, &err).empty());
  EXPECT_EQ(err, datagram_errc::update_too_soon);
  EXPECT_EQ(hook::send_sequence(p.a), seq);
  EXPECT_EQ(p.a.send_epoch(), 1u);
  EXPECT_EQ(p.a.statistics().sealed, 6u);
  const auto r = open_copy(p.b, seal_at(p.a, msg_of("m"), t0 + 3s), t0 + 3s);
  ASSERT_EQ(r.epochs.size(), 1u);
  EXPECT_EQ(r.epochs[0], 2u);
  // A datagram of several records needing two new epochs is refused whole.
  const bytes m = msg_of("x");
  const std::array<bytes_view, 6> six = {m, m, m, m, m, m};
  bytes out(200);
  EXPECT_EQ(p.a.seal(out, six, t0 + 6s).error(), datagram_errc::update_too_soon);
  EXPECT_EQ(p.a.send_epoch(), 2u);
  EXPECT_EQ(hook::send_sequence(p.a), 1u);
  // Five fit: two in epoch 2, three in epoch 3, all opening.
  const auto n = p.a.seal(out, std::span(six).first(5), t0 + 6s);
  ASSERT_TRUE(n);
  out.resize(*n);
  const auto five = open_copy(p.b, out, t0 + 6s);
  EXPECT_EQ(five.epochs, (std::vector<std::uint64_t>{2, 2, 3, 3, 3}));
  // A message that alone exceeds the per-key limit can never be sealed.
  const bytes big(100);  // 1 + 7 blocks
  EXPECT_EQ(p.a.seal(out, big, t0 + 60s).error(), datagram_errc::message_too_large);
}

// ---- header protection ---------------------------------------------------

// mask_by_openssl computes the 9.3 mask with OpenSSL from the hp key.
bytes mask_by_openssl(record_aead aead, const bytes& hp, const std::uint8_t* sample) {
  bytes out(16 + 16);
  int len = 0;
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  const bool aes = aead == record_aead::aes128_gcm || aead == record_aead::aes256_gcm;
  if (aes) {
    EXPECT_EQ(EVP_EncryptInit_ex(ctx, hp.size() == 16 ? EVP_aes_128_ecb() : EVP_aes_256_ecb(), nullptr, hp.data(),
                                 nullptr), 1);
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    EXPECT_EQ(EVP_EncryptUpdate(ctx, out.data(), &len, sample, 16), 1);
  } else {
    // OpenSSL's ChaCha20 IV is the 32-bit little-endian counter || the 96-bit nonce: the sample as it is.
    const bytes zeros(5);
    EXPECT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, hp.data(), sample), 1);
    EXPECT_EQ(EVP_EncryptUpdate(ctx, out.data(), &len, zeros.data(), 5), 1);
  }
  EVP_CIPHER_CTX_free(ctx);
  out.resize(5);
  return out;
}

TEST_P(Datagram, HeaderProtectionMatchesAnIndependentComputation) {
  config cfg;
  cfg.sequence_bits = 32;
  auto p = make_pair(GetParam(), cfg);
  const auto& s = hook::suite_of(p.a);
  bytes hp(s.nhp);
  const bytes sa = secret_a();
  record::detail::expand_label(s.kdf, hp, bytes_view(sa).first(s.nh), "dg hp", {});
  hook::set_send_sequence(p.a, 0x01020304);
  const bytes d = seal_one(p.a, msg_of("protected header"));
  const bytes mask = mask_by_openssl(GetParam(), hp, d.data() + 5);
  bytes h(d.begin(), d.begin() + 5);
  h[0] ^= mask[0] & 3;
  for (int i = 0; i < 4; ++i) h[1 + i] ^= mask[1 + i];
  EXPECT_EQ(h, (bytes{0x28, 0x01, 0x02, 0x03, 0x04}));
  // The header on the wire differs from the clear one (with overwhelming
  // probability for this fixed key and sample, checked here).
  EXPECT_NE(bytes(d.begin(), d.begin() + 5), h);

  // Another sample gives another mask: the same header bytes unprotect to
  // another sequence number, and the record does not open.
  bytes other = d;
  other[5] ^= 0x80;  // the first sample byte
  const bytes mask2 = mask_by_openssl(GetParam(), hp, other.data() + 5);
  EXPECT_NE(mask, mask2);
  std::vector<message> out;
  bytes buf = other;
  ASSERT_TRUE(p.b.open(buf, out));
  EXPECT_TRUE(out.empty());
  // What the receiver unprotected (in place) is the header under mask2.
  bytes h2(d.begin(), d.begin() + 5);
  h2[0] ^= mask2[0] & 3;
  for (int i = 0; i < 4; ++i) h2[1 + i] ^= mask2[1 + i];
  EXPECT_EQ(bytes(buf.begin(), buf.begin() + 5), h2);
  EXPECT_NE(h2, h);
}

// ---- sizes -----------------------------------------------------------------

TEST_P(Datagram, OversizeMessagesAreRefusedWhole) {
  auto p = make_pair(GetParam());
  EXPECT_EQ(p.a.max_message_size(), 1200u - 3 - 16);
  bytes out(2000);
  const bytes fits(p.a.max_message_size(), 1), over(p.a.max_message_size() + 1, 1);
  auto n = p.a.seal(out, fits);
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 1200u);
  EXPECT_EQ(p.a.seal(out, over).error(), datagram_errc::message_too_large);
  const bytes half(600, 2);
  const bytes_view two[] = {half, half};
  EXPECT_EQ(p.a.seal(out, two).error(), datagram_errc::message_too_large);
  bytes small(100);
  EXPECT_EQ(p.a.seal(small, half).error(), datagram_errc::buffer_too_small);
  EXPECT_EQ(std::error_code(datagram_errc::message_too_large), condition::limit_reached);
  // Nothing refused consumed a sequence number.
  EXPECT_EQ(hook::send_sequence(p.a), 1u);
  out.resize(*n);
  EXPECT_EQ(open_copy(p.b, out).data.at(0), fits);
  config big;
  big.max_datagram_size = 9000;
  big.sequence_bits = 32;
  EXPECT_EQ(make_channel(GetParam(), true, big).max_message_size(), 9000u - 5 - 16);
}

// ---- sequence reconstruction ---------------------------------------------

TEST(DatagramSequence, ReconstructionAsRfc9000A3) {
  using record::datagram::detail::reconstruct;
  // RFC 9000 A.3's example: largest 0xa82f30ea, 16 bits 0x9b32.
  EXPECT_EQ(reconstruct(0xa82f30ea + 1, 0x9b32, 16), 0xa82f9b32u);
  EXPECT_EQ(reconstruct(0, 5, 16), 5u);
  EXPECT_EQ(reconstruct(0, 0xfffe, 16), 0xfffeu);  // nothing below 0
  EXPECT_EQ(reconstruct(0x10000, 0xffff, 16), 0xffffu);
  EXPECT_EQ(reconstruct(0xfff0, 0x0003, 16), 0x10003u);
  EXPECT_EQ(reconstruct(0x18000, 0x8000, 16), 0x18000u);
  EXPECT_EQ(reconstruct(0x18001, 0x8000, 16), 0x18000u);
  EXPECT_EQ(reconstruct(0x100000000, 0xffffffff, 32), 0xffffffffu);
  EXPECT_EQ(reconstruct(0xfffffff0, 2, 32), 0x100000002u);
  // Exhaustive near expected: the result is the closest match.
  for (std::uint64_t expected : {std::uint64_t{40000}, std::uint64_t{1} << 20}) {
    for (std::int64_t delta = -32767; delta <= 32768; delta += 97) {
      const std::uint64_t seq = expected + static_cast<std::uint64_t>(delta);
      EXPECT_EQ(reconstruct(expected, seq & 0xffff, 16), seq) << expected << " " << delta;
    }
  }
}

}  // namespace
