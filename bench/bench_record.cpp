// SPDX-License-Identifier: Apache-2.0
// Record-layer benchmarks, each beside what it is built on or competes with:
// - seal and open of one record through the sans-IO connection beside the
//   raw AEAD doing the same work (targets: overhead <= 5% at 16 KiB, <= 25%
//   at 64 B);
// - a 16 KiB record fed to the opener in 100-byte fragments beside whole;
// - a full handshake (both sides) beside the HPKE and X25519 operations in
//   it, and the same handshake with X-Wing (the default KEM);
// - loopback TCP throughput of record::stream with 16 KiB writes beside plain
//   TCP, plain TCP carrying raw ChaCha20-Poly1305 frames (the floor for any
//   sealed channel) and boost::asio::ssl::stream (TLS 1.3,
//   ChaCha20-Poly1305, OpenSSL).
#include "common.hpp"

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/x25519.hpp>
#include <sealwire/hpke/context.hpp>
#include <sealwire/record/stream.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <thread>

namespace sealwire::record::detail {
// The benchmarks' hook: reopen the same record at the same sequence number.
struct connection_test_access {
  static void set_receive_sequence(connection& c, std::uint64_t s) { c.rx_.seq = s; }
};
}  // namespace sealwire::record::detail

namespace sealwire::bench {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using record::bytes_view;
using record::connection;
using hook = record::detail::connection_test_access;

struct endpoints {
  connection client;
  connection server;
};

std::shared_ptr<const hpke::private_key> server_key() {
  static const auto key = std::make_shared<const hpke::private_key>(
      std::move(hpke::derive_key_pair(hpke::kem_id::x25519, pattern(32, 5))->priv));
  return key;
}

std::shared_ptr<const hpke::private_key> client_key() {
  static const auto key = std::make_shared<const hpke::private_key>(
      std::move(hpke::derive_key_pair(hpke::kem_id::x25519, pattern(32, 6))->priv));
  return key;
}

std::shared_ptr<const record::client_config> client_config(
    record::record_aead aead = record::record_aead::chacha20_poly1305) {
  auto c = std::make_shared<record::client_config>();
  c->server_key = server_key()->public_key();
  c->aeads = {aead};
  return c;
}

std::shared_ptr<const record::server_config> server_config() {
  auto s = std::make_shared<record::server_config>();
  s->static_key = server_key();
  return s;
}

void pump(connection& from, connection& to) {
  const auto p = from.pending();
  std::size_t used = 0;
  while (used < p.size()) used += *to.receive(p.subspan(used));
  from.consume(p.size());
}

// measure_handshake: one whole handshake per iteration, both sides in this
// thread, with the given configurations.
void measure_handshake(benchmark::State& st, std::shared_ptr<const record::client_config> cc,
                       std::shared_ptr<const record::server_config> sc) {
  measure(st, 0, [&] {
    auto c = *connection::client(cc);
    auto s = *connection::server(sc);
    pump(c, s);
    pump(s, c);
    pump(c, s);
    benchmark::DoNotOptimize(s.handshake_complete());
  });
}

endpoints connected(record::record_aead aead = record::record_aead::chacha20_poly1305) {
  endpoints e{*connection::client(client_config(aead)), *connection::server(server_config())};
  pump(e.client, e.server);
  pump(e.server, e.client);
  pump(e.client, e.server);
  return e;
}

// The header a record of n content bytes has (the raw AEAD's associated data):
// outer type 2, content, inner type byte, tag.
bytes header_for(std::size_t n) {
  const std::size_t body = n + 1 + 16;
  return {2, static_cast<std::uint8_t>(body >> 16), static_cast<std::uint8_t>(body >> 8),
          static_cast<std::uint8_t>(body)};
}

// One AEAD's record benchmarks: "record.seal" and "record.open" for
// ChaCha20-Poly1305, "record.seal.aes128_gcm" and so on for the others.
void register_records(record::record_aead aead, crypto::aead_algorithm alg, const std::string& suffix) {
  const std::size_t key_size = crypto::properties(alg).key_size;
  for (std::size_t n : {64u, 1024u, 16384u}) {
    add("record.seal" + suffix, n, "sealwire", [n, aead](benchmark::State& st) {
      auto e = connected(aead);
      const bytes pt = pattern(n);
      measure(st, n, [&] {
        benchmark::DoNotOptimize(e.client.write(pt));
        e.client.consume(e.client.pending().size());
      });
    });
    add("record.seal" + suffix, n, "raw_aead", [n, alg, key_size](benchmark::State& st) {
      // The same work without the record layer: content || inner type sealed
      // with the header as associated data, into a send buffer.
      bytes key = pattern(key_size, 3), nonce = pattern(12, 4), pt = pattern(n + 1), out(4 + n + 1 + 16);
      const bytes aad = header_for(n);
      measure(st, n, [&] {
        benchmark::DoNotOptimize(crypto::aead_seal(alg, std::span(out).subspan(4), pt, associated_data(aad), nonce, key));
      });
    });
    add("record.open" + suffix, n, "sealwire", [n, aead](benchmark::State& st) {
      auto e = connected(aead);
      const bytes pt = pattern(n);
      (void)e.client.write(pt);
      const bytes wire(e.client.pending().begin(), e.client.pending().end());
      measure(st, n, [&] {
        hook::set_receive_sequence(e.server, 0);
        benchmark::DoNotOptimize(e.server.receive(wire));
        e.server.discard(e.server.readable());
      });
    });
    add("record.open" + suffix, n, "raw_aead", [n, alg, key_size](benchmark::State& st) {
      bytes key = pattern(key_size, 3), nonce = pattern(12, 4), pt = pattern(n + 1), ct(n + 1 + 16), out(n + 1);
      const bytes aad = header_for(n);
      (void)crypto::aead_seal(alg, ct, pt, associated_data(aad), nonce, key);
      measure(st, n, [&] {
        benchmark::DoNotOptimize(crypto::aead_open(alg, out, ct, associated_data(aad), nonce, key));
      });
    });
  }
}

void register_sans_io() {
  register_records(record::record_aead::chacha20_poly1305, crypto::aead_algorithm::chacha20_poly1305, "");
  register_records(record::record_aead::aes128_gcm, crypto::aead_algorithm::aes128_gcm, ".aes128_gcm");
  // One 16 KiB record fed in pieces (the largest "piece" is the whole record).
  const std::size_t wire_size = 16384 + 4 + 1 + 16;
  for (std::size_t piece : {std::size_t{100}, std::size_t{1000}, std::size_t{1448}, wire_size}) {
    add("record.open_pieces", piece, "sealwire", [piece](benchmark::State& st) {
      auto e = connected();
      const bytes pt = pattern(16384);
      (void)e.client.write(pt);
      const bytes wire(e.client.pending().begin(), e.client.pending().end());
      measure(st, 16384, [&] {
        hook::set_receive_sequence(e.server, 0);
        for (std::size_t off = 0; off < wire.size(); off += piece)
          benchmark::DoNotOptimize(e.server.receive(bytes_view(wire).subspan(off, std::min(piece, wire.size() - off))));
        e.server.discard(e.server.readable());
      });
    });
  }

  // The whole v2 handshake with X-Wing (the default KEM: ML-KEM-768 +
  // X25519), both sides in one thread, beside the X25519 rows below.
  for (const bool auth : {false, true}) {
    const std::string name = auth ? "record.handshake_client_auth" : "record.handshake";
    add(name, 1, "sealwire_xwing", [auth](benchmark::State& st) {
      static const auto skey = std::make_shared<const hpke::private_key>(
          std::move(hpke::derive_key_pair(hpke::kem_id::xwing, pattern(32, 5))->priv));
      static const auto ckey = std::make_shared<const hpke::private_key>(
          std::move(hpke::derive_key_pair(hpke::kem_id::xwing, pattern(32, 6))->priv));
      auto ccfg = std::make_shared<record::client_config>();
      ccfg->server_key = skey->public_key();
      auto scfg = std::make_shared<record::server_config>();
      scfg->static_key = skey;
      if (auth) {
        ccfg->client_key = ckey;
        scfg->require_client_auth = true;
        scfg->accept_any_client_key = true;
      }
      measure_handshake(st, ccfg, scfg);
    });
  }

  // The whole v2 handshake, both sides in one thread (docs/protocol.md 4),
  // without and with client authentication, beside the KEM operations it
  // is made of, from the same run.
  for (const bool auth : {false, true}) {
    const std::string name = auth ? "record.handshake_client_auth" : "record.handshake";
    add(name, 1, "sealwire", [auth](benchmark::State& st) {
      auto ccfg = std::make_shared<record::client_config>(*client_config());
      auto scfg = std::make_shared<record::server_config>(*server_config());
      if (auth) {
        ccfg->client_key = client_key();
        scfg->require_client_auth = true;
        scfg->accept_any_client_key = true;
      }
      measure_handshake(st, ccfg, scfg);
    });
    // What it is made of: the client's ephemeral key generation, HPKE
    // sender setups (each a key generation and a DH) to the server's static
    // key and to the client's ephemeral key (and, with client
    // authentication, to the client's static key), and one recipient setup
    // (a DH) for each.
    add(name, 1, "hpke_ops", [auth](benchmark::State& st) {
      const hpke::suite s{hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha256, hpke::aead_id::export_only};
      const auto& key = *server_key();
      const auto& ckey = *client_key();
      measure(st, 0, [&] {
        auto eph = *hpke::generate_key_pair(hpke::kem_id::x25519);
        auto s1 = *hpke::setup_sender(s, key.public_key());
        auto r1 = *hpke::setup_recipient(s, s1.enc.bytes(), key);
        auto s2 = *hpke::setup_sender(s, eph.pub);
        auto r2 = *hpke::setup_recipient(s, s2.enc.bytes(), eph.priv);
        benchmark::DoNotOptimize(r2);
        benchmark::DoNotOptimize(r1);
        if (auth) {
          auto s3 = *hpke::setup_sender(s, ckey.public_key());
          auto r3 = *hpke::setup_recipient(s, s3.enc.bytes(), ckey);
          benchmark::DoNotOptimize(r3);
        }
      });
    });
    add(name, 1, "x25519_ops", [auth](benchmark::State& st) {
      // 3 key generations and 4 DH; with client authentication 4 and 6
      // (the server's encapsulation to the client's key, its decapsulation).
      const int keygens = auth ? 4 : 3, dhs = auth ? 6 : 4;
      std::uint8_t sk[32], pk[32], out[32];
      const bytes peer = pattern(32, 8);
      measure(st, 0, [&] {
        for (int i = 0; i < keygens; ++i) (void)crypto::x25519::generate(sk, pk);
        for (int i = 0; i < dhs; ++i)
          (void)crypto::x25519::shared_secret(out, std::span<const std::uint8_t, 32>(sk),
                                              std::span<const std::uint8_t, 32>(peer.data(), 32));
        benchmark::DoNotOptimize(out);
      });
    });
  }
}

// ---- loopback TCP throughput ----

constexpr std::size_t write_size = 16 * 1024;
constexpr std::size_t writes_per_iteration = 64;  // 1 MiB per iteration

// A self-signed Ed25519 certificate for the TLS peer.
struct tls_identity {
  EVP_PKEY* key = nullptr;
  X509* cert = nullptr;
  tls_identity() {
    EVP_PKEY_CTX* kctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr);
    EVP_PKEY_keygen_init(kctx);
    EVP_PKEY_keygen(kctx, &key);
    EVP_PKEY_CTX_free(kctx);
    cert = X509_new();
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), 0);
    X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("bench"), -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509_sign(cert, key, nullptr);
  }
  ~tls_identity() {
    X509_free(cert);
    EVP_PKEY_free(key);
  }
  tls_identity(const tls_identity&) = delete;
  tls_identity& operator=(const tls_identity&) = delete;
};

void tls13_chacha_only(asio::ssl::context& ctx) {
  SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_3_VERSION);
  SSL_CTX_set_max_proto_version(ctx.native_handle(), TLS1_3_VERSION);
  SSL_CTX_set_ciphersuites(ctx.native_handle(), "TLS_CHACHA20_POLY1305_SHA256");
}

// throughput runs a reader thread that drains the server side while the
// benchmark thread writes 16 KiB chunks on the client side; an iteration
// ends when the reader has everything it wrote.
template <class ServerStream, class ClientStream>
void throughput(benchmark::State& st, ServerStream& server, ClientStream& client) {
  std::atomic<std::uint64_t> received{0};
  std::atomic<bool> stop{false};
  std::thread reader([&] {
    std::vector<std::uint8_t> buf(64 * 1024);
    boost::system::error_code ec;
    while (!stop.load(std::memory_order_relaxed)) {
      const std::size_t n = server.read_some(asio::buffer(buf), ec);
      if (ec) break;
      received.fetch_add(n, std::memory_order_release);
    }
  });
  const bytes chunk = pattern(write_size);
  std::uint64_t sent = 0;
  measure(st, write_size * writes_per_iteration, [&] {
    for (std::size_t i = 0; i < writes_per_iteration; ++i) asio::write(client, asio::buffer(chunk));
    sent += write_size * writes_per_iteration;
    while (received.load(std::memory_order_acquire) < sent) std::this_thread::yield();
  });
  stop.store(true);
  // One more byte wakes the reader so it sees `stop`.
  asio::write(client, asio::buffer(chunk.data(), 1));
  reader.join();
}

// The floor under any channel that seals each write with ChaCha20-Poly1305
// over this TCP connection: frames of a 4-byte length (the associated data)
// and one AEAD message, sealed by the raw AEAD into a frame buffer and sent,
// opened by the reader straight into its buffer once whole. No handshake,
// no record layer: what sealing and opening cost beside plain TCP.
struct raw_aead_frames {
  static constexpr std::size_t header = 4;
  crypto::aead_key key = *crypto::aead_key::make(crypto::aead_algorithm::chacha20_poly1305, pattern(32, 3));
  std::uint64_t seq = 0;
  std::array<std::uint8_t, 12> nonce() {
    std::array<std::uint8_t, 12> n{};
    for (int i = 0; i < 8; ++i) n[4 + i] = static_cast<std::uint8_t>(seq >> (8 * i));
    ++seq;
    return n;
  }
};

struct raw_aead_writer {
  tcp::socket& socket;
  raw_aead_frames f{};
  bytes frame = bytes(raw_aead_frames::header + write_size + 16);
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers, boost::system::error_code& ec) {
    const asio::const_buffer b = *asio::buffer_sequence_begin(buffers);
    const std::size_t n = std::min(b.size(), write_size);
    const std::size_t body = n + 16;
    frame[0] = 0;
    frame[1] = static_cast<std::uint8_t>(body >> 16);
    frame[2] = static_cast<std::uint8_t>(body >> 8);
    frame[3] = static_cast<std::uint8_t>(body);
    const auto nonce = f.nonce();
    (void)f.key.seal(std::span(frame).subspan(raw_aead_frames::header),
                     bytes_view(static_cast<const std::uint8_t*>(b.data()), n),
                     associated_data(bytes_view(frame.data(), raw_aead_frames::header)), nonce);
    asio::write(socket, asio::buffer(frame.data(), raw_aead_frames::header + body), ec);
    return ec ? 0 : n;
  }
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers) {
    boost::system::error_code ec;
    return write_some(buffers, ec);
  }
};

struct raw_aead_reader {
  tcp::socket& socket;
  raw_aead_frames f{};
  bytes in = bytes(64 * 1024);
  std::size_t begin = 0, end = 0;
  std::size_t read_some(asio::mutable_buffer out, boost::system::error_code& ec) {
    for (;;) {
      std::size_t delivered = 0;
      while (end - begin >= raw_aead_frames::header) {
        const std::uint8_t* h = in.data() + begin;
        const std::size_t body = (std::size_t{h[1]} << 16) | (std::size_t{h[2]} << 8) | h[3];
        if (end - begin < raw_aead_frames::header + body || body - 16 > out.size() - delivered) break;
        const auto nonce = f.nonce();
        auto r = f.key.open(std::span(static_cast<std::uint8_t*>(out.data()) + delivered, body - 16),
                            bytes_view(h + raw_aead_frames::header, body),
                            associated_data(bytes_view(h, raw_aead_frames::header)), nonce);
        if (!r) {
          ec = asio::error::invalid_argument;
          return 0;
        }
        delivered += *r;
        begin += raw_aead_frames::header + body;
      }
      if (delivered != 0) return delivered;
      if (begin != 0) {
        std::memmove(in.data(), in.data() + begin, end - begin);
        end -= begin;
        begin = 0;
      }
      end += socket.read_some(asio::buffer(in.data() + end, in.size() - end), ec);
      if (ec) return 0;
    }
  }
};

std::pair<tcp::socket, tcp::socket> tcp_pair(asio::io_context& io) {
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  tcp::socket a(io), b(io);
  a.connect(acceptor.local_endpoint());
  acceptor.accept(b);
  a.set_option(tcp::no_delay(true));
  b.set_option(tcp::no_delay(true));
  return {std::move(b), std::move(a)};  // server, client
}

void register_tcp() {
  add("record.tcp_16k_writes", write_size, "sealwire", [](benchmark::State& st) {
    asio::io_context io;
    auto [s, c] = tcp_pair(io);
    record::stream<tcp::socket> server(std::move(s)), client(std::move(c));
    std::thread hs([&] { server.handshake(server_config()); });
    client.handshake(client_config());
    hs.join();
    throughput(st, server, client);
  });
  add("record.tcp_16k_writes", write_size, "plain_tcp", [](benchmark::State& st) {
    asio::io_context io;
    auto [s, c] = tcp_pair(io);
    throughput(st, s, c);
  });
  add("record.tcp_16k_writes", write_size, "plain_tcp_raw_aead", [](benchmark::State& st) {
    asio::io_context io;
    auto [s, c] = tcp_pair(io);
    raw_aead_reader server{s};
    raw_aead_writer client{c};
    throughput(st, server, client);
  });
  add("record.tcp_16k_writes", write_size, "asio_ssl_tls13_chacha", [](benchmark::State& st) {
    static const tls_identity id;
    asio::io_context io;
    auto [s, c] = tcp_pair(io);
    asio::ssl::context sctx(asio::ssl::context::tls_server), cctx(asio::ssl::context::tls_client);
    tls13_chacha_only(sctx);
    tls13_chacha_only(cctx);
    SSL_CTX_use_certificate(sctx.native_handle(), id.cert);
    SSL_CTX_use_PrivateKey(sctx.native_handle(), id.key);
    cctx.set_verify_mode(asio::ssl::verify_none);
    asio::ssl::stream<tcp::socket> server(std::move(s), sctx), client(std::move(c), cctx);
    std::thread hs([&] { server.handshake(asio::ssl::stream_base::server); });
    client.handshake(asio::ssl::stream_base::client);
    hs.join();
    throughput(st, server, client);
  });
}

const registrar reg_sans_io(&register_sans_io);
const registrar reg_tcp(&register_tcp);

}  // namespace
}  // namespace sealwire::bench
