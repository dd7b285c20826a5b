// SPDX-License-Identifier: Apache-2.0
// The record protocol against its specification (docs/protocol.md), with no
// code of the library on the test's side: a peer written from the document
// on OpenSSL's HKDF, HMAC, digests and AEADs (libsodium for XChaCha20) and
// the independent HPKE of tests/support/hpke_oracle. The peer plays the
// client against a library server and the server against a library client,
// for every KEM, KDF and record AEAD, with and without client
// authentication (the server's encapsulation to the client's key), at every
// CPU level; it checks the key ids, the application protocol choice and the
// Finished MACs, derives the traffic keys, IVs and the exporter secret, and
// exchanges application, key_update and close records with hidden inner
// types: the library's records equal the peer's byte for byte (same
// content, sequence number and padding), the library opens what the peer
// sealed, and the library's exporter and channel binding equal the peer's.
#include <sealwire/record/connection.hpp>

#include "harness.hpp"
#include "hpke_oracle.hpp"
#include "oracles.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace sealwire::record::test {
namespace {

namespace ossl = sealwire::test::oracle;
namespace ref = sealwire::test::oracle::hpke;
using sealwire::test::seeded_random;
using sealwire::test::to_hex;

// ---- the specification, written out --------------------------------------

// The outer types (3), and the inner types of protected records (3.1).
constexpr std::uint8_t t_handshake = 1, t_protected = 2;
constexpr std::uint8_t t_application = 2, t_key_update = 3, t_close = 4;

bytes str(std::string_view s) { return bytes(s.begin(), s.end()); }
bytes cat(bytes a, const bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
void put_u16(bytes& out, std::size_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}
void put_vec16(bytes& out, const bytes& v) {
  put_u16(out, v.size());
  out.insert(out.end(), v.begin(), v.end());
}
bytes header(std::uint8_t type, std::size_t len) {
  return {type, static_cast<std::uint8_t>(len >> 16), static_cast<std::uint8_t>(len >> 8), static_cast<std::uint8_t>(len)};
}
bytes vec(bytes_view b) { return bytes(b.begin(), b.end()); }

struct spec_suite {
  std::uint16_t kem = 0, kdf = 0, aead = 0;
  const char* digest = nullptr;  // Hash of kdf
  std::size_t nh = 0;
  const char* cipher = nullptr;  // the record AEAD
  std::size_t nk = 0, nn = 0;
};

spec_suite suite_of(hpke::kem_id kem, hpke::kdf_id kdf, record_aead aead) {
  spec_suite s;
  s.kem = static_cast<std::uint16_t>(kem);
  s.kdf = static_cast<std::uint16_t>(kdf);
  s.aead = static_cast<std::uint16_t>(aead);
  s.digest = ref::kdf_digest(s.kdf);
  s.nh = s.kdf == 1 ? 32 : s.kdf == 2 ? 48 : 64;
  switch (aead) {
    case record_aead::aes128_gcm: s.cipher = "AES-128-GCM", s.nk = 16, s.nn = 12; break;
    case record_aead::aes256_gcm: s.cipher = "AES-256-GCM", s.nk = 32, s.nn = 12; break;
    case record_aead::chacha20_poly1305: s.cipher = "ChaCha20-Poly1305", s.nk = 32, s.nn = 12; break;
    case record_aead::xchacha20_poly1305: s.cipher = "XChaCha20-Poly1305", s.nk = 32, s.nn = 24; break;
  }
  return s;
}

// ExpandLabel(secret, label, context, L) (4.2): the HkdfLabel shape.
bytes expand_label(const spec_suite& s, const bytes& secret, std::string_view label, const bytes& context,
                   std::size_t len) {
  bytes info;
  put_u16(info, len);
  const bytes full = cat(str("sealwire v2 "), str(label));
  info.push_back(static_cast<std::uint8_t>(full.size()));
  info = cat(info, full);
  info.push_back(static_cast<std::uint8_t>(context.size()));
  info = cat(info, context);
  auto out = ossl::evp_hkdf_expand(s.digest, secret, info, len);
  EXPECT_TRUE(out.has_value());
  return out.value_or(bytes(len));
}

bytes hash(const spec_suite& s, const bytes& msg) { return ossl::evp_digest(s.digest, msg).value_or(bytes{}); }
bytes hmac(const spec_suite& s, const bytes& key, const bytes& msg) {
  return ossl::evp_hmac(s.digest, key, msg).value_or(bytes{});
}

// One direction's protection (3.1, 3.3).
struct direction {
  spec_suite s;
  bytes traffic, key, iv;
  std::uint64_t seq = 0;

  void install(const bytes& secret) {
    traffic = secret;
    key = expand_label(s, traffic, "key", {}, s.nk);
    iv = expand_label(s, traffic, "iv", {}, s.nn);
    seq = 0;
  }
  void update() { install(expand_label(s, traffic, "traffic upd", {}, s.nh)); }
  bytes nonce() const {
    bytes n = iv;
    for (int i = 0; i < 8; ++i) n[s.nn - 1 - static_cast<std::size_t>(i)] ^= static_cast<std::uint8_t>(seq >> (8 * i));
    return n;
  }
  // seal: header(2) || AEAD(key, nonce, aad = header, content || type || zeros).
  bytes seal(std::uint8_t type, const bytes& content, std::size_t padding = 0, std::optional<bytes> inner = {},
             std::uint8_t outer = t_protected) {
    bytes in = inner ? *inner : content;
    if (!inner) {
      in.push_back(type);
      in.resize(in.size() + padding, 0);
    }
    const bytes h = header(outer, in.size() + 16);
    auto body = ossl::evp_aead_seal(s.cipher, key, nonce(), h, in);
    EXPECT_TRUE(body.has_value());
    ++seq;
    return cat(h, body.value_or(bytes{}));
  }
  // open: the record's inner type and content, after the tag verified and
  // the padding and type byte were stripped; nullopt when anything is wrong.
  struct opened {
    std::uint8_t type;
    bytes content;
    std::size_t padding;
  };
  std::optional<opened> open(const bytes& record) {
    if (record.size() < 4) return std::nullopt;
    const bytes h(record.begin(), record.begin() + 4);
    const std::size_t len = (std::size_t{h[1]} << 16) | (std::size_t{h[2]} << 8) | h[3];
    if (record.size() != 4 + len || h[0] != t_protected) return std::nullopt;
    auto in = ossl::evp_aead_open(s.cipher, key, nonce(), h, bytes(record.begin() + 4, record.end()));
    if (!in) return std::nullopt;
    ++seq;
    std::size_t end = in->size();
    while (end > 0 && (*in)[end - 1] == 0) --end;
    if (end == 0) return std::nullopt;
    return opened{(*in)[end - 1], bytes(in->begin(), in->begin() + static_cast<std::ptrdiff_t>(end - 1)),
                  in->size() - end};
  }
};

// The traffic secrets from the handshake secret and TH2 (4.2); returns the
// exporter secret.
bytes traffic_keys(const spec_suite& s, const bytes& hs, const bytes& th2, direction& c2s, direction& s2c) {
  const bytes master = expand_label(s, hs, "master", th2, s.nh);
  c2s.s = s2c.s = s;
  c2s.install(expand_label(s, master, "c traffic", {}, s.nh));
  s2c.install(expand_label(s, master, "s traffic", {}, s.nh));
  return expand_label(s, master, "exporter", {}, s.nh);
}

// export_keying_material (5).
bytes spec_export(const spec_suite& s, const bytes& exporter, std::string_view label, const bytes& context,
                  std::size_t len) {
  const bytes derived = expand_label(s, exporter, label, hash(s, {}), s.nh);
  return expand_label(s, derived, "exporter", hash(s, context), len);
}

// check_exporters compares the library's exporter and channel binding with
// the specification's.
void check_exporters(const connection& lib, const spec_suite& s, const bytes& exporter) {
  bytes out(40);
  ASSERT_TRUE(lib.export_keying_material(out, "EXPORTER-oracle", str("ctx")));
  EXPECT_EQ(to_hex(out), to_hex(spec_export(s, exporter, "EXPORTER-oracle", str("ctx"), 40))) << "exporter";
  const auto cb = lib.channel_binding();
  ASSERT_TRUE(cb);
  EXPECT_EQ(to_hex(vec(*cb)), to_hex(spec_export(s, exporter, "EXPORTER-Channel-Binding", {}, 32)))
      << "channel binding";
}

// key_id (2): SHA-256("sealwire v2 key id" || u16 kem || pk)[0..8].
bytes key_id(std::uint16_t kem, const bytes& pk) {
  bytes in = str("sealwire v2 key id");
  put_u16(in, kem);
  in = cat(in, pk);
  const bytes d = ossl::evp_digest("SHA256", in).value_or(bytes(32));
  return bytes(d.begin(), d.begin() + 8);
}

// The HPKE export of one handshake context (suite (kem, kdf, 0xffff)).
std::optional<bytes> export_ss(const spec_suite& s, const bytes& shared_secret, std::uint8_t mode, std::string_view info,
                               std::string_view label) {
  auto ctx = ref::key_schedule(s.kem, s.kdf, 0xffff, shared_secret, {mode, str(info), {}, {}});
  if (!ctx) return std::nullopt;
  return ref::export_secret(*ctx, str(label), s.nh);
}

// Whole records of a byte stream.
std::vector<bytes> split_records(const bytes& wire) {
  std::vector<bytes> out;
  for (const auto& r : records_of(wire))
    out.emplace_back(wire.begin() + static_cast<std::ptrdiff_t>(r.offset),
                     wire.begin() + static_cast<std::ptrdiff_t>(r.offset + r.size));
  return out;
}

ref::key_pair ref_pair(const hpke::private_key& k) { return {vec(k.bytes()), vec(k.public_key().bytes())}; }

// ---- the exchange after the handshake ---------------------------------------

std::size_t padding_for(std::size_t content, std::size_t pad_to) {
  if (pad_to <= 1) return 0;
  const std::size_t inner = (content + 1 + pad_to - 1) / pad_to * pad_to;
  return std::min(inner, std::size_t{16384} + 1) - content - 1;
}

// exchange runs records both ways between the library connection `lib` and
// the spec peer, whose `out` direction protects what it sends to lib and
// `in` what lib sends to it. lib pads its application records to pad_to.
void exchange(connection& lib, direction& out, direction& in, std::size_t pad_to, seeded_random& rng) {
  int compared = 0;
  // 16384: the largest content, where padding stops at max_record_size + 1.
  for (std::size_t size : {std::size_t{1}, std::size_t{17}, std::size_t{600}, std::size_t{5000}, std::size_t{16384}}) {
    SCOPED_TRACE("content " + std::to_string(size));
    // lib -> peer: equal to the peer's own sealing, byte for byte.
    const bytes content = rng.fill(size);
    bytes wire;
    write_all(lib, content, wire);
    const auto recs = split_records(wire);
    ASSERT_EQ(recs.size(), 1u);
    direction copy = in;
    const bytes want = copy.seal(t_application, content, padding_for(size, pad_to));
    EXPECT_EQ(to_hex(recs[0]), to_hex(want)) << "the library's record differs from the specification's";
    const auto got = in.open(recs[0]);
    ASSERT_TRUE(got) << "the library's record does not open per the specification";
    EXPECT_EQ(got->type, t_application);
    EXPECT_EQ(got->content, content);
    EXPECT_EQ(got->padding, padding_for(size, pad_to));

    // peer -> lib, with some padding of the peer's choice (inner at most 16385 bytes).
    const bytes back = rng.fill(size);
    const bytes rec = out.seal(t_application, back, rng.uniform(std::min<std::size_t>(40, 16384 - size) + 1));
    bytes plain;
    const auto e = deliver(lib, rec, whole(), &plain);
    ASSERT_FALSE(e) << e.message();
    EXPECT_EQ(plain, back);
    ++compared;
  }
  EXPECT_EQ(compared, 5);

  // An empty application record (test hook): content empty, padded like any
  // application record.
  ASSERT_TRUE(hook::seal_empty_application_record(lib));
  {
    const auto recs = split_records(take_pending(lib));
    ASSERT_EQ(recs.size(), 1u);
    direction copy = in;
    EXPECT_EQ(to_hex(recs[0]), to_hex(copy.seal(t_application, {}, padding_for(0, pad_to))));
    const auto got = in.open(recs[0]);
    ASSERT_TRUE(got);
    EXPECT_TRUE(got->content.empty());
  }

  // Key updates, each side: lib's key_update is padded like application
  // data (3.1); after it, lib seals with traffic_{n+1} from sequence 0.
  ASSERT_TRUE(lib.update_keys());
  {
    const auto recs = split_records(take_pending(lib));
    ASSERT_EQ(recs.size(), 1u);
    direction copy = in;
    EXPECT_EQ(to_hex(recs[0]), to_hex(copy.seal(t_key_update, {}, padding_for(0, pad_to))));
    const auto got = in.open(recs[0]);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->type, t_key_update);
    EXPECT_TRUE(got->content.empty());
    EXPECT_EQ(got->padding, padding_for(0, pad_to));
    in.update();
  }
  const bytes after = rng.fill(33);
  bytes wire;
  write_all(lib, after, wire);
  {
    const auto recs = split_records(wire);
    ASSERT_EQ(recs.size(), 1u);
    direction copy = in;
    EXPECT_EQ(to_hex(recs[0]), to_hex(copy.seal(t_application, after, padding_for(after.size(), pad_to))))
        << "after a key update";
    ASSERT_TRUE(in.open(recs[0]));
  }
  // The peer updates (a padded key_update is still a key_update: content empty).
  bytes plain;
  ASSERT_FALSE(deliver(lib, out.seal(t_key_update, {}, 3), whole(), &plain));
  out.update();
  const bytes msg = rng.fill(70);
  ASSERT_FALSE(deliver(lib, out.seal(t_application, msg), bytewise(), &plain));
  EXPECT_EQ(plain, msg) << "after the peer's key update";

  // Close, each side: one reason byte (3.4), 0 = normal, padded too.
  ASSERT_TRUE(lib.close());
  {
    const auto recs = split_records(take_pending(lib));
    ASSERT_EQ(recs.size(), 1u);
    direction copy = in;
    EXPECT_EQ(to_hex(recs[0]), to_hex(copy.seal(t_close, {0}, padding_for(1, pad_to))));
    const auto got = in.open(recs[0]);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->type, t_close);
    EXPECT_EQ(got->content, bytes{0});
  }
  ASSERT_FALSE(deliver(lib, out.seal(t_close, {0}, 5), whole(), &plain));
  EXPECT_TRUE(lib.peer_closed());
  EXPECT_TRUE(lib.end_of_input());
}

// ---- the peer as client, the library as server --------------------------------

using param = std::tuple<hpke::kem_id, hpke::kdf_id, record_aead, bool>;

std::size_t pad_of(const param& p) {
  // Cycle the library's padding through none, small and large blocks.
  const auto [kem, kdf, aead, auth] = p;
  return (static_cast<std::size_t>(kdf) + static_cast<std::size_t>(aead) + (auth ? 1 : 0)) % 3 == 0   ? 0
         : (static_cast<std::size_t>(kdf) + static_cast<std::size_t>(aead) + (auth ? 1 : 0)) % 3 == 1 ? 48
                                                                                                        : 1000;
}

class RecordSpec : public ::testing::TestWithParam<param> {};

void spec_client_against_library_server(const param& p) {
  const auto [kem, kdf, aead, client_auth] = p;
  const spec_suite s = suite_of(kem, kdf, aead);
  const std::size_t pad_to = pad_of(p);
  seeded_random rng(0x5eca11 + s.kem * 7 + s.kdf * 3 + s.aead + (client_auth ? 1000 : 0));

  // The server holds two keys (a rotation, 4.4); the peer pins a key the
  // server does not hold first, then the server's second key.
  auto server_key = make_key(kem);
  auto old_key = make_key(kem);
  auto sc = server_cfg(server_key);
  sc->extra_static_keys = {old_key};
  sc->limits.pad_to = pad_to;
  sc->require_client_auth = client_auth;
  sc->accept_any_client_key = true;
  sc->app_protocols = {"svc/1", "svc/2"};
  auto server = connection::server(sc);
  ASSERT_TRUE(server);

  // ClientHello (4.1): two versions (one unknown), two AEADs (the first one
  // unknown: the server picks the first it supports), two protocols (the
  // server picks the client's first that it runs), two key_shares.
  const auto eph = ref::derive_key_pair(s.kem, rng.fill(64));
  const auto e1 = ref::derive_key_pair(s.kem, rng.fill(64));
  const auto e_unknown = ref::derive_key_pair(s.kem, rng.fill(64));
  const auto unknown = ref::derive_key_pair(s.kem, rng.fill(64));
  const auto cs = ref::derive_key_pair(s.kem, rng.fill(64));
  ASSERT_TRUE(eph && e1 && e_unknown && unknown && cs);
  const ref::key_pair ks = ref_pair(*old_key);
  const auto enc1 = ref::encap(s.kem, ks.pk, *e1);
  const auto enc_unknown = ref::encap(s.kem, unknown->pk, *e_unknown);
  ASSERT_TRUE(enc1 && enc_unknown);
  const auto ss1 = export_ss(s, enc1->shared_secret, ref::mode_base, "sealwire v2 static", "sealwire v2 ss1");
  ASSERT_TRUE(ss1);
  bytes ch{1, 2};
  put_u16(ch, 0x7f01);
  put_u16(ch, 0x0002);
  put_u16(ch, s.kem);
  put_u16(ch, s.kdf);
  ch.push_back(2);
  put_u16(ch, 0xfefe);
  put_u16(ch, s.aead);
  ch.push_back(2);
  ch.push_back(5);
  ch = cat(ch, str("other"));
  ch.push_back(5);
  ch = cat(ch, str("svc/2"));
  ch.push_back(2);
  ch = cat(ch, key_id(s.kem, unknown->pk));
  put_vec16(ch, enc_unknown->enc);
  const bytes used_id = key_id(s.kem, ks.pk);
  ch = cat(ch, used_id);
  put_vec16(ch, enc1->enc);
  put_vec16(ch, eph->pk);
  ch.push_back(client_auth ? 1 : 0);
  if (client_auth) put_vec16(ch, cs->pk);
  bytes none;
  ASSERT_FALSE(deliver(*server, cat(header(t_handshake, ch.size()), ch), whole(), &none));

  // ServerHello, ServerFinished.
  const auto flight = split_records(take_pending(*server));
  ASSERT_EQ(flight.size(), 2u);
  ASSERT_EQ(flight[0][0], t_handshake);
  ASSERT_EQ(flight[1][0], t_handshake);
  const bytes sh(flight[0].begin() + 4, flight[0].end());
  const bytes sf(flight[1].begin() + 4, flight[1].end());
  const std::size_t n_enc = ref::kem_of(s.kem)->n_enc;
  const std::size_t proto_at = 1 + 2 + 2 + 8;
  ASSERT_EQ(sh.size(), proto_at + 1 + 5 + 2 + n_enc + (client_auth ? 2 + n_enc : 0));
  EXPECT_EQ(sh[0], 2);
  EXPECT_EQ((sh[1] << 8) | sh[2], 0x0002) << "version";
  EXPECT_EQ((sh[3] << 8) | sh[4], s.aead) << "the first AEAD of the client's list the server supports";
  EXPECT_EQ(to_hex(bytes(sh.begin() + 5, sh.begin() + 13)), to_hex(used_id)) << "the key the server holds";
  EXPECT_EQ(bytes(sh.begin() + proto_at, sh.begin() + proto_at + 6), cat({5}, str("svc/2"))) << "protocol";
  std::size_t at = proto_at + 6;
  ASSERT_EQ(static_cast<std::size_t>((sh[at] << 8) | sh[at + 1]), n_enc);
  const bytes enc2(sh.begin() + static_cast<std::ptrdiff_t>(at + 2),
                   sh.begin() + static_cast<std::ptrdiff_t>(at + 2 + n_enc));
  at += 2 + n_enc;

  // Key schedule (4.2).
  const auto ss_eph = ref::decap(s.kem, enc2, *eph);
  ASSERT_TRUE(ss_eph);
  const auto ss2 = export_ss(s, *ss_eph, ref::mode_base, "sealwire v2 ephemeral", "sealwire v2 ss2");
  ASSERT_TRUE(ss2);
  bytes ss3;
  if (client_auth) {
    ASSERT_EQ(static_cast<std::size_t>((sh[at] << 8) | sh[at + 1]), n_enc);
    const bytes enc3(sh.begin() + static_cast<std::ptrdiff_t>(at + 2), sh.end());
    const auto ss_client = ref::decap(s.kem, enc3, *cs);
    ASSERT_TRUE(ss_client);
    const auto x = export_ss(s, *ss_client, ref::mode_base, "sealwire v2 client", "sealwire v2 ss3");
    ASSERT_TRUE(x);
    ss3 = *x;
  }
  const auto hs = ossl::evp_hkdf_extract(s.digest, *ss2, cat(*ss1, ss3));
  ASSERT_TRUE(hs);
  const bytes th1 = hash(s, cat(ch, sh));
  const bytes s_mac = hmac(s, expand_label(s, *hs, "s finished", {}, s.nh), th1);
  EXPECT_EQ(to_hex(sf), to_hex(cat({3}, s_mac))) << "ServerFinished";
  const bytes th2 = hash(s, cat(cat(ch, sh), sf));
  const bytes cf = cat({4}, hmac(s, expand_label(s, *hs, "c finished", {}, s.nh), th2));
  EXPECT_FALSE(server->handshake_complete());
  ASSERT_FALSE(deliver(*server, cat(header(t_handshake, cf.size()), cf), whole(), &none));
  ASSERT_TRUE(server->handshake_complete());
  EXPECT_EQ(server->app_protocol(), "svc/2");
  if (client_auth) {
    EXPECT_EQ(to_hex(server->peer_public_key()), to_hex(cs->pk));
  }

  direction c2s, s2c;
  const bytes exporter = traffic_keys(s, *hs, th2, c2s, s2c);
  check_exporters(*server, s, exporter);
  exchange(*server, c2s, s2c, pad_to, rng);
}

// ---- the peer as server, the library as client --------------------------------

void spec_server_against_library_client(const param& p) {
  const auto [kem, kdf, aead, client_auth] = p;
  const spec_suite s = suite_of(kem, kdf, aead);
  const std::size_t pad_to = pad_of(p);
  seeded_random rng(0xc11e47 + s.kem * 7 + s.kdf * 3 + s.aead + (client_auth ? 1000 : 0));

  auto server_key = make_key(kem);
  auto cc = client_cfg(*server_key);
  cc->kdf = kdf;
  cc->aeads = {aead};
  cc->app_protocols = {"svc"};
  cc->limits.pad_to = pad_to;
  std::shared_ptr<const hpke::private_key> client_key;
  if (client_auth) {
    client_key = make_key(kem);
    cc->client_key = client_key;
  }
  auto client = connection::client(cc);
  ASSERT_TRUE(client);

  // ClientHello, parsed per 4.1.
  const auto first = split_records(take_pending(*client));
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(first[0][0], t_handshake);
  const bytes ch(first[0].begin() + 4, first[0].end());
  const auto kp = *ref::kem_of(s.kem);
  const ref::key_pair ks = ref_pair(*server_key);
  bytes expect_ch{1, 1, 0x00, 0x02};
  put_u16(expect_ch, s.kem);
  put_u16(expect_ch, s.kdf);
  expect_ch.push_back(1);
  put_u16(expect_ch, s.aead);
  expect_ch.push_back(1);
  expect_ch.push_back(3);
  expect_ch = cat(expect_ch, str("svc"));
  expect_ch.push_back(1);
  const bytes id = key_id(s.kem, ks.pk);
  expect_ch = cat(expect_ch, id);
  put_u16(expect_ch, kp.n_enc);
  const std::size_t fixed = expect_ch.size();
  ASSERT_EQ(ch.size(), fixed + kp.n_enc + 2 + kp.n_pk + 1 + (client_auth ? 2 + kp.n_pk : 0));
  EXPECT_EQ(to_hex(bytes(ch.begin(), ch.begin() + static_cast<std::ptrdiff_t>(fixed))), to_hex(expect_ch));
  const bytes enc1(ch.begin() + static_cast<std::ptrdiff_t>(fixed),
                   ch.begin() + static_cast<std::ptrdiff_t>(fixed + kp.n_enc));
  std::size_t at = fixed + kp.n_enc;
  ASSERT_EQ(static_cast<std::size_t>((ch[at] << 8) | ch[at + 1]), kp.n_pk);
  const bytes eph(ch.begin() + static_cast<std::ptrdiff_t>(at + 2),
                  ch.begin() + static_cast<std::ptrdiff_t>(at + 2 + kp.n_pk));
  at += 2 + kp.n_pk;
  EXPECT_EQ(ch[at], client_auth ? 1 : 0) << "flags";
  at += 1;
  bytes pk_c;
  if (client_auth) {
    ASSERT_EQ(static_cast<std::size_t>((ch[at] << 8) | ch[at + 1]), kp.n_pk);
    pk_c = bytes(ch.begin() + static_cast<std::ptrdiff_t>(at + 2), ch.end());
    EXPECT_EQ(to_hex(pk_c), to_hex(client_key->public_key().bytes()));
  }

  // ss1 from enc1 and the server's static key; ss2 and ss3 from fresh
  // encapsulations to the client's ephemeral and static keys.
  const auto ss_static = ref::decap(s.kem, enc1, ks);
  ASSERT_TRUE(ss_static);
  const auto ss1 = export_ss(s, *ss_static, ref::mode_base, "sealwire v2 static", "sealwire v2 ss1");
  const auto e2 = ref::derive_key_pair(s.kem, rng.fill(64));
  const auto e3 = ref::derive_key_pair(s.kem, rng.fill(64));
  ASSERT_TRUE(ss1 && e2 && e3);
  const auto enc2 = ref::encap(s.kem, eph, *e2);
  ASSERT_TRUE(enc2);
  const auto ss2 = export_ss(s, enc2->shared_secret, ref::mode_base, "sealwire v2 ephemeral", "sealwire v2 ss2");
  ASSERT_TRUE(ss2);
  bytes sh{2, 0x00, 0x02};
  put_u16(sh, s.aead);
  sh = cat(sh, id);
  sh.push_back(3);
  sh = cat(sh, str("svc"));
  put_vec16(sh, enc2->enc);
  bytes ss3;
  if (client_auth) {
    const auto enc3 = ref::encap(s.kem, pk_c, *e3);
    ASSERT_TRUE(enc3);
    const auto x = export_ss(s, enc3->shared_secret, ref::mode_base, "sealwire v2 client", "sealwire v2 ss3");
    ASSERT_TRUE(x);
    ss3 = *x;
    put_vec16(sh, enc3->enc);
  }
  const auto hs = ossl::evp_hkdf_extract(s.digest, *ss2, cat(*ss1, ss3));
  ASSERT_TRUE(hs);
  const bytes th1 = hash(s, cat(ch, sh));
  const bytes sf = cat({3}, hmac(s, expand_label(s, *hs, "s finished", {}, s.nh), th1));
  const bytes th2 = hash(s, cat(cat(ch, sh), sf));
  const bytes cf = cat({4}, hmac(s, expand_label(s, *hs, "c finished", {}, s.nh), th2));

  bytes none;
  ASSERT_FALSE(deliver(*client, cat(cat(header(t_handshake, sh.size()), sh), cat(header(t_handshake, sf.size()), sf)),
                       whole(), &none));
  ASSERT_TRUE(client->handshake_complete());
  EXPECT_EQ(client->app_protocol(), "svc");
  const auto fin = split_records(take_pending(*client));
  ASSERT_EQ(fin.size(), 1u);
  EXPECT_EQ(to_hex(fin[0]), to_hex(cat(header(t_handshake, cf.size()), cf))) << "ClientFinished";

  direction c2s, s2c;
  const bytes exporter = traffic_keys(s, *hs, th2, c2s, s2c);
  check_exporters(*client, s, exporter);
  exchange(*client, s2c, c2s, pad_to, rng);
}

TEST_P(RecordSpec, SpecClientAgainstLibraryServer) {
  sealwire::test::at_every_level([&] { spec_client_against_library_server(GetParam()); });
}

TEST_P(RecordSpec, SpecServerAgainstLibraryClient) {
  sealwire::test::at_every_level([&] { spec_server_against_library_client(GetParam()); });
}

std::string param_name(const ::testing::TestParamInfo<param>& i) {
  const auto [kem, kdf, aead, auth] = i.param;
  std::string n = std::string(hpke::to_string(kem)) + "_" + std::string(hpke::to_string(kdf)) + "_" +
                  std::string(to_string(aead)) + (auth ? "_auth" : "");
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(
    EverySuite, RecordSpec,
    ::testing::Combine(::testing::Values(hpke::kem_id::x25519, hpke::kem_id::x448),
                       ::testing::Values(hpke::kdf_id::hkdf_sha256, hpke::kdf_id::hkdf_sha384, hpke::kdf_id::hkdf_sha512),
                       ::testing::Values(record_aead::chacha20_poly1305, record_aead::xchacha20_poly1305,
                                         record_aead::aes128_gcm, record_aead::aes256_gcm),
                       ::testing::Bool()),
    param_name);

// ---- what the receiver must refuse (3.1), per the specification's peer ------

// connected_to_spec_client runs the spec peer's handshake (as a client,
// X25519, HKDF-SHA256, ChaCha20-Poly1305) against a library server and
// returns the peer's directions.
struct spec_session {
  connection server;
  direction c2s, s2c;
};

std::optional<spec_session> connected_to_spec_client(seeded_random& rng) {
  const spec_suite s = suite_of(hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha256, record_aead::chacha20_poly1305);
  auto server_key = make_key(hpke::kem_id::x25519);
  auto server = connection::server(server_cfg(server_key));
  if (!server) return std::nullopt;
  const auto eph = ref::derive_key_pair(s.kem, rng.fill(32));
  const auto e1 = ref::derive_key_pair(s.kem, rng.fill(32));
  if (!eph || !e1) return std::nullopt;
  const bytes pk = ref_pair(*server_key).pk;
  const auto enc1 = ref::encap(s.kem, pk, *e1);
  if (!enc1) return std::nullopt;
  const auto ss1 = export_ss(s, enc1->shared_secret, ref::mode_base, "sealwire v2 static", "sealwire v2 ss1");
  if (!ss1) return std::nullopt;
  bytes ch{1, 1, 0x00, 0x02};
  put_u16(ch, s.kem);
  put_u16(ch, s.kdf);
  ch.push_back(1);
  put_u16(ch, s.aead);
  ch.push_back(0);  // no protocols
  ch.push_back(1);  // one key_share
  ch = cat(ch, key_id(s.kem, pk));
  put_vec16(ch, enc1->enc);
  put_vec16(ch, eph->pk);
  ch.push_back(0);
  bytes none;
  if (deliver(*server, cat(header(t_handshake, ch.size()), ch), whole(), &none)) return std::nullopt;
  const auto flight = split_records(take_pending(*server));
  if (flight.size() != 2) return std::nullopt;
  const bytes sh(flight[0].begin() + 4, flight[0].end()), sf(flight[1].begin() + 4, flight[1].end());
  const std::size_t enc2_at = 1 + 2 + 2 + 8 + 1 + 2;
  if (sh.size() != enc2_at + 32) return std::nullopt;
  const auto ss_eph = ref::decap(s.kem, bytes(sh.begin() + enc2_at, sh.end()), *eph);
  if (!ss_eph) return std::nullopt;
  const auto ss2 = export_ss(s, *ss_eph, ref::mode_base, "sealwire v2 ephemeral", "sealwire v2 ss2");
  if (!ss2) return std::nullopt;
  const auto hs = ossl::evp_hkdf_extract(s.digest, *ss2, *ss1);
  if (!hs) return std::nullopt;
  const bytes th2 = hash(s, cat(cat(ch, sh), sf));
  const bytes cf = cat({4}, hmac(s, expand_label(s, *hs, "c finished", {}, s.nh), th2));
  if (deliver(*server, cat(header(t_handshake, cf.size()), cf), whole(), &none)) return std::nullopt;
  spec_session out{std::move(*server), {}, {}};
  traffic_keys(s, *hs, th2, out.c2s, out.s2c);
  return out;
}

// Each record below is sealed correctly by the peer, so only the rule named
// can reject it; the same session first accepts a valid record padded to the
// largest inner plaintext allowed (max_record_size + 1), so the keys are
// right and the size limit is where the specification puts it.
TEST(RecordSpecReceiver, RefusesWhatTheSpecificationForbids) {
  struct bad_case {
    const char* what;
    std::function<bytes(direction&)> make;
    record_errc want;
  };
  const bad_case cases[] = {
      {"inner plaintext of zeros only (no type)", [](direction& d) { return d.seal(t_application, {}, 0, bytes(9, 0)); },
       record_errc::unexpected_record},
      {"a body too short for a type and a tag", [](direction& d) { return d.seal(t_application, {}, 0, bytes{}); },
       record_errc::bad_record_mac},
      {"key_update with content", [](direction& d) { return d.seal(t_key_update, bytes{7}); },
       record_errc::unexpected_record},
      {"close without a reason", [](direction& d) { return d.seal(t_close, {}); }, record_errc::unexpected_record},
      {"close with two content bytes", [](direction& d) { return d.seal(t_close, bytes{0, 1}); },
       record_errc::unexpected_record},
      {"close with an error reason", [](direction& d) { return d.seal(t_close, bytes{3}, 7); },
       record_errc::peer_error_close},
      {"a sequence number skipped",
       [](direction& d) {
         ++d.seq;
         return d.seal(t_application, bytes{1, 2, 3});
       },
       record_errc::bad_record_mac},
      {"the header changed after sealing (it is the AAD)",
       [](direction& d) {
         bytes r = d.seal(t_application, bytes{1, 2, 3});
         r[3] = static_cast<std::uint8_t>(r[3] + 1);
         r.push_back(0);
         return r;
       },
       record_errc::bad_record_mac},
      {"padding past max_record_size + 1",
       [](direction& d) { return d.seal(t_application, bytes{1}, 16384 + 1 - 2 + 1); }, record_errc::record_too_large},
      {"an inner type the protocol does not have", [](direction& d) { return d.seal(5, bytes{1}); },
       record_errc::unexpected_record},
      {"an inner handshake type", [](direction& d) { return d.seal(t_handshake, bytes{1}); },
       record_errc::unexpected_record},
      {"an outer type other than 2 (the v1 key_update type)",
       [](direction& d) { return d.seal(t_key_update, {}, 0, {}, 3); }, record_errc::unexpected_record},
      {"a handshake record after the handshake",
       [](direction&) {
         bytes r = header(t_handshake, 2);
         r.push_back(4);
         r.push_back(0);
         return r;
       },
       record_errc::unexpected_record},
  };
  seeded_random rng(0xbad5ec);
  for (const bad_case& c : cases) {
    SCOPED_TRACE(c.what);
    auto session = connected_to_spec_client(rng);
    ASSERT_TRUE(session);
    bytes plain;
    ASSERT_FALSE(deliver(session->server, session->c2s.seal(t_application, bytes{9, 9}, 16384 + 1 - 3), whole(), &plain));
    EXPECT_EQ(plain, (bytes{9, 9}));
    const auto e = deliver(session->server, c.make(session->c2s), whole(), &plain);
    EXPECT_EQ(e, c.want);
    EXPECT_EQ(plain, (bytes{9, 9})) << "nothing of the bad record was released";
  }
}

}  // namespace
}  // namespace sealwire::record::test
