// SPDX-License-Identifier: Apache-2.0
// The sans-IO record connection: handshake, data, fragmentation, key
// updates, limits and configuration errors.
#include <sealwire/record/connection.hpp>

#include <sealwire/hpke/context.hpp>

#include "harness.hpp"
#include "detail/kdf.hpp"  // the hand-built handshakes

#include <gtest/gtest.h>

#include <limits>
#include <tuple>

namespace sealwire::record::test {
namespace {

using sealwire::test::seeded_random;

bytes pattern(std::size_t n, std::uint8_t seed = 0) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 31 + seed + (i >> 8));
  return b;
}

// send moves data from one side to the other through the wire and returns
// what the receiver released.
bytes send(connection& from, connection& to, bytes_view data, const splitter& split = whole()) {
  bytes wire, got;
  write_all(from, data, wire);
  const auto e = deliver(to, wire, split, &got);
  EXPECT_FALSE(e) << e.message();
  return got;
}

// ---- handshake across suites, both directions, client auth on and off ----

using suite_param = std::tuple<hpke::kem_id, hpke::kdf_id, record_aead, bool>;

class RecordSuites : public ::testing::TestWithParam<suite_param> {};

TEST_P(RecordSuites, HandshakeAndDataBothWays) {
  const auto [kem, kdf, aead, client_auth] = GetParam();
  auto server_key = make_key(kem);
  auto cc = client_cfg(*server_key);
  cc->kdf = kdf;
  cc->aeads = {aead};
  std::shared_ptr<const hpke::private_key> client_key;
  if (client_auth) {
    client_key = make_key(kem);
    cc->client_key = client_key;
  }
  auto sc = server_cfg(server_key);
  sc->require_client_auth = client_auth;
  auto p = connected(cc, sc);
  ASSERT_TRUE(p.client.handshake_complete());
  ASSERT_TRUE(p.server.handshake_complete());
  EXPECT_EQ(p.client.aead(), aead);
  EXPECT_EQ(p.server.aead(), aead);
  EXPECT_EQ(p.server.kdf(), kdf);
  if (client_auth) {
    const auto pk = client_key->public_key().bytes();
    EXPECT_EQ(bytes(p.server.peer_public_key().begin(), p.server.peer_public_key().end()), bytes(pk.begin(), pk.end()));
  } else {
    EXPECT_TRUE(p.server.peer_public_key().empty());
  }
  for (std::size_t n : {1u, 17u, 1000u, 16384u, 16385u, 70000u}) {
    const bytes a = pattern(n, 1), b = pattern(n, 2);
    EXPECT_EQ(send(p.client, p.server, a), a) << n;
    EXPECT_EQ(send(p.server, p.client, b), b) << n;
  }
  // Clean close in both directions.
  ASSERT_TRUE(p.client.close().has_value());
  bytes got;
  EXPECT_FALSE(deliver(p.server, take_pending(p.client), whole(), &got));
  EXPECT_TRUE(p.server.peer_closed());
  EXPECT_TRUE(p.server.end_of_input().has_value());
}

std::string suite_name(const ::testing::TestParamInfo<suite_param>& info) {
  const auto kem = std::get<0>(info.param);
  const auto kdf = std::get<1>(info.param);
  const auto aead = std::get<2>(info.param);
  const bool auth = std::get<3>(info.param);
  return std::string(kem == hpke::kem_id::x25519 ? "X25519" : "X448") + "_SHA" +
         (kdf == hpke::kdf_id::hkdf_sha256 ? "256" : kdf == hpke::kdf_id::hkdf_sha384 ? "384" : "512") +
         (aead == record_aead::chacha20_poly1305    ? "_ChaCha"
          : aead == record_aead::xchacha20_poly1305 ? "_XChaCha"
          : aead == record_aead::aes128_gcm         ? "_AES128GCM"
                                                    : "_AES256GCM") +
         (auth ? "_ClientAuth" : "_NoAuth");
}

INSTANTIATE_TEST_SUITE_P(All, RecordSuites,
                         ::testing::Combine(::testing::Values(hpke::kem_id::x25519, hpke::kem_id::x448),
                                            ::testing::Values(hpke::kdf_id::hkdf_sha256, hpke::kdf_id::hkdf_sha384,
                                                              hpke::kdf_id::hkdf_sha512),
                                            ::testing::Values(record_aead::chacha20_poly1305,
                                                              record_aead::xchacha20_poly1305, record_aead::aes128_gcm,
                                                              record_aead::aes256_gcm),
                                            ::testing::Bool()),
                         suite_name);

// ---- negotiation and handshake failures ----

TEST(RecordHandshake, ServerPicksTheClientsFirstSupportedAead) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->aeads = {record_aead::xchacha20_poly1305, record_aead::chacha20_poly1305};
  auto sc = server_cfg(key);
  auto p = connected(cc, sc);
  EXPECT_EQ(p.server.aead(), record_aead::xchacha20_poly1305);
  sc->aeads = {record_aead::chacha20_poly1305};
  auto q = connected(cc, sc);
  EXPECT_EQ(q.server.aead(), record_aead::chacha20_poly1305);
  EXPECT_EQ(q.client.aead(), record_aead::chacha20_poly1305);
}

TEST(RecordHandshake, WrongPinnedServerKeyFailsOnTheClient) {
  auto real = make_key(hpke::kem_id::x25519);
  auto other = make_key(hpke::kem_id::x25519);
  auto c = connection::client(client_cfg(*other));
  auto s = connection::server(server_cfg(real));
  ASSERT_TRUE(c && s);
  const auto e = run_handshake(*c, *s);
  EXPECT_EQ(e, record_errc::server_key_mismatch) << e.message();
  EXPECT_EQ(c->error(), record_errc::server_key_mismatch);
  EXPECT_FALSE(c->handshake_complete());
  EXPECT_TRUE(c->pending().empty());  // no ClientFinished for an impostor
  // The server never gets a ClientFinished: it sees the transport end.
  EXPECT_FALSE(s->handshake_complete());
  EXPECT_EQ(s->end_of_input().error(), record_errc::truncated);
}

TEST(RecordHandshake, ClientAuthRequiredAndPolicy) {
  auto key = make_key(hpke::kem_id::x25519);
  auto sc = server_cfg(key);
  sc->require_client_auth = true;
  {
    auto c = connection::client(client_cfg(*key));
    auto s = connection::server(sc);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::client_auth_required);
  }
  auto allowed = make_key(hpke::kem_id::x25519);
  auto refused = make_key(hpke::kem_id::x25519);
  const auto allowed_pk = allowed->public_key().bytes();
  sc->accept_client = [allowed_pk = bytes(allowed_pk.begin(), allowed_pk.end())](bytes_view pk) {
    return bytes(pk.begin(), pk.end()) == allowed_pk;
  };
  {
    auto cc = client_cfg(*key);
    cc->client_key = refused;
    auto c = connection::client(cc);
    auto s = connection::server(sc);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::handshake_failed);
    EXPECT_FALSE(s->handshake_complete());
  }
  {
    auto cc = client_cfg(*key);
    cc->client_key = allowed;
    auto p = connected(cc, sc);
    EXPECT_TRUE(p.server.handshake_complete());
  }
}

// A client written by hand from docs/protocol.md (X25519, HKDF-SHA256,
// ChaCha20-Poly1305), independent of connection's own code. It may announce
// a client static key, but it never holds one: it always encapsulates in
// base mode, as an attacker claiming someone else's key would have to.
struct hand_built_client {
  static constexpr hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256;
  static constexpr hpke::suite suite{hpke::kem_id::x25519, kdf, hpke::aead_id::export_only};

  hand_built_client(const hpke::private_key& server, const hpke::public_key* claimed_key)
      : eph(*hpke::generate_key_pair(hpke::kem_id::x25519)) {
    namespace d = record::detail;
    hpke::sender_options so;
    so.info = bytes_of("sealwire v1 static");
    auto s1 = *hpke::setup_sender(suite, server.public_key(), so);
    EXPECT_TRUE(s1.context.export_secret(ss1, bytes_of("sealwire v1 ss1")));
    d::writer w(client_hello);
    w.u8(1);       // ClientHello
    w.u8(1);       // one version
    w.u16(1);      // version 1
    w.u16(0x0020);  // X25519
    w.u16(0x0001);  // HKDF-SHA256
    w.u8(1);       // one AEAD
    w.u16(0x0003);  // ChaCha20-Poly1305
    w.u8(claimed_key != nullptr ? 1 : 0);
    w.vec16(s1.enc.bytes());
    w.vec16(eph.pub.bytes());
    if (claimed_key != nullptr) w.vec16(claimed_key->bytes());
  }

  static bytes in_record(bytes_view msg) {
    bytes r(4 + msg.size());
    r[0] = 1;  // handshake record, u24 length
    r[2] = static_cast<std::uint8_t>(msg.size() >> 8);
    r[3] = static_cast<std::uint8_t>(msg.size());
    std::copy(msg.begin(), msg.end(), r.begin() + 4);
    return r;
  }

  // answer takes the server's flight (ServerHello, ServerFinished), reports
  // whether ServerFinished matched this client's key schedule, and returns
  // the ClientFinished record.
  bytes answer(bytes_view flight, bool& server_finished_matched) {
    namespace d = record::detail;
    const auto recs = records_of(flight);
    EXPECT_EQ(recs.size(), 2u);
    const bytes_view sh = flight.subspan(recs[0].offset + 4, recs[0].size - 4);
    const bytes_view sf = flight.subspan(recs[1].offset + 4, recs[1].size - 4);
    hpke::recipient_options ro;
    ro.info = bytes_of("sealwire v1 ephemeral");
    auto ctx2 = *hpke::setup_recipient(suite, sh.subspan(7), eph.priv, ro);
    std::uint8_t ss2[32], hs[32], fin_key[32], th[64], mac[32];
    EXPECT_TRUE(ctx2.export_secret(ss2, bytes_of("sealwire v1 ss2")));
    d::extract(kdf, hs, ss2, ss1);
    d::transcript t(kdf);
    t.update(client_hello);
    t.update(sh);
    t.current(th);
    d::expand_label(kdf, fin_key, hs, "s finished", bytes_view(th, 32));
    d::hmac(kdf, mac, fin_key, bytes_view(th, 32));
    server_finished_matched = bytes(mac, mac + 32) == bytes(sf.begin() + 1, sf.end());
    t.update(sf);
    t.current(th);
    d::expand_label(kdf, fin_key, hs, "c finished", bytes_view(th, 32));
    bytes cf(33);
    cf[0] = 4;
    d::hmac(kdf, std::span<std::uint8_t>(cf.data() + 1, 32), fin_key, bytes_view(th, 32));
    return in_record(cf);
  }

  hpke::key_pair eph;
  std::uint8_t ss1[32] = {};
  bytes client_hello;
};

// The hand-built client, honest (no client key claimed), completes a
// handshake: its key schedule agrees with the server's.
TEST(RecordHandshake, HandBuiltHonestClientSucceeds) {
  auto key = make_key(hpke::kem_id::x25519);
  auto s = connection::server(server_cfg(key));
  hand_built_client c(*key, nullptr);
  ASSERT_FALSE(deliver(*s, hand_built_client::in_record(c.client_hello), whole(), nullptr));
  bool matched = false;
  const bytes cf = c.answer(take_pending(*s), matched);
  EXPECT_TRUE(matched);
  EXPECT_FALSE(deliver(*s, cf, whole(), nullptr));
  EXPECT_TRUE(s->handshake_complete());
}

// The same client announcing key A, which it does not hold. The server's
// AuthDecap with A yields a different ss1, so nothing matches: the
// attacker cannot check ServerFinished, its ClientFinished fails, and A is
// never reported as the peer.
TEST(RecordHandshake, ClientClaimingAKeyItDoesNotHoldFails) {
  auto key = make_key(hpke::kem_id::x25519);
  auto victim = make_key(hpke::kem_id::x25519);
  auto sc = server_cfg(key);
  sc->require_client_auth = true;
  auto s = connection::server(sc);
  hand_built_client c(*key, &victim->public_key());
  ASSERT_FALSE(deliver(*s, hand_built_client::in_record(c.client_hello), whole(), nullptr));
  EXPECT_TRUE(s->peer_public_key().empty());  // not before ClientFinished
  bool matched = true;
  const bytes cf = c.answer(take_pending(*s), matched);
  EXPECT_FALSE(matched);
  EXPECT_EQ(deliver(*s, cf, whole(), nullptr), record_errc::handshake_failed);
  EXPECT_FALSE(s->handshake_complete());
  EXPECT_TRUE(s->peer_public_key().empty());
}

TEST(RecordHandshake, NoCommonSuite) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->aeads = {record_aead::xchacha20_poly1305};
  auto sc = server_cfg(key);
  sc->aeads = {record_aead::chacha20_poly1305};
  {
    auto c = connection::client(cc);
    auto s = connection::server(sc);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::no_common_suite);
  }
  cc->aeads = {record_aead::chacha20_poly1305};
  cc->kdf = hpke::kdf_id::hkdf_sha384;
  sc->kdfs = {hpke::kdf_id::hkdf_sha256};
  {
    auto c = connection::client(cc);
    auto s = connection::server(sc);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::no_common_suite);
  }
}

TEST(RecordHandshake, MalformedClientHellos) {
  auto key = make_key(hpke::kem_id::x25519);
  auto c = connection::client(client_cfg(*key));
  const bytes ch = take_pending(*c);  // header(4) || message
  auto server_error = [&](bytes wire) {
    auto s = connection::server(server_cfg(key));
    return deliver(*s, wire, whole(), nullptr);
  };
  // Every truncation of the message (with the header's length adjusted) is malformed.
  for (std::size_t len = 1; len + 4 < ch.size(); ++len) {
    bytes w(ch.begin(), ch.begin() + 4 + static_cast<std::ptrdiff_t>(len));
    w[1] = 0;
    w[2] = static_cast<std::uint8_t>(len >> 8);
    w[3] = static_cast<std::uint8_t>(len);
    EXPECT_EQ(server_error(w), record_errc::bad_handshake_message) << len;
  }
  // Trailing junk.
  bytes w = ch;
  w.push_back(0);
  w[3] = static_cast<std::uint8_t>(w[3] + 1);
  EXPECT_EQ(server_error(w), record_errc::bad_handshake_message);
  // Unknown version only (versions list = {0x0002}).
  w = ch;
  w[6] = 0x00;
  w[7] = 0x02;
  EXPECT_EQ(server_error(w), record_errc::unsupported_version);
  // Reserved flag bits.
  w = ch;
  const std::size_t flags_at = 4 + 1 + 1 + 2 + 2 + 2 + 1 + 2 * 2;
  w[flags_at] = 0x02;
  EXPECT_EQ(server_error(w), record_errc::bad_handshake_message);
  // A message of the wrong type.
  w = ch;
  w[4] = 3;
  EXPECT_EQ(server_error(w), record_errc::unexpected_record);
  // An empty handshake record, and one above max_handshake_size.
  EXPECT_EQ(server_error(bytes{1, 0, 0, 0}), record_errc::bad_handshake_message);
  EXPECT_EQ(server_error(bytes{1, 0, 0x10, 0x01}), record_errc::record_too_large);
  // A protected record before the handshake.
  EXPECT_EQ(server_error(bytes{2, 0, 0, 20}), record_errc::unexpected_record);
  // An unknown record type.
  EXPECT_EQ(server_error(bytes{9, 0, 0, 1}), record_errc::unexpected_record);
}

TEST(RecordHandshake, ReplayedClientFlightIntoANewConnectionFails) {
  auto key = make_key(hpke::kem_id::x25519);
  auto c = connection::client(client_cfg(*key));
  auto s = connection::server(server_cfg(key));
  bytes client_flight = take_pending(*c);
  ASSERT_FALSE(deliver(*s, client_flight, whole(), nullptr));
  ASSERT_FALSE(deliver(*c, take_pending(*s), whole(), nullptr));
  const bytes finished_and_data = take_pending(*c);  // the ClientFinished
  ASSERT_EQ(records_of(finished_and_data).size(), 1u);
  bytes w;
  write_all(*c, to_bytes("replay me"), w);
  client_flight.insert(client_flight.end(), finished_and_data.begin(), finished_and_data.end());
  client_flight.insert(client_flight.end(), w.begin(), w.end());
  // The original server accepts it...
  bytes got;
  ASSERT_FALSE(deliver(*s, finished_and_data, whole(), nullptr));
  ASSERT_FALSE(deliver(*s, w, whole(), &got));
  EXPECT_EQ(got, to_bytes("replay me"));
  // ...a new server connection, given the same bytes, does not: its fresh
  // encapsulation changes every key after the ClientHello.
  auto s2 = connection::server(server_cfg(key));
  got.clear();
  EXPECT_EQ(deliver(*s2, client_flight, whole(), &got), record_errc::handshake_failed);
  EXPECT_TRUE(got.empty());
  EXPECT_FALSE(s2->handshake_complete());
}

TEST(RecordHandshake, HandshakeRecordAfterTheHandshakeIsUnexpected) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  EXPECT_EQ(deliver(p.client, bytes{1, 0, 0, 2, 3, 0}, whole(), nullptr), record_errc::unexpected_record);
}

TEST(RecordHandshake, InvalidConfigurationsSayWhatIsWrong) {
  auto key = make_key(hpke::kem_id::x25519);
  EXPECT_EQ(connection::client(nullptr).error(), record_errc::missing_key);
  EXPECT_EQ(connection::server(nullptr).error(), record_errc::missing_key);
  auto cc = client_cfg(*key);
  cc->server_key = {};
  EXPECT_EQ(connection::client(cc).error(), record_errc::missing_key);
  cc = client_cfg(*key);
  cc->aeads.clear();
  EXPECT_EQ(connection::client(cc).error(), record_errc::invalid_algorithm_list);
  cc = client_cfg(*key);
  cc->aeads.assign(17, record_aead::chacha20_poly1305);
  EXPECT_EQ(connection::client(cc).error(), record_errc::invalid_algorithm_list);
  cc = client_cfg(*key);
  cc->aeads = {static_cast<record_aead>(0x1234)};
  EXPECT_EQ(connection::client(cc).error(), record_errc::unsupported_algorithm);
  cc = client_cfg(*key);
  cc->kdf = static_cast<hpke::kdf_id>(9);
  EXPECT_EQ(connection::client(cc).error(), record_errc::unsupported_algorithm);
  cc = client_cfg(*make_key(hpke::kem_id::p256));  // an HPKE KEM the record protocol does not offer
  EXPECT_EQ(connection::client(cc).error(), record_errc::unsupported_algorithm);
  cc = client_cfg(*key);
  cc->limits.max_record_size = max_record_size_ceiling + 1;
  EXPECT_EQ(connection::client(cc).error(), record_errc::invalid_limit);
  cc = client_cfg(*key);
  cc->client_key = make_key(hpke::kem_id::x448);  // the pinned key is an X25519 key
  EXPECT_EQ(connection::client(cc).error(), record_errc::kem_mismatch);
  auto sc = server_cfg(nullptr);
  EXPECT_EQ(connection::server(sc).error(), record_errc::missing_key);
  sc = server_cfg(std::make_shared<const hpke::private_key>());
  EXPECT_EQ(connection::server(sc).error(), record_errc::missing_key);
  sc = server_cfg(key);
  sc->kdfs.clear();
  EXPECT_EQ(connection::server(sc).error(), record_errc::invalid_algorithm_list);
  sc = server_cfg(key);
  sc->aeads = {record_aead::aes128_gcm, static_cast<record_aead>(7)};
  EXPECT_EQ(connection::server(sc).error(), record_errc::unsupported_algorithm);
  sc = server_cfg(make_key(hpke::kem_id::p384));
  EXPECT_EQ(connection::server(sc).error(), record_errc::unsupported_algorithm);
  sc = server_cfg(key);
  sc->limits.max_handshake_size = 10;
  EXPECT_EQ(connection::server(sc).error(), record_errc::invalid_limit);
  // A configuration error refuses the connection; every code names its
  // problem and none of them is an authentication failure.
  for (record_errc e : {record_errc::missing_key, record_errc::kem_mismatch, record_errc::unsupported_algorithm,
                        record_errc::invalid_algorithm_list, record_errc::invalid_limit}) {
    EXPECT_NE(make_error_code(e), condition::authentication_failed);
    EXPECT_FALSE(make_error_code(e).message().empty());
  }
}

// ---- fragmentation ----

TEST(RecordFragments, EverySplitPointOfASmallRecord) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  const bytes msg = pattern(100, 7);
  bytes want = msg;
  want.insert(want.end(), msg.begin(), msg.end());
  for (bool to_server : {true, false}) {
    connection& from = to_server ? p.client : p.server;
    connection& to = to_server ? p.server : p.client;
    // Two records per round, so the cut also lands between and across them;
    // every round uses the next sequence numbers.
    for (std::size_t cut = 0; cut <= 2 * (100 + record_overhead); ++cut) {
      bytes wire;
      write_all(from, msg, wire);
      write_all(from, msg, wire);
      ASSERT_EQ(wire.size(), 2 * (100 + record_overhead));
      bytes got;
      ASSERT_FALSE(deliver(to, bytes_view(wire).first(cut), whole(), &got)) << cut;
      ASSERT_FALSE(deliver(to, bytes_view(wire).subspan(cut), whole(), &got)) << cut;
      ASSERT_EQ(got, want) << cut;
    }
  }
}

TEST(RecordFragments, ByteAtATimeBothDirectionsWithKeyUpdates) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  for (int round = 0; round < 3; ++round) {
    const bytes a = pattern(3000, static_cast<std::uint8_t>(round));
    EXPECT_EQ(send(p.client, p.server, a, bytewise()), a);
    EXPECT_EQ(send(p.server, p.client, a, bytewise()), a);
    ASSERT_TRUE(p.client.update_keys().has_value());
    ASSERT_TRUE(p.server.update_keys().has_value());
    EXPECT_EQ(hook::send_sequence(p.client), 0u);
  }
  // The last key_update is still in the client's send buffer: the server is
  // at sequence 1 of the previous key (one data record since its update).
  EXPECT_EQ(hook::receive_sequence(p.server), 1u);
  const bytes tail = pattern(10);
  bytes wire;
  write_all(p.client, tail, wire);
  ASSERT_EQ(records_of(wire).size(), 2u);
  EXPECT_EQ(records_of(wire)[0].type, 3);  // key_update first
  bytes got;
  ASSERT_FALSE(deliver(p.server, wire, bytewise(), &got));
  EXPECT_EQ(got, tail);
  EXPECT_EQ(hook::receive_sequence(p.server), 1u);  // switched to the new key at 0, then one record
}

TEST(RecordFragments, RandomSplitsOfLargeRecordsAndManyRecordsPerRead) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->limits.max_record_size = 50000;
  auto sc = server_cfg(key);
  sc->limits.max_record_size = 50000;
  auto p = connected(cc, sc);
  seeded_random rng(42);
  for (int round = 0; round < 20; ++round) {
    const bytes big = rng.fill(1 + rng.uniform(200000));
    EXPECT_EQ(send(p.client, p.server, big, random_split(rng, 70000)), big);
    EXPECT_EQ(send(p.server, p.client, big, random_split(rng, 3000)), big);
    if (round % 4 == 0) {
      ASSERT_TRUE(p.client.update_keys().has_value());
    }
  }
  // Many small records in one delivery.
  bytes wire, want;
  for (int i = 0; i < 500; ++i) {
    const bytes m = rng.fill(1 + rng.uniform(40));
    want.insert(want.end(), m.begin(), m.end());
    write_all(p.server, m, wire);
  }
  bytes got;
  ASSERT_FALSE(deliver(p.client, wire, whole(), &got));
  EXPECT_EQ(got, want);
}

TEST(RecordFragments, ReceiveStopsWhenThePlaintextBufferIsFull) {
  auto key = make_key(hpke::kem_id::x25519);
  auto sc = server_cfg(key);
  sc->limits.max_buffered_plaintext = 1000;
  sc->limits.max_record_size = 1000;
  auto cc = client_cfg(*key);
  cc->limits.max_record_size = 1000;
  auto p = connected(cc, sc);
  const bytes data = pattern(10000);
  bytes wire;
  write_all(p.client, data, wire);
  // Offer everything without reading: the server stops taking input.
  std::size_t taken = 0;
  for (;;) {
    auto r = p.server.receive(bytes_view(wire).subspan(taken));
    ASSERT_TRUE(r.has_value());
    if (*r == 0) break;
    taken += *r;
  }
  EXPECT_LT(taken, wire.size());
  // It stopped because max_buffered_plaintext bytes were waiting, holding at
  // most that plus one record.
  EXPECT_GE(p.server.readable(), 1000u);
  EXPECT_LT(p.server.readable(), 1000u + 1000u);
  // Reading lets it continue, and nothing is lost or reordered.
  bytes got(p.server.readable());
  EXPECT_EQ(p.server.read(got), got.size());
  ASSERT_FALSE(deliver(p.server, bytes_view(wire).subspan(taken), whole(), &got));
  EXPECT_EQ(got, data);
}

// ---- sending ----

TEST(RecordSend, GatherWriteAndSealToTheCallersBuffer) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  const bytes a = pattern(10, 1), b = pattern(20000, 2), c = pattern(5, 3);
  const bytes_view pieces[] = {a, {}, b, c};
  auto r = p.client.write(pieces);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, a.size() + b.size() + c.size());
  bytes want = a;
  want.insert(want.end(), b.begin(), b.end());
  want.insert(want.end(), c.begin(), c.end());
  const bytes wire = take_pending(p.client);
  EXPECT_EQ(records_of(wire).size(), 2u);  // 16384 + the rest
  bytes got;
  ASSERT_FALSE(deliver(p.server, wire, whole(), &got));
  EXPECT_EQ(got, want);

  // seal_to: whole records into a caller's buffer, as many as fit.
  bytes out(1000);
  auto s = p.client.seal_to(out, pieces);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->written, 1000u - 0);  // one record filling the buffer exactly
  EXPECT_EQ(s->consumed, 1000u - record_overhead);
  got.clear();
  ASSERT_FALSE(deliver(p.server, bytes_view(out).first(s->written), whole(), &got));
  EXPECT_EQ(got, bytes(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(s->consumed)));
  // Too small for any record: nothing written.
  bytes tiny(record_overhead);
  auto t = p.client.seal_to(tiny, pieces);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->written, 0u);
  // seal_to while records are pending would reorder them.
  ASSERT_TRUE(p.client.write(a).has_value());
  EXPECT_EQ(p.client.seal_to(out, pieces).error(), record_errc::bad_state);
}

TEST(RecordSend, WriteStopsAtTheSendBufferLimit) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->limits.max_send_buffer = 20000;
  auto p = connected(cc, server_cfg(key));
  const bytes big = pattern(100000);
  auto r = p.client.write(big);
  ASSERT_TRUE(r.has_value());
  EXPECT_GT(*r, 0u);
  EXPECT_LT(*r, big.size());
  const std::size_t first = *r;
  auto again = p.client.write(bytes_view(big).subspan(first));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, 0u);  // full: send first
  bytes got;
  ASSERT_FALSE(deliver(p.server, take_pending(p.client), whole(), &got));
  EXPECT_EQ(got, bytes(big.begin(), big.begin() + static_cast<std::ptrdiff_t>(first)));
}

TEST(RecordSend, PaddingHidesLengths) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->limits.pad_to = 256;
  auto p = connected(cc, server_cfg(key));
  for (std::size_t n : {1u, 100u, 255u, 256u, 1000u}) {
    const bytes m = pattern(n);
    bytes wire;
    write_all(p.client, m, wire);
    const std::size_t inner = wire.size() - record_header_size - record_tag_size;
    EXPECT_EQ(inner % 256, 0u) << n;
    bytes got;
    ASSERT_FALSE(deliver(p.server, wire, whole(), &got));
    EXPECT_EQ(got, m);
  }
}

TEST(RecordSend, StateErrors) {
  auto key = make_key(hpke::kem_id::x25519);
  auto c = connection::client(client_cfg(*key));
  EXPECT_EQ(c->write(to_bytes("early")).error(), record_errc::bad_state);
  EXPECT_EQ(c->close().error(), record_errc::bad_state);
  auto p = connected(client_cfg(*key), server_cfg(key));
  ASSERT_TRUE(p.client.close().has_value());
  EXPECT_EQ(p.client.write(to_bytes("late")).error(), record_errc::closed);
  EXPECT_EQ(p.client.close().error(), record_errc::closed);
  EXPECT_FALSE(p.client.error());  // refusing a call is not a failure
  // Data after the close record is unexpected.
  bytes wire = take_pending(p.client);
  wire.insert(wire.end(), {2, 0, 0, 20});
  EXPECT_EQ(deliver(p.server, wire, whole(), nullptr), record_errc::unexpected_record);
  // A moved-from connection refuses everything.
  auto q = connected(client_cfg(*key), server_cfg(key));
  connection moved = std::move(q.client);
  EXPECT_TRUE(moved.write(to_bytes("x")).has_value());
  EXPECT_EQ(q.client.write(to_bytes("x")).error(), record_errc::bad_state);  // NOLINT(bugprone-use-after-move)
}

// ---- limits ----

TEST(RecordLimits, OversizeHeaderIsRejectedBeforeBuffering) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  const std::size_t len = 16384 + 1 + 16 + 1;
  const bytes header = {2, static_cast<std::uint8_t>(len >> 16), static_cast<std::uint8_t>(len >> 8),
                        static_cast<std::uint8_t>(len)};
  auto r = p.server.receive(header);
  EXPECT_EQ(r.error(), record_errc::record_too_large);
  EXPECT_EQ(p.server.error(), record_errc::record_too_large);
  // The limit itself is fine.
  auto q = connected(client_cfg(*key), server_cfg(key));
  const bytes at_limit = pattern(16384);
  EXPECT_EQ(send(q.client, q.server, at_limit), at_limit);
  // A body too short for a tag cannot authenticate.
  EXPECT_EQ(q.server.receive(bytes{2, 0, 0, 16}).error(), record_errc::bad_record_mac);
}

TEST(RecordLimits, TooManyEmptyRecords) {
  auto key = make_key(hpke::kem_id::x25519);
  auto sc = server_cfg(key);
  sc->limits.max_empty_records = 3;
  auto p = connected(client_cfg(*key), sc);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(hook::seal_empty_application_record(p.client).has_value());
  ASSERT_FALSE(deliver(p.server, take_pending(p.client), whole(), nullptr));
  // Data resets the count.
  EXPECT_EQ(send(p.client, p.server, to_bytes("x")), to_bytes("x"));
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(hook::seal_empty_application_record(p.client).has_value());
  EXPECT_EQ(deliver(p.server, take_pending(p.client), whole(), nullptr), record_errc::too_many_empty_records);
}

TEST(RecordLimits, AutomaticKeyUpdateBeforeTheSoftLimit) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->limits.key_update_after = 4;
  auto p = connected(cc, server_cfg(key));
  bytes wire;
  for (int i = 0; i < 10; ++i) write_all(p.client, pattern(50, static_cast<std::uint8_t>(i)), wire);
  const auto recs = records_of(wire);
  std::size_t updates = 0;
  for (const auto& r : recs) updates += r.type == 3;
  EXPECT_EQ(updates, 3u);  // every 4th record is a key update: 10 data records need 3
  EXPECT_EQ(recs.size(), 13u);
  bytes got;
  ASSERT_FALSE(deliver(p.server, wire, whole(), &got));
  EXPECT_EQ(got.size(), 500u);
  EXPECT_LT(hook::send_sequence(p.client), 4u);

  // From a high sequence number with the default soft limit (2^32).
  auto q = connected(client_cfg(*key), server_cfg(key));
  hook::set_send_sequence(q.client, (1ULL << 32) - 2);
  hook::set_receive_sequence(q.server, (1ULL << 32) - 2);
  wire.clear();
  write_all(q.client, to_bytes("a"), wire);  // seq 2^32 - 2
  write_all(q.client, to_bytes("b"), wire);  // key update at 2^32 - 1, then seq 0 of the new key
  EXPECT_EQ(hook::send_sequence(q.client), 1u);
  got.clear();
  ASSERT_FALSE(deliver(q.server, wire, whole(), &got));
  EXPECT_EQ(got, to_bytes("ab"));
  EXPECT_EQ(hook::receive_sequence(q.server), 1u);
}

TEST(RecordLimits, AesGcmUpdatesItsKeyEvery2To24RecordsWhateverTheSetting) {
  auto key = make_key(hpke::kem_id::x25519);
  for (const std::uint64_t setting : {std::uint64_t{0}, std::uint64_t{1} << 32}) {
    for (const auto aead : {record_aead::aes128_gcm, record_aead::chacha20_poly1305}) {
      auto cc = client_cfg(*key);
      cc->aeads = {aead};
      cc->limits.key_update_after = setting;
      auto p = connected(cc, server_cfg(key));
      ASSERT_EQ(p.client.aead(), aead);
      const std::uint64_t start = (std::uint64_t{1} << 24) - 2;
      hook::set_send_sequence(p.client, start);
      hook::set_receive_sequence(p.server, start);
      bytes wire, got;
      write_all(p.client, to_bytes("a"), wire);
      write_all(p.client, to_bytes("b"), wire);
      const bool gcm = aead == record_aead::aes128_gcm;
      // GCM: a key update at 2^24 - 1, then "b" at seq 0 of the new key.
      EXPECT_EQ(hook::send_sequence(p.client), gcm ? 1u : start + 2) << setting;
      ASSERT_FALSE(deliver(p.server, wire, whole(), &got));
      EXPECT_EQ(got, to_bytes("ab"));
    }
  }
}

TEST(RecordLimits, SequenceExhaustion) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->limits.key_update_after = 0;  // no automatic update: reach the hard limit
  auto p = connected(cc, server_cfg(key));
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  hook::set_send_sequence(p.client, max - 1);
  hook::set_receive_sequence(p.server, max - 1);
  bytes wire, got;
  write_all(p.client, to_bytes("last"), wire);
  ASSERT_FALSE(deliver(p.server, wire, whole(), &got));
  EXPECT_EQ(got, to_bytes("last"));
  EXPECT_EQ(p.client.write(to_bytes("one more")).error(), record_errc::sequence_exhausted);
  EXPECT_EQ(p.client.error(), record_errc::sequence_exhausted);
  // A receiver at the hard limit refuses the next record.
  auto q = connected(client_cfg(*key), server_cfg(key));
  hook::set_receive_sequence(q.server, max);
  wire.clear();
  write_all(q.client, to_bytes("x"), wire);
  EXPECT_EQ(deliver(q.server, wire, whole(), nullptr), record_errc::sequence_exhausted);
}

TEST(RecordLimits, SequenceNumbersAdvanceOnlyOnSuccess) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  bytes wire;
  write_all(p.client, to_bytes("one"), wire);
  write_all(p.client, to_bytes("two"), wire);
  const auto recs = records_of(wire);
  ASSERT_EQ(recs.size(), 2u);
  ASSERT_FALSE(deliver(p.server, bytes_view(wire).first(recs[1].offset), whole(), nullptr));
  EXPECT_EQ(hook::receive_sequence(p.server), 1u);
  bytes bad(wire.begin() + static_cast<std::ptrdiff_t>(recs[1].offset), wire.end());
  bad.back() ^= 1;
  EXPECT_EQ(deliver(p.server, bad, whole(), nullptr), record_errc::bad_record_mac);
  EXPECT_EQ(hook::receive_sequence(p.server), 1u);
}

}  // namespace
}  // namespace sealwire::record::test
