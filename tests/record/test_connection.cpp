// SPDX-License-Identifier: Apache-2.0
// The sans-IO record connection: handshake, data, fragmentation, key
// updates, limits and configuration errors.
#include <sealwire/record/connection.hpp>

#include <sealwire/hpke/context.hpp>

#include "harness.hpp"
#include "detail/handshake.hpp"  // the hand-built handshakes: key ids, ExpandLabel

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
  sc->accept_any_client_key = true;
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
  return std::string(kem == hpke::kem_id::x25519 ? "X25519" : kem == hpke::kem_id::xwing ? "XWing" : "X448") + "_SHA" +
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

// X-Wing (the default KEM): each KDF once, plain and with client auth; the
// AEADs are independent of the KEM and covered above.
INSTANTIATE_TEST_SUITE_P(XWing, RecordSuites,
                         ::testing::Values(suite_param{hpke::kem_id::xwing, hpke::kdf_id::hkdf_sha256,
                                                       record_aead::chacha20_poly1305, false},
                                           suite_param{hpke::kem_id::xwing, hpke::kdf_id::hkdf_sha256,
                                                       record_aead::chacha20_poly1305, true},
                                           suite_param{hpke::kem_id::xwing, hpke::kdf_id::hkdf_sha384,
                                                       record_aead::aes256_gcm, true},
                                           suite_param{hpke::kem_id::xwing, hpke::kdf_id::hkdf_sha512,
                                                       record_aead::xchacha20_poly1305, false}),
                         suite_name);

// An X-Wing ClientHello with four pinned keys, a client key and 1 KiB of
// protocol names fits the default max_handshake_size; the old 4096 default
// could not hold it (the client says so).
TEST(RecordHandshake, XWingIsTheDefaultAndItsMessagesFitTheLimits) {
  EXPECT_EQ(default_kem, hpke::kem_id::xwing);
  EXPECT_EQ(limits{}.max_handshake_size, 8192u);
  auto key = make_key(default_kem);
  auto old_key = make_key(default_kem);
  auto client_key = make_key(default_kem);
  auto cc = client_cfg(*key);
  for (int i = 0; i < 2; ++i) cc->extra_server_keys.push_back(make_key(default_kem)->public_key());
  cc->extra_server_keys.push_back(old_key->public_key());
  cc->client_key = client_key;
  auto sc = server_cfg(old_key);
  sc->accept_any_client_key = true;
  sc->require_client_auth = true;
  for (int i = 0; i < 4; ++i) {
    cc->app_protocols.push_back(std::string(250, 'a') + static_cast<char>('a' + i));
  }
  sc->app_protocols = {cc->app_protocols.back()};
  auto p = connected(cc, sc);
  ASSERT_TRUE(p.client.handshake_complete());
  ASSERT_TRUE(p.server.handshake_complete());
  const auto pk = client_key->public_key().bytes();
  EXPECT_EQ(bytes(p.server.peer_public_key().begin(), p.server.peer_public_key().end()), bytes(pk.begin(), pk.end()));
  const bytes a = pattern(100, 3);
  EXPECT_EQ(send(p.client, p.server, a), a);
  // Under a 4096-byte limit the client cannot send this ClientHello.
  auto small = std::make_shared<client_config>(*cc);
  small->limits.max_handshake_size = 4096;
  EXPECT_EQ(connection::client(small).error(), record_errc::invalid_limit);
}

// X-Wing and X25519 keys side by side: a server holding both answers a
// client of either KEM; a client key of the other KEM is a mismatch.
TEST(RecordHandshake, XWingAndX25519ServerKeysSideBySide) {
  auto xw = make_key(hpke::kem_id::xwing);
  auto x = make_key(hpke::kem_id::x25519);
  auto sc = server_cfg(xw);
  sc->extra_static_keys = {x};
  for (const auto& k : {xw, x}) {
    auto p = connected(client_cfg(*k), sc);
    EXPECT_TRUE(p.client.handshake_complete());
    EXPECT_TRUE(p.server.handshake_complete());
  }
  auto cc = client_cfg(*xw);
  cc->client_key = x;
  EXPECT_EQ(connection::client(cc).error(), record_errc::kem_mismatch);
  // Pure ML-KEM is an HPKE KEM the record protocol does not offer.
  EXPECT_EQ(connection::client(client_cfg(*make_key(hpke::kem_id::ml_kem_768))).error(),
            record_errc::unsupported_algorithm);
  EXPECT_EQ(connection::server(server_cfg(make_key(hpke::kem_id::ml_kem_768))).error(),
            record_errc::unsupported_algorithm);
}

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

// key_id_offset is where a one-key ClientHello's key id starts (X25519, no
// protocols, n AEADs), in the message after its record header.
std::size_t key_id_offset(std::size_t n_aeads) { return 1 + 1 + 2 + 2 + 2 + 1 + 2 * n_aeads + 1 + 1; }

TEST(RecordHandshake, WrongPinnedServerKeyFailsOnTheClient) {
  auto real = make_key(hpke::kem_id::x25519);
  auto other = make_key(hpke::kem_id::x25519);
  {
    // A server that holds none of the pinned keys refuses silently.
    auto c = connection::client(client_cfg(*other));
    auto s = connection::server(server_cfg(real));
    ASSERT_TRUE(c && s);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::unknown_server_key);
    EXPECT_EQ(s->error(), record_errc::unknown_server_key);
    EXPECT_TRUE(s->pending().empty());
    EXPECT_EQ(c->end_of_input().error(), record_errc::truncated);
  }
  // An impostor holding `other` relabels the client's key_share as its own
  // key's and the ServerHello's key id back: the client finds the
  // ServerFinished wrong and sends no ClientFinished.
  auto c = connection::client(client_cfg(*real));
  auto s = connection::server(server_cfg(other));
  ASSERT_TRUE(c && s);
  bytes ch = take_pending(*c);
  std::array<std::uint8_t, 8> real_id{}, other_id{};
  detail::key_id(real_id, real->public_key());
  detail::key_id(other_id, other->public_key());
  const std::size_t at = 4 + key_id_offset(2);
  ASSERT_TRUE(std::equal(real_id.begin(), real_id.end(), ch.begin() + static_cast<std::ptrdiff_t>(at)));
  std::copy(other_id.begin(), other_id.end(), ch.begin() + static_cast<std::ptrdiff_t>(at));
  ASSERT_FALSE(deliver(*s, ch, whole(), nullptr));
  bytes flight = take_pending(*s);
  const std::size_t sh_id = 4 + 1 + 2 + 2;
  ASSERT_TRUE(std::equal(other_id.begin(), other_id.end(), flight.begin() + static_cast<std::ptrdiff_t>(sh_id)));
  std::copy(real_id.begin(), real_id.end(), flight.begin() + static_cast<std::ptrdiff_t>(sh_id));
  const auto e = deliver(*c, flight, whole(), nullptr);
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
  // Requiring client keys without a policy must be explicit.
  EXPECT_EQ(connection::server(sc).error(), record_errc::missing_client_policy);
  sc->accept_any_client_key = true;
  {
    auto c = connection::client(client_cfg(*key));
    auto s = connection::server(sc);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::client_auth_required);
  }
  sc->accept_any_client_key = false;
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

// A client written by hand from docs/protocol.md 4 (X25519, HKDF-SHA256,
// ChaCha20-Poly1305), independent of the handshake's own code, playing the
// attacker of issue 17 item 1: it may announce a client static key and may
// hold the *server's* static private key, but holds the announced client
// key only when `client_priv` is given. Without it, it computes everything
// it can (ss1, which it made; ss2, from its own ephemeral key) and tries
// the server's key on enc3.
struct hand_built_client {
  static constexpr hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256;
  static constexpr hpke::suite suite{hpke::kem_id::x25519, kdf, hpke::aead_id::export_only};

  hand_built_client(const hpke::private_key& server, const hpke::public_key* claimed_key,
                    const hpke::private_key* holder = nullptr)
      : server_priv(&server), client_priv(holder), eph(*hpke::generate_key_pair(hpke::kem_id::x25519)) {
    namespace d = record::detail;
    hpke::sender_options so;
    so.info = bytes_of("sealwire v2 static");
    auto s1 = *hpke::setup_sender(suite, server.public_key(), so);
    EXPECT_TRUE(s1.context.export_secret(ss1, bytes_of("sealwire v2 ss1")));
    d::writer w(client_hello);
    w.u8(1);        // ClientHello
    w.u8(1);        // one version
    w.u16(2);       // version 2
    w.u16(0x0020);  // X25519
    w.u16(0x0001);  // HKDF-SHA256
    w.u8(1);        // one AEAD
    w.u16(0x0003);  // ChaCha20-Poly1305
    w.u8(0);        // no application protocols
    w.u8(1);        // one key_share
    std::array<std::uint8_t, 8> id{};
    d::key_id(id, server.public_key());
    w.raw(id);
    w.vec16(s1.enc.bytes());
    w.vec16(eph.pub.bytes());
    w.u8(claimed_key != nullptr ? 1 : 0);
    if (claimed_key != nullptr) w.vec16(claimed_key->bytes());
    auth = claimed_key != nullptr;
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
    // ServerHello: type, version, aead, key id, protocol (empty), enc2, [enc3].
    const std::size_t at = 1 + 2 + 2 + 8 + 1;
    const bytes_view enc2 = sh.subspan(at + 2, 32);
    hpke::recipient_options ro;
    ro.info = bytes_of("sealwire v2 ephemeral");
    auto ctx2 = *hpke::setup_recipient(suite, enc2, eph.priv, ro);
    std::uint8_t ss2[32], ss3[32] = {}, hs[32], fin_key[32], th[64], mac[32];
    EXPECT_TRUE(ctx2.export_secret(ss2, bytes_of("sealwire v2 ss2")));
    if (auth) {
      EXPECT_EQ(sh.size(), at + 2 + 32 + 2 + 32);
      const bytes_view enc3 = sh.subspan(at + 2 + 32 + 2, 32);
      ro.info = bytes_of("sealwire v2 client");
      // The best a server-key holder can do is try the key it has.
      auto ctx3 = hpke::setup_recipient(suite, enc3, client_priv != nullptr ? *client_priv : *server_priv, ro);
      if (ctx3) {
        EXPECT_TRUE(ctx3->export_secret(ss3, bytes_of("sealwire v2 ss3")));
      }
    }
    d::extract(kdf, hs, ss2, ss1, auth ? bytes_view(ss3) : bytes_view{});
    d::transcript t(kdf);
    t.update(client_hello);
    t.update(sh);
    t.current(th);
    d::expand_label(kdf, fin_key, hs, "s finished", {});
    d::hmac(kdf, mac, fin_key, bytes_view(th, 32));
    server_finished_matched = bytes(mac, mac + 32) == bytes(sf.begin() + 1, sf.end());
    t.update(sf);
    t.current(th);
    d::expand_label(kdf, fin_key, hs, "c finished", {});
    bytes cf(33);
    cf[0] = 4;
    d::hmac(kdf, std::span<std::uint8_t>(cf.data() + 1, 32), fin_key, bytes_view(th, 32));
    return in_record(cf);
  }

  const hpke::private_key* server_priv;
  const hpke::private_key* client_priv;
  hpke::key_pair eph;
  std::uint8_t ss1[32] = {};
  bool auth = false;
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

// Key-compromise impersonation (issue 17 item 1): the attacker holds the
// server's static private key and announces client key A, which it does not
// hold. It knows ss1 and ss2, but ss3 is encapsulated to A: nothing
// matches, its ClientFinished fails, and A is never reported as the peer.
// (In v1, AuthEncap let a server-key holder compute the client's share.)
TEST(RecordHandshake, ServerKeyHolderCannotImpersonateAClient) {
  auto key = make_key(hpke::kem_id::x25519);
  auto victim = make_key(hpke::kem_id::x25519);
  auto sc = server_cfg(key);
  sc->require_client_auth = true;
  sc->accept_any_client_key = true;
  {
    // Control: the same hand-built client, holding A, succeeds.
    auto s = connection::server(sc);
    hand_built_client c(*key, &victim->public_key(), victim.get());
    ASSERT_FALSE(deliver(*s, hand_built_client::in_record(c.client_hello), whole(), nullptr));
    bool matched = false;
    const bytes cf = c.answer(take_pending(*s), matched);
    EXPECT_TRUE(matched);
    EXPECT_FALSE(deliver(*s, cf, whole(), nullptr));
    EXPECT_TRUE(s->handshake_complete());
  }
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
  // Version 1 only (versions list = {0x0001}): v2 does not fall back to it.
  w = ch;
  w[6] = 0x00;
  w[7] = 0x01;
  EXPECT_EQ(server_error(w), record_errc::unsupported_version);
  // Reserved flag bits (after versions, suite, two AEADs, no protocols, one
  // key_share and the ephemeral key).
  w = ch;
  const std::size_t flags_at = 4 + 1 + 1 + 2 + 2 + 2 + 1 + 2 * 2 + 1 + 1 + (8 + 2 + 32) + (2 + 32);
  ASSERT_EQ(flags_at, ch.size() - 1);
  w[flags_at] = 0x02;
  EXPECT_EQ(server_error(w), record_errc::bad_handshake_message);
  // A message of the wrong type.
  w = ch;
  w[4] = 3;
  EXPECT_EQ(server_error(w), record_errc::unexpected_record);
  // An empty handshake record, and one above max_handshake_size.
  EXPECT_EQ(server_error(bytes{1, 0, 0, 0}), record_errc::bad_handshake_message);
  const std::size_t too_large = limits{}.max_handshake_size + 1;
  EXPECT_EQ(server_error(bytes{1, static_cast<std::uint8_t>(too_large >> 16), static_cast<std::uint8_t>(too_large >> 8),
                               static_cast<std::uint8_t>(too_large)}),
            record_errc::record_too_large);
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
  cc = client_cfg(*key);
  cc->extra_server_keys = {make_key(hpke::kem_id::x448)->public_key()};  // pins of one server share a KEM
  EXPECT_EQ(connection::client(cc).error(), record_errc::kem_mismatch);
  cc = client_cfg(*key);
  cc->extra_server_keys.assign(max_pinned_server_keys, key->public_key());
  EXPECT_EQ(connection::client(cc).error(), record_errc::invalid_algorithm_list);
  cc = client_cfg(*key);
  cc->app_protocols = {"ok", ""};
  EXPECT_EQ(connection::client(cc).error(), record_errc::invalid_algorithm_list);
  cc = client_cfg(*key);
  cc->app_protocols = {std::string(256, 'x')};
  EXPECT_EQ(connection::client(cc).error(), record_errc::invalid_algorithm_list);
  cc = client_cfg(*key);
  cc->limits.key_blocks_limit = 100;  // not even four full records per key
  EXPECT_EQ(connection::client(cc).error(), record_errc::invalid_limit);
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
  sc = server_cfg(key);
  sc->extra_static_keys = {nullptr};
  EXPECT_EQ(connection::server(sc).error(), record_errc::missing_key);
  sc = server_cfg(key);
  sc->require_client_auth = true;
  EXPECT_EQ(connection::server(sc).error(), record_errc::missing_client_policy);
  // A configuration error refuses the connection; every code names its
  // problem and none of them is an authentication failure.
  for (record_errc e : {record_errc::missing_key, record_errc::kem_mismatch, record_errc::unsupported_algorithm,
                        record_errc::invalid_algorithm_list, record_errc::invalid_limit,
                        record_errc::missing_client_policy}) {
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
  EXPECT_EQ(records_of(wire)[0].size, record_overhead);  // key_update first (type hidden, no padding)
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

// A record's ciphertext that arrives in fragments is collected in place and
// opened in runs of whole steps (receive.cpp's open_fragment): fragments of
// one TCP segment, smaller and larger than a run, and a run's size exactly,
// deliver the same plaintext; a flipped bit in the first run, in bytes
// still waiting when the last fragment comes, in the last byte or in the
// tag fails the record with nothing released. Every record AEAD, at every
// CPU level.
TEST(RecordFragments, SegmentsOfFullRecordsAreOpenedInRunsAndTamperingFails) {
  auto key = make_key(hpke::kem_id::x25519);
  seeded_random rng(1448);
  const bytes data = rng.fill(2 * 16384 + 700);
  const auto fixed = [](std::size_t k) { return [k](std::size_t left) { return std::min(left, k); }; };
  sealwire::test::at_every_level([&] {
    for (const auto aead : {record_aead::chacha20_poly1305, record_aead::xchacha20_poly1305, record_aead::aes128_gcm,
                            record_aead::aes256_gcm}) {
      SCOPED_TRACE(static_cast<int>(aead));
      auto cc = client_cfg(*key);
      cc->aeads = {aead};
      {
        auto p = connected(cc, server_cfg(key));
        for (std::size_t k : {std::size_t{1448}, std::size_t{100}, std::size_t{4095}, std::size_t{4096},
                              std::size_t{5000}, std::size_t{9000}}) {
          bytes wire, got;
          write_all(p.client, data, wire);
          ASSERT_FALSE(deliver(p.server, wire, fixed(k), &got)) << k;
          EXPECT_EQ(got, data) << k;
        }
      }
      for (std::size_t at :
           {std::size_t{4 + 10}, std::size_t{4 + 15000}, std::size_t{4 + 16384}, std::size_t{4 + 16385 + 5}}) {
        for (std::size_t k : {std::size_t{1448}, std::size_t{5000}}) {
          auto p = connected(cc, server_cfg(key));
          bytes wire, got;
          write_all(p.client, bytes_view(data).first(16384), wire);
          ASSERT_EQ(wire.size(), 4u + 16385u + 16u);
          wire[at] ^= 0x20;
          EXPECT_EQ(deliver(p.server, wire, fixed(k), &got), record_errc::bad_record_mac) << at << " " << k;
          EXPECT_TRUE(got.empty()) << at << " " << k;
          EXPECT_EQ(p.server.readable(), 0u);
        }
      }
    }
  });
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
  // Without padding a key update is the only record with an empty inner
  // content (its type byte alone): 4 + 1 + 16 bytes, all of outer type 2.
  for (const auto& r : recs) {
    EXPECT_EQ(r.type, 2);
    updates += r.size == record_overhead;
  }
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

// The per-key limit of records + blocks (docs/protocol.md 3.5), lowered
// through the test hook limit: the sender updates before a record would
// leave no room for the key_update under the limit, whatever
// key_update_after says, and the receiver follows.
TEST(RecordLimits, ByteLimitTriggersAKeyUpdate) {
  auto key = make_key(hpke::kem_id::x25519);
  for (const auto aead : {record_aead::aes128_gcm, record_aead::chacha20_poly1305}) {
    auto cc = client_cfg(*key);
    cc->aeads = {aead};
    cc->limits.key_update_after = 0;  // records alone never trigger an update
    cc->limits.max_record_size = 1024;
    cc->limits.key_blocks_limit = 4 * (2 + (1024 + 1 + 15) / 16);  // the smallest allowed: 268
    auto sc = server_cfg(key);
    sc->limits.max_record_size = 1024;
    auto p = connected(cc, sc);
    bytes wire, got;
    // A 1024-byte record costs 1 + 65 = 66; a key update 2. After four
    // records (264) a fifth would leave no room for the update under 268:
    // the update comes first.
    for (int i = 0; i < 4; ++i) write_all(p.client, pattern(1024, static_cast<std::uint8_t>(i)), wire);
    EXPECT_EQ(hook::send_sequence(p.client), 4u);
    EXPECT_EQ(hook::send_blocks(p.client), 264u);
    write_all(p.client, pattern(1024, 9), wire);
    EXPECT_EQ(hook::send_sequence(p.client), 1u) << "updated, then one record under the new key";
    EXPECT_EQ(hook::send_blocks(p.client), 66u);
    const auto recs = records_of(wire);
    ASSERT_EQ(recs.size(), 6u);
    EXPECT_EQ(recs[4].size, record_overhead) << "the key update";
    ASSERT_FALSE(deliver(p.server, wire, whole(), &got));
    EXPECT_EQ(got.size(), 5u * 1024);
    EXPECT_EQ(hook::receive_sequence(p.server), 1u);
  }
  // The AEADs' own limits: AES-GCM 2^35, the ChaCha20 AEADs 2^46.
  auto cc = client_cfg(*key);
  cc->aeads = {record_aead::aes256_gcm};
  auto p = connected(cc, server_cfg(key));
  hook::set_send_blocks(p.client, (std::uint64_t{1} << 35) - 4);
  bytes wire, got;
  write_all(p.client, to_bytes("a"), wire);  // costs 2, leaving exactly the 2 of an update
  EXPECT_EQ(hook::send_blocks(p.client), (std::uint64_t{1} << 35) - 2);
  write_all(p.client, to_bytes("b"), wire);
  EXPECT_EQ(hook::send_blocks(p.client), 2u) << "a key update came first";
  EXPECT_EQ(hook::send_sequence(p.client), 1u);
  ASSERT_FALSE(deliver(p.server, wire, whole(), &got));
  EXPECT_EQ(got, to_bytes("ab"));
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
