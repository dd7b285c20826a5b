// SPDX-License-Identifier: Apache-2.0
// The properties record protocol v2 adds (docs/protocol.md 7, issue 17),
// each tried the way an attacker or a confused deployment would: the client
// policy after proof and silent refusal, exporters and channel binding,
// application protocols, server key rotation, hidden content types with
// padding, reason-coded closes, and the wiping of keys on failure. The KCI
// attempt by a server-key holder and the byte-based key limit are in
// test_connection.cpp beside the handshake and limit tests they extend.
#include <sealwire/record/connection.hpp>

#include "detail/handshake.hpp"  // key ids
#include "harness.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace sealwire::record::test {
namespace {

bytes exported(const connection& c, std::string_view label, bytes_view context, std::size_t n = 32) {
  bytes out(n);
  const auto ok = c.export_keying_material(out, label, context);
  EXPECT_TRUE(ok.has_value()) << ok.error().message();
  return out;
}

// ---- policy after proof (docs/protocol.md 4.5) ----

// What a server sent and how it ended, for one handshake attempt.
struct server_view {
  std::vector<std::size_t> sent_sizes;  // record sizes the server sent
  bytes after_client_finished;          // what it sent after the ClientFinished
  std::error_code error;
};

// A refused client key and a bad ClientFinished must look the same to the
// client: the same flight sizes before, nothing after, the same error
// inside, and the policy is never consulted before the proof.
TEST(RecordV2Policy, RefusalAndBadFinishedLookIdenticalOnTheWire) {
  auto key = make_key(hpke::kem_id::x25519);
  auto client_key = make_key(hpke::kem_id::x25519);
  int policy_calls = 0;
  auto run = [&](bool refuse, bool corrupt_finished) {
    auto sc = server_cfg(key);
    sc->require_client_auth = true;
    sc->accept_client = [&policy_calls, refuse](bytes_view) {
      ++policy_calls;
      return !refuse;
    };
    auto cc = client_cfg(*key);
    cc->client_key = client_key;
    auto c = connection::client(cc);
    auto s = connection::server(sc);
    EXPECT_TRUE(c && s);
    server_view v;
    const int calls_before = policy_calls;
    EXPECT_FALSE(deliver(*s, take_pending(*c), whole(), nullptr));
    EXPECT_EQ(policy_calls, calls_before) << "the policy saw an unproven key";
    const bytes flight = take_pending(*s);
    for (const auto& r : records_of(flight)) v.sent_sizes.push_back(r.size);
    EXPECT_FALSE(deliver(*c, flight, whole(), nullptr));
    bytes cf = take_pending(*c);
    if (corrupt_finished) cf.back() ^= 1;
    v.error = deliver(*s, cf, whole(), nullptr);
    v.after_client_finished = take_pending(*s);
    EXPECT_EQ(s->peer_public_key().empty(), refuse || corrupt_finished);
    return v;
  };
  const server_view refused = run(true, false);
  EXPECT_EQ(policy_calls, 1);
  const server_view bad_mac = run(false, true);
  EXPECT_EQ(policy_calls, 1) << "a bad Finished never reaches the policy";
  EXPECT_EQ(refused.error, record_errc::handshake_failed);
  EXPECT_EQ(refused.error, bad_mac.error);
  EXPECT_EQ(refused.sent_sizes, bad_mac.sent_sizes);
  EXPECT_TRUE(refused.after_client_finished.empty());
  EXPECT_TRUE(bad_mac.after_client_finished.empty());
  // Accepted: the policy sees exactly the proven key.
  const server_view ok = run(false, false);
  EXPECT_FALSE(ok.error);
  EXPECT_EQ(policy_calls, 2);
}

// ---- exporters and channel binding (docs/protocol.md 5) ----

TEST(RecordV2Exporter, AgreesAcrossSidesAndDiffersAcrossConnectionsLabelsAndContexts) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  auto q = connected(client_cfg(*key), server_cfg(key));
  const bytes ctx = to_bytes("context");
  const bytes a = exported(p.client, "EXPORTER-test", ctx);
  EXPECT_EQ(a, exported(p.server, "EXPORTER-test", ctx));
  const std::set<std::string> seen{sealwire::test::to_hex(a),
                                   sealwire::test::to_hex(exported(q.client, "EXPORTER-test", ctx)),
                                   sealwire::test::to_hex(exported(p.client, "EXPORTER-test2", ctx)),
                                   sealwire::test::to_hex(exported(p.client, "EXPORTER-test", to_bytes("other"))),
                                   sealwire::test::to_hex(exported(p.client, "EXPORTER-test", {}))};
  EXPECT_EQ(seen.size(), 5u) << "connections, labels and contexts must separate";
  // Longer outputs agree too.
  EXPECT_EQ(exported(p.client, "EXPORTER-test", ctx, 100), exported(p.server, "EXPORTER-test", ctx, 100));
  // Channel binding: equal on both sides, differs per connection.
  const auto cb = p.client.channel_binding();
  ASSERT_TRUE(cb);
  EXPECT_EQ(*cb, *p.server.channel_binding());
  EXPECT_NE(*cb, *q.client.channel_binding());
  EXPECT_EQ(bytes(cb->begin(), cb->end()), exported(p.client, "EXPORTER-Channel-Binding", {}));
  // It survives key updates (it depends on no traffic secret).
  ASSERT_TRUE(p.client.update_keys());
  ASSERT_FALSE(deliver(p.server, take_pending(p.client), whole(), nullptr));
  EXPECT_EQ(exported(p.server, "EXPORTER-test", ctx), a);
  // Refusals.
  bytes out(32);
  auto fresh = connection::client(client_cfg(*key));
  EXPECT_EQ(fresh->export_keying_material(out, "x").error(), record_errc::bad_state);
  EXPECT_EQ(p.client.export_keying_material(out, "").error(), std::errc::invalid_argument);
  EXPECT_EQ(p.client.export_keying_material(out, std::string(244, 'l')).error(), std::errc::invalid_argument);
  bytes huge(255 * 32 + 1);
  EXPECT_EQ(p.client.export_keying_material(huge, "x").error(), std::errc::invalid_argument);
}

// ---- application protocols (docs/protocol.md 4.3) ----

TEST(RecordV2Protocols, ServerPicksFromTheClientsListOrFailsClearly) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  auto sc = server_cfg(key);
  cc->app_protocols = {"chat/2", "chat/1"};
  sc->app_protocols = {"chat/1", "chat/2"};
  auto p = connected(cc, sc);
  EXPECT_EQ(p.client.app_protocol(), "chat/2") << "the client's preference";
  EXPECT_EQ(p.server.app_protocol(), "chat/2");
  // A connection made for one service cannot be completed by another that
  // shares the server key.
  sc->app_protocols = {"files"};
  {
    auto c = connection::client(cc);
    auto s = connection::server(sc);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::no_application_protocol);
    EXPECT_EQ(c->end_of_input().error(), record_errc::truncated);  // refused silently
  }
  // None on one side only: refused too; none on both: fine.
  cc->app_protocols.clear();
  {
    auto c = connection::client(cc);
    auto s = connection::server(sc);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::no_application_protocol);
  }
  sc->app_protocols.clear();
  auto q = connected(cc, sc);
  EXPECT_EQ(q.server.app_protocol(), "");
  cc->app_protocols = {"chat/1"};
  {
    auto c = connection::client(cc);
    auto s = connection::server(sc);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::no_application_protocol);
  }
}

// The client refuses a ServerHello naming a protocol it did not offer (the
// transcript would catch an edit too, but the check comes first).
TEST(RecordV2Protocols, ClientRefusesAProtocolItDidNotOffer) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->app_protocols = {"aa"};
  auto sc = server_cfg(key);
  sc->app_protocols = {"aa"};
  auto c = connection::client(cc);
  auto s = connection::server(sc);
  ASSERT_FALSE(deliver(*s, take_pending(*c), whole(), nullptr));
  bytes flight = take_pending(*s);
  const std::size_t at = 4 + 1 + 2 + 2 + 8;  // ServerHello protocol: u8 2, "aa"
  ASSERT_EQ(flight[at], 2);
  flight[at + 1] = 'b';
  EXPECT_EQ(deliver(*c, flight, whole(), nullptr), record_errc::bad_handshake_message);
}

// ---- server key rotation (docs/protocol.md 4.4) ----

TEST(RecordV2Rotation, ClientsOnEitherKeyDuringARotation) {
  auto old_key = make_key(hpke::kem_id::x25519);
  auto new_key = make_key(hpke::kem_id::x25519);
  auto sc = server_cfg(new_key);
  sc->extra_static_keys = {old_key};
  std::array<std::uint8_t, 8> old_id{}, new_id{};
  detail::key_id(old_id, old_key->public_key());
  detail::key_id(new_id, new_key->public_key());
  auto id_of = [](const connection& c) {
    const auto id = c.server_key_id();
    std::array<std::uint8_t, 8> out{};
    std::copy(id.begin(), id.end(), out.begin());
    return out;
  };
  // A client that pins only the old key, one that pins only the new key,
  // and one that pins both (new first).
  auto old_client = client_cfg(*old_key);
  auto p = connected(old_client, sc);
  EXPECT_EQ(id_of(p.client), old_id);
  EXPECT_EQ(id_of(p.server), old_id);
  auto q = connected(client_cfg(*new_key), sc);
  EXPECT_EQ(id_of(q.client), new_id);
  auto both = client_cfg(*new_key);
  both->extra_server_keys = {old_key->public_key()};
  auto r = connected(both, sc);
  EXPECT_EQ(id_of(r.server), new_id);
  EXPECT_EQ(id_of(r.client), new_id);
  // Pinned in the other order, the server still uses the client's first
  // choice it holds.
  auto reversed = client_cfg(*old_key);
  reversed->extra_server_keys = {new_key->public_key()};
  EXPECT_EQ(id_of(connected(reversed, sc).server), old_id);
  // After the rotation the server drops the old key: old-only clients fail
  // cleanly, clients pinning both go on.
  auto after = server_cfg(new_key);
  {
    auto c = connection::client(old_client);
    auto s = connection::server(after);
    EXPECT_EQ(run_handshake(*c, *s), record_errc::unknown_server_key);
  }
  EXPECT_EQ(id_of(connected(reversed, after).client), new_id);
  // A server key of another KEM beside: clients of either KEM are served.
  auto x448 = make_key(hpke::kem_id::x448);
  auto mixed = server_cfg(new_key);
  mixed->extra_static_keys = {x448};
  EXPECT_TRUE(connected(client_cfg(*x448), mixed).server.handshake_complete());
}

// ---- hidden content types and padding (docs/protocol.md 3.1) ----

// With padding on, an observer of the wire sees records of one outer type
// and one size whatever they carry: data, a key update, a close.
TEST(RecordV2Hiding, AnObserverCannotTellControlRecordsFromData) {
  auto key = make_key(hpke::kem_id::x25519);
  auto cc = client_cfg(*key);
  cc->limits.pad_to = 64;
  auto p = connected(cc, server_cfg(key));
  bytes wire;
  write_all(p.client, to_bytes("hi"), wire);
  ASSERT_TRUE(p.client.update_keys());
  bytes more = take_pending(p.client);
  wire.insert(wire.end(), more.begin(), more.end());
  write_all(p.client, to_bytes("x"), wire);
  ASSERT_TRUE(p.client.close());
  more = take_pending(p.client);
  wire.insert(wire.end(), more.begin(), more.end());
  const auto recs = records_of(wire);
  ASSERT_EQ(recs.size(), 4u);
  for (const auto& rec : recs) {
    EXPECT_EQ(rec.type, 2) << "one outer type";
    EXPECT_EQ(rec.size, record_header_size + 64 + record_tag_size) << "one size";
  }
  bytes got;
  ASSERT_FALSE(deliver(p.server, wire, whole(), &got));
  EXPECT_EQ(got, to_bytes("hix"));
  EXPECT_TRUE(p.server.peer_closed());
  EXPECT_TRUE(p.server.end_of_input());
}

// ---- closes with reasons (docs/protocol.md 3.4) ----

TEST(RecordV2Close, AReasonReachesThePeerAsADistinctError) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  bytes wire;
  write_all(p.server, to_bytes("bye"), wire);
  ASSERT_TRUE(p.server.close(close_reason::policy_refusal));
  const bytes more = take_pending(p.server);
  wire.insert(wire.end(), more.begin(), more.end());
  bytes got;
  EXPECT_EQ(deliver(p.client, wire, whole(), &got), record_errc::peer_error_close);
  EXPECT_EQ(got, to_bytes("bye")) << "what came before stays readable";
  EXPECT_TRUE(p.client.peer_closed());
  EXPECT_EQ(p.client.peer_close_reason(), close_reason::policy_refusal);
  EXPECT_EQ(p.client.error(), record_errc::peer_error_close);
  EXPECT_NE(std::error_code(record_errc::peer_error_close), record_errc::truncated);
  EXPECT_EQ(to_string(close_reason::idle_timeout), "idle_timeout");
  EXPECT_EQ(to_string(static_cast<close_reason>(200)), "reserved");
}

// A fault in the peer's verified records may be reported; one an attacker
// can cause (a bad MAC) may not: close_after_error sends nothing then.
TEST(RecordV2Close, ErrorClosesOnlyForFaultsInVerifiedRecords) {
  auto key = make_key(hpke::kem_id::x25519);
  auto sc = server_cfg(key);
  sc->limits.max_empty_records = 2;
  auto p = connected(client_cfg(*key), sc);
  EXPECT_EQ(p.server.close_after_error().error(), record_errc::bad_state) << "healthy: use close()";
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(hook::seal_empty_application_record(p.client));
  EXPECT_EQ(deliver(p.server, take_pending(p.client), whole(), nullptr), record_errc::too_many_empty_records);
  EXPECT_TRUE(hook::keys_wiped(p.server, false)) << "the receiving keys go at once";
  ASSERT_TRUE(p.server.close_after_error());
  EXPECT_TRUE(hook::keys_wiped(p.server, true)) << "the sending keys go once the close is sealed";
  EXPECT_EQ(deliver(p.client, take_pending(p.server), whole(), nullptr), record_errc::peer_error_close);
  EXPECT_EQ(p.client.peer_close_reason(), close_reason::limit_exceeded);

  auto q = connected(client_cfg(*key), server_cfg(key));
  bytes wire;
  write_all(q.client, to_bytes("tampered"), wire);
  wire.back() ^= 1;
  EXPECT_EQ(deliver(q.server, wire, whole(), nullptr), record_errc::bad_record_mac);
  EXPECT_EQ(q.server.close_after_error().error(), record_errc::bad_record_mac);
  EXPECT_TRUE(q.server.pending().empty()) << "no signal for an attacker's forgery";
  EXPECT_TRUE(hook::keys_wiped(q.server, false));
  EXPECT_TRUE(hook::keys_wiped(q.server, true));
}

// A failure on one side wipes both directions: the receiving keys at once,
// the sending keys at the send side's next call.
TEST(RecordV2Wipe, AFailureWipesBothDirections) {
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  EXPECT_FALSE(hook::keys_wiped(p.server, false));
  EXPECT_EQ(p.server.receive(bytes{9, 0, 0, 1}).error(), record_errc::unexpected_record);
  EXPECT_TRUE(hook::keys_wiped(p.server, false));
  EXPECT_EQ(p.server.write(to_bytes("x")).error(), record_errc::unexpected_record);
  EXPECT_TRUE(hook::keys_wiped(p.server, true));
}

}  // namespace
}  // namespace sealwire::record::test
