// SPDX-License-Identifier: Apache-2.0
// Tampering with a recorded session: every single-bit flip, every
// truncation, and dropped, duplicated and reordered records must be rejected
// at the record where they land, releasing no plaintext of that record or any
// later one. The session is reproducible (a seeded random source), so each
// altered stream is replayed into a receiver in exactly the original state.
// Every suite runs for each record AEAD, both KEMs, with and without client
// authentication; each session is recorded afresh for its combination.
#include <sealwire/crypto/random.hpp>
#include <sealwire/record/connection.hpp>

#include "harness.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace sealwire::record::test {
namespace {

using sealwire::test::seeded_random;

constexpr std::uint64_t tamper_seed = 0x5ea1;

class scoped_random {
 public:
  explicit scoped_random(std::uint64_t s) : rng_(s), previous_(crypto::set_random_source(&rng_)) {}
  ~scoped_random() { crypto::set_random_source(previous_); }
  scoped_random(const scoped_random&) = delete;
  scoped_random& operator=(const scoped_random&) = delete;

 private:
  seeded_random rng_;
  crypto::random_source* previous_;
};

enum class flow { to_server, to_client };

struct session {
  std::shared_ptr<const client_config> cc;
  std::shared_ptr<const server_config> sc;
  bytes wire[2];       // [to_server, to_client]
  bytes plaintext[2];  // what each receiver released in total
};

// combination is one recorded session's parameters.
struct combination {
  bool client_auth;
  record_aead aead;
  hpke::kem_id kem;
};

// record_session runs a fixed conversation with key updates and closes in
// both directions, recording the bytes each way. The client offers only the
// combination's AEAD, so the handshake must settle on it.
session record_session(const combination& p) {
  session s;
  auto server_key = make_key(p.kem);
  auto cc = client_cfg(*server_key);
  cc->aeads = {p.aead};
  if (p.client_auth) cc->client_key = make_key(p.kem);
  s.cc = cc;
  s.sc = server_cfg(server_key);

  scoped_random random(tamper_seed);
  auto c = connection::client(s.cc);
  auto sv = connection::server(s.sc);
  EXPECT_TRUE(c && sv);
  EXPECT_EQ(s.cc->server_key.kem(), p.kem);
  auto move = [&](connection& from, connection& to, flow d) {
    const bytes w = take_pending(from);
    s.wire[static_cast<int>(d)].insert(s.wire[static_cast<int>(d)].end(), w.begin(), w.end());
    EXPECT_FALSE(deliver(to, w, whole(), &s.plaintext[static_cast<int>(d)]));
  };
  move(*c, *sv, flow::to_server);
  move(*sv, *c, flow::to_client);
  move(*c, *sv, flow::to_server);
  // The session runs under the combination's AEAD, not a default.
  EXPECT_TRUE(c->handshake_complete() && sv->handshake_complete());
  EXPECT_EQ(c->aead(), p.aead);
  EXPECT_EQ(sv->aead(), p.aead);
  auto say = [&](connection& from, connection& to, flow d, std::string_view text) {
    EXPECT_TRUE(from.write(to_bytes(text)).has_value());
    move(from, to, d);
  };
  say(*c, *sv, flow::to_server, "hello, server");
  say(*sv, *c, flow::to_client, "hello, client");
  EXPECT_TRUE(c->update_keys().has_value());
  EXPECT_TRUE(sv->update_keys().has_value());
  say(*c, *sv, flow::to_server, "after the key update");
  say(*sv, *c, flow::to_client, "same here");
  say(*c, *sv, flow::to_server, std::string(300, 'x'));
  EXPECT_TRUE(c->close().has_value());
  move(*c, *sv, flow::to_server);
  EXPECT_TRUE(sv->close().has_value());
  move(*sv, *c, flow::to_client);
  EXPECT_TRUE(c->peer_closed() && sv->peer_closed());
  return s;
}

struct outcome {
  std::error_code error;  // from receiving, or from end_of_input
  bytes released;
};

// replay feeds `wire` (possibly altered) to a fresh receiver in the recorded
// session's initial state, then ends the input.
outcome replay(const session& s, flow d, bytes_view wire, const splitter& split = whole()) {
  scoped_random random(tamper_seed);
  auto c = connection::client(s.cc);  // draws the same randomness as the recording
  auto sv = connection::server(s.sc);
  EXPECT_TRUE(c && sv);
  connection& receiver = d == flow::to_server ? *sv : *c;
  outcome o;
  o.error = deliver(receiver, wire, split, &o.released);
  if (!o.error) o.error = receiver.end_of_input().error();
  return o;
}

// released_before[k] is the plaintext released by records 0..k-1.
std::vector<bytes> released_before(const session& s, flow d) {
  const bytes& wire = s.wire[static_cast<int>(d)];
  std::vector<bytes> out{bytes{}};
  scoped_random random(tamper_seed);
  auto c = connection::client(s.cc);
  auto sv = connection::server(s.sc);
  connection& receiver = d == flow::to_server ? *sv : *c;
  bytes got;
  for (const auto& r : records_of(wire)) {
    EXPECT_FALSE(deliver(receiver, bytes_view(wire).subspan(r.offset, r.size), whole(), &got));
    out.push_back(got);
  }
  EXPECT_EQ(got, s.plaintext[static_cast<int>(d)]);
  return out;
}

std::size_t record_index_at(const std::vector<record_span>& recs, std::size_t offset) {
  for (std::size_t i = 0; i < recs.size(); ++i)
    if (offset < recs[i].offset + recs[i].size) return i;
  return recs.size();
}

class RecordTamper : public ::testing::TestWithParam<std::tuple<bool, record_aead, hpke::kem_id>> {
 protected:
  static combination param() {
    const auto& [auth, aead, kem] = GetParam();
    return {auth, aead, kem};
  }
};

TEST_P(RecordTamper, TheRecordedSessionReplaysCleanly) {
  const session s = record_session(param());
  for (flow d : {flow::to_server, flow::to_client}) {
    const outcome o = replay(s, d, s.wire[static_cast<int>(d)]);
    EXPECT_FALSE(o.error) << o.error.message();
    EXPECT_EQ(o.released, s.plaintext[static_cast<int>(d)]);
  }
  EXPECT_EQ(s.plaintext[0].size(), 13u + 20u + 300u);
}

TEST_P(RecordTamper, EverySingleBitFlipIsRejectedAtItsRecord) {
  const session s = record_session(param());
  for (flow d : {flow::to_server, flow::to_client}) {
    const bytes& wire = s.wire[static_cast<int>(d)];
    const auto recs = records_of(wire);
    ASSERT_EQ(recs.back().offset + recs.back().size, wire.size());
    const auto before = released_before(s, d);
    seeded_random rng(7);
    // Each flip replays the whole session, handshake included. Every bit of
    // the wire for the reference suite (ChaCha20-Poly1305, X25519); for the
    // other AEADs and KEMs one bit of every byte, a different bit position
    // from byte to byte, which still reaches every field of every record.
    const bool every_bit = param().aead == record_aead::chacha20_poly1305 && param().kem == hpke::kem_id::x25519;
    for (std::size_t bit = 0; bit < wire.size() * 8; ++bit) {
      if (!every_bit && bit % 8 != (bit / 8 * 3) % 8) continue;
      bytes w = wire;
      w[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      // Half the flips are delivered in random fragments, half whole.
      const outcome o = (bit & 1) ? replay(s, d, w, random_split(rng, 40)) : replay(s, d, w);
      const std::size_t k = record_index_at(recs, bit / 8);
      ASSERT_TRUE(o.error) << "flip of bit " << bit << " (record " << k << ") went unnoticed";
      ASSERT_EQ(o.released, before[k]) << "flip of bit " << bit << " in record " << k << ": " << o.error.message();
    }
  }
}

TEST_P(RecordTamper, TruncationAtEveryOffsetIsReported) {
  const session s = record_session(param());
  for (flow d : {flow::to_server, flow::to_client}) {
    const bytes& wire = s.wire[static_cast<int>(d)];
    const auto recs = records_of(wire);
    const auto before = released_before(s, d);
    for (std::size_t cut = 0; cut < wire.size(); ++cut) {
      const outcome o = replay(s, d, bytes_view(wire).first(cut));
      ASSERT_EQ(o.error, record_errc::truncated) << cut;
      ASSERT_EQ(o.released, before[record_index_at(recs, cut)]) << cut;
    }
    EXPECT_FALSE(replay(s, d, wire).error);  // only the whole stream, ending with close, is clean
  }
}

TEST_P(RecordTamper, DroppedDuplicatedAndReorderedRecordsAreRejected) {
  const session s = record_session(param());
  for (flow d : {flow::to_server, flow::to_client}) {
    const bytes& wire = s.wire[static_cast<int>(d)];
    const auto recs = records_of(wire);
    const auto before = released_before(s, d);
    auto piece = [&](std::size_t i) { return bytes_view(wire).subspan(recs[i].offset, recs[i].size); };
    auto rebuild = [&](const std::vector<std::size_t>& order) {
      bytes w;
      for (std::size_t i : order) w.insert(w.end(), piece(i).begin(), piece(i).end());
      return w;
    };
    std::size_t first_protected = 0;
    while (recs[first_protected].type == 1) ++first_protected;
    std::vector<std::size_t> all(recs.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    for (std::size_t k = first_protected; k < recs.size(); ++k) {
      auto dropped = all;
      dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(k));
      outcome o = replay(s, d, rebuild(dropped));
      if (k + 1 < recs.size()) {
        EXPECT_EQ(o.error, record_errc::bad_record_mac) << "drop " << k;
      } else {
        EXPECT_EQ(o.error, record_errc::truncated) << "drop of the close record";
      }
      EXPECT_EQ(o.released, before[k]) << "drop " << k;

      auto duplicated = all;
      duplicated.insert(duplicated.begin() + static_cast<std::ptrdiff_t>(k) + 1, k);
      o = replay(s, d, rebuild(duplicated));
      EXPECT_TRUE(o.error == record_errc::bad_record_mac || o.error == record_errc::unexpected_record)
          << "duplicate " << k << ": " << o.error.message();
      EXPECT_EQ(o.released, before[k + 1]) << "duplicate " << k;

      if (k + 1 < recs.size()) {
        auto swapped = all;
        std::swap(swapped[k], swapped[k + 1]);
        o = replay(s, d, rebuild(swapped));
        EXPECT_EQ(o.error, record_errc::bad_record_mac) << "swap " << k;
        EXPECT_EQ(o.released, before[k]) << "swap " << k;
      }
    }
    // Records of the other flow reflected back are rejected too.
    const bytes& other = s.wire[1 - static_cast<int>(d)];
    const auto other_recs = records_of(other);
    bytes reflected(wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(recs[first_protected].offset));
    std::size_t other_first = 0;
    while (other_recs[other_first].type == 1) ++other_first;
    const auto r = other_recs[other_first];
    reflected.insert(reflected.end(), other.begin() + static_cast<std::ptrdiff_t>(r.offset),
                     other.begin() + static_cast<std::ptrdiff_t>(r.offset + r.size));
    const outcome o = replay(s, d, reflected);
    EXPECT_EQ(o.error, record_errc::bad_record_mac);
    EXPECT_TRUE(o.released.empty());
  }
}

std::string combination_name(const ::testing::TestParamInfo<RecordTamper::ParamType>& i) {
  const auto& [auth, aead, kem] = i.param;
  return std::string(auth ? "ClientAuth_" : "NoAuth_") + std::string(to_string(aead)) +
         (kem == hpke::kem_id::x25519 ? "_X25519" : "_X448");
}

INSTANTIATE_TEST_SUITE_P(AllSuites, RecordTamper,
                         ::testing::Combine(::testing::Bool(),
                                            ::testing::Values(record_aead::aes128_gcm, record_aead::aes256_gcm,
                                                              record_aead::chacha20_poly1305,
                                                              record_aead::xchacha20_poly1305),
                                            ::testing::Values(hpke::kem_id::x25519, hpke::kem_id::x448)),
                         combination_name);

}  // namespace
}  // namespace sealwire::record::test
