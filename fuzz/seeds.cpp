// SPDX-License-Identifier: Apache-2.0
// Seed corpora for the fuzz targets, generated rather than stored: real
// handshake flights and records (from the same deterministic endpoints the
// targets build), sealed HPKE messages (classical and post-quantum KEMs),
// sealed AEAD messages, BLAKE3 inputs
// around the chunk and block sizes, Ed25519 signatures, and batch requests.
//
// Usage: sealwire_fuzz_seeds OUTDIR   (writes OUTDIR/<target>/seed-NNN)
#include <sealwire/crypto/ed25519.hpp>
#include <sealwire/crypto/hex.hpp>

#include "batch.hpp"

#include "fuzz_aead.hpp"
#include "group_seeds.hpp"
#include "fuzz_hpke.hpp"
#include "fuzz_hpke_pq.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using namespace sealwire;
namespace fs = std::filesystem;

namespace {

struct corpus {
  fs::path dir;
  int count = 0;
  const char* prefix;
  corpus(const fs::path& root, const char* name, const char* file_prefix = "seed")
      : dir(root / name), prefix(file_prefix) {
    fs::create_directories(dir);
  }
  void add(const fuzz::bytes& b) {
    char name[32];
    std::snprintf(name, sizeof name, "%s-%03d", prefix, count++);
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                                      static_cast<std::streamsize>(b.size()));
  }
  void add(std::string_view s) { add(fuzz::bytes(s.begin(), s.end())); }
};

fuzz::bytes concat(std::initializer_list<fuzz::bytes> parts) {
  fuzz::bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

fuzz::bytes pattern(std::size_t n, std::uint8_t seed) {
  fuzz::bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + 7 * i);
  return b;
}

void must(bool ok, const char* what) {
  if (!ok) fuzz::fatal(what);
}

// Records the peer of `to_server`'s side sends after the handshake: data of
// several sizes, a key update, padding-free empty-ish writes and a close
// (with a reason code, docs/protocol.md 3.4).
fuzz::bytes application_traffic(record::connection& sender, record::close_reason reason = record::close_reason::normal) {
  fuzz::bytes wire;
  auto flush = [&] {
    auto p = record::test::take_pending(sender);
    wire.insert(wire.end(), p.begin(), p.end());
  };
  for (std::size_t n : {1u, 17u, 300u, 2048u, 2500u}) {
    const auto data = pattern(n, static_cast<std::uint8_t>(n));
    std::size_t done = 0;
    while (done < data.size()) {
      auto w = sender.write(record::bytes_view(data).subspan(done));
      must(w.has_value(), "write");
      done += *w;
      flush();
    }
  }
  must(sender.update_keys().has_value(), "update_keys");
  const auto more = pattern(100, 9);
  must(sender.write(more).has_value(), "write after update");
  flush();
  must(sender.close(reason).has_value(), "close");
  flush();
  return wire;
}

void record_seeds(const fs::path& root) {
  corpus after(root, "fuzz_record"), before(root, "fuzz_handshake");
  // 0x40, 0x41, 0x6c: X-Wing, plain and with client auth.
  for (std::uint8_t opt : {0x00, 0x01, 0x02, 0x04, 0x08, 0x13, 0x20, 0x23, 0x40, 0x41, 0x6c}) {
    const auto o = fuzz::record_options::from(opt);
    for (std::uint8_t to_server : {0, 1}) {
      // After the handshake: the other side's application traffic.
      {
        auto ep = fuzz::make_endpoints(o, 7);
        must(!record::test::run_handshake(ep.client, ep.server), "handshake");
        auto wire = application_traffic(to_server ? ep.client : ep.server);
        // The target rebuilds the same endpoints: check the records open there.
        auto replay = fuzz::make_endpoints(o, 7);
        must(!record::test::run_handshake(replay.client, replay.server), "replayed handshake");
        record::test::pump_bytes plain;
        must(!record::test::deliver(to_server ? replay.server : replay.client, wire, record::test::whole(), &plain),
             "recorded traffic does not open in a rebuilt connection");
        must(plain.size() == 1 + 17 + 300 + 2048 + 2500 + 100, "recorded traffic lost plaintext");
        for (std::uint8_t split : {0, 5, 7}) after.add(concat({{opt, to_server, split}, wire}));
        // The same traffic ending in an error close (idle timeout).
        auto ep2 = fuzz::make_endpoints(o, 7);
        must(!record::test::run_handshake(ep2.client, ep2.server), "handshake");
        const auto closing = application_traffic(to_server ? ep2.client : ep2.server, record::close_reason::idle_timeout);
        auto replay2 = fuzz::make_endpoints(o, 7);
        must(!record::test::run_handshake(replay2.client, replay2.server), "replayed handshake");
        must(record::test::deliver(to_server ? replay2.server : replay2.client, closing, record::test::whole(),
                                   nullptr) == record_errc::peer_error_close,
             "an error close is not reported as such");
        after.add(concat({{opt, to_server, 3}, closing}));
      }
      // Before the handshake: the other side's handshake flights.
      {
        auto ep = fuzz::make_endpoints(o, 7);
        fuzz::bytes client_flight = record::test::take_pending(ep.client);
        must(!record::test::deliver(ep.server, client_flight, record::test::whole(), nullptr), "deliver hello");
        fuzz::bytes server_flight = record::test::take_pending(ep.server);
        must(!record::test::deliver(ep.client, server_flight, record::test::whole(), nullptr), "deliver server");
        auto finished = record::test::take_pending(ep.client);
        client_flight.insert(client_flight.end(), finished.begin(), finished.end());
        const auto& flight = to_server ? client_flight : server_flight;
        const std::uint8_t flags = static_cast<std::uint8_t>(to_server | 2);
        for (std::uint8_t split : {0, 3}) {
          before.add(concat({{opt, flags, split}, flight}));
          after.add(concat({{opt, flags, split}, flight}));
        }
      }
    }
  }
}

// One entry of fuzz_record's inner-plaintext mode: u16 length, the inner
// plaintext (content || inner type || padding).
fuzz::bytes inner(const fuzz::bytes& plain) {
  fuzz::bytes out{static_cast<std::uint8_t>(plain.size() >> 8), static_cast<std::uint8_t>(plain.size())};
  out.insert(out.end(), plain.begin(), plain.end());
  return out;
}

// Inner-plaintext mode (flag bit 2): a well-formed session (data with and
// without padding, empty records, padded key updates, a padded close) and
// the ways an inner plaintext can be wrong behind a valid tag
// (docs/protocol.md 3.1-3.4).
void record_inner_seeds(const fs::path& root) {
  corpus c(root, "fuzz_record", "inner");
  const fuzz::bytes empty_data{2}, update{3}, close{0, 4}, hello{'h', 'e', 'l', 'l', 'o', 2},
      padded{'p', 'a', 'd', 2, 0, 0, 0, 0, 0, 0, 0};
  const fuzz::bytes good = concat({inner(hello), inner(padded), inner(empty_data), inner(update), inner(hello),
                                   inner({3, 0, 0}), inner(concat({pattern(2000, 1), {2}})), inner({0, 4, 0, 0})});
  const fuzz::bytes bad[] = {
      inner({'n', 'o', ' ', 't', 'y', 'p', 'e', 9}),  // an unknown inner type
      inner({0, 0, 0, 0}),                            // padding only
      inner({}),                                      // shorter than a type and a tag
      inner({'x', 3}),                                // a key update with content
      concat({inner(close), inner(hello)}),           // data after close
      inner({4}),                                     // a close without a reason
      inner({0, 1, 4}),                               // a close with two bytes
      inner({6, 4, 0, 0}),                            // a close with an error reason (application_error)
      inner({'x', 1}),                                // inner type 1 (handshake) is not a protected type
      concat({inner(empty_data), inner(empty_data), inner(update), inner(empty_data),
              inner(empty_data)}),                    // one empty record too many
      inner(concat({pattern(2049, 2), {2}})),         // larger than max_record_size
      inner(hello),                                   // no close: truncated
  };
  for (std::uint8_t opt : {0x00, 0x13, 0x22, 0x2d}) {
    for (std::uint8_t to_server : {0, 1}) {
      const auto flags = static_cast<std::uint8_t>(to_server | 4);
      c.add(concat({{opt, flags, 0}, good}));
      c.add(concat({{opt, flags, 6}, good}));
    }
  }
  for (const auto& b : bad) c.add(concat({{0x04, 5, 2}, b}));
}

void hpke_seeds(const fs::path& root) {
  corpus c(root, "fuzz_hpke");
  fuzz::install_deterministic_random(11);
  for (std::size_t i = 0; i < std::size(fuzz::hpke_suites); ++i) {
    const auto& s = fuzz::hpke_suites[i];
    fuzz::hpke_parties p;
    p.ensure(s.kem);
    for (std::uint8_t m = 0; m < 4; ++m) {
      const auto mode = static_cast<hpke::mode>(m);
      const auto info = pattern(m * 5u, 1), aad = pattern(m * 3u + 1, 2), pt = pattern(40u * m, 3);
      auto setup = hpke::setup_sender(s, p.recipient.pub, p.sender_options(mode, info));
      must(setup.has_value(), "setup_sender");
      fuzz::bytes ct;
      if (s.aead != hpke::aead_id::export_only) {
        ct.resize(pt.size() + 16);
        must(setup->context.seal(ct, pt, associated_data(aad)).has_value(), "hpke seal");
      }
      const auto enc = setup->enc.bytes();
      c.add(concat({{static_cast<std::uint8_t>(i), m, static_cast<std::uint8_t>(enc.size()),
                     static_cast<std::uint8_t>(info.size()), static_cast<std::uint8_t>(aad.size())},
                    fuzz::bytes(enc.begin(), enc.end()), info, aad, ct}));
    }
  }
}

// fuzz_hpke_pq: a sealed message per suite in base and psk mode, and an
// auth-mode input (refused).
void hpke_pq_seeds(const fs::path& root) {
  corpus c(root, "fuzz_hpke_pq");
  fuzz::install_deterministic_random(13);
  for (std::size_t i = 0; i < std::size(fuzz::hpke_pq_suites); ++i) {
    const auto& s = fuzz::hpke_pq_suites[i];
    fuzz::hpke_parties p;
    p.ensure(s.kem);
    for (std::uint8_t m : {0, 1}) {
      const auto mode = static_cast<hpke::mode>(m);
      const auto info = pattern(m * 5u + 2, 1), aad = pattern(m * 3u + 1, 2), pt = pattern(50u * m + 7, 3);
      auto setup = hpke::setup_sender(s, p.recipient.pub, p.sender_options(mode, info));
      must(setup.has_value(), "setup_sender (post-quantum)");
      fuzz::bytes ct;
      if (s.aead != hpke::aead_id::export_only) {
        ct.resize(pt.size() + 16);
        must(setup->context.seal(ct, pt, associated_data(aad)).has_value(), "hpke seal (post-quantum)");
      }
      const auto enc = setup->enc.bytes();
      c.add(concat({{static_cast<std::uint8_t>(i), m, static_cast<std::uint8_t>(enc.size() >> 8),
                     static_cast<std::uint8_t>(enc.size()), static_cast<std::uint8_t>(info.size()),
                     static_cast<std::uint8_t>(aad.size())},
                    fuzz::bytes(enc.begin(), enc.end()), info, aad, ct}));
      if (m == 0) {
        c.add(concat({{static_cast<std::uint8_t>(i), 2, static_cast<std::uint8_t>(enc.size() >> 8),
                       static_cast<std::uint8_t>(enc.size()), 0, 0},
                      fuzz::bytes(enc.begin(), enc.end())}));
      }
    }
  }
}

void aead_seeds(const fs::path& root) {
  corpus c(root, "fuzz_aead");
  for (std::size_t i = 0; i < std::size(fuzz::aead_algorithms); ++i) {
    const auto alg = fuzz::aead_algorithms[i];
    const auto& props = crypto::properties(alg);
    const auto key = fuzz::aead_key(alg);
    // Lengths around the kernels' widths (4, 8 and 16 blocks of 16 and 64 bytes).
    for (std::size_t n : {0u, 1u, 15u, 16u, 64u, 100u, 257u, 1000u, 1025u, 2049u}) {
      const auto nonce = pattern(props.nonce_size, 4), pt = pattern(n, 5);
      const auto aad = props.supports_aad ? pattern(n % 40, 6) : fuzz::bytes{};
      fuzz::bytes sealed(n + 16);
      must(crypto::aead_seal(alg, sealed, pt, associated_data(aad), nonce, key).has_value(), "aead_seal");
      const auto level = static_cast<std::uint8_t>(n % 3);
      c.add(concat({{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(aad.size()),
                     level},
                    fuzz::bytes(key.begin(), key.end()), nonce, aad, sealed}));
    }
  }
}

void blake3_seeds(const fs::path& root) {
  corpus c(root, "fuzz_blake3");
  for (std::uint8_t mode = 0; mode < 3; ++mode) {
    for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 1023u, 1024u, 1025u, 2048u, 3073u, 8193u}) {
      const auto level = static_cast<std::uint8_t>(n % 3);
      c.add(concat({{mode, static_cast<std::uint8_t>(n), 0, 131, static_cast<std::uint8_t>(n % 70), level},
                    pattern(n, mode)}));
    }
    // Grown messages (byte 5: bits 2-5 g add g * 2 KiB, bits 6 and 7 with
    // byte 0's bit 7 add 1 MiB + g * 16 KiB): past the 16-chunk kernels'
    // 16 KiB, and past hash_parallel's 1 MiB on several threads (split byte
    // 0xc0: four).
    for (std::uint8_t grow : {0x20, 0x3c}) {
      for (std::size_t n : {0u, 100u, 1024u}) {
        c.add(concat({{mode, static_cast<std::uint8_t>(0xc0 | n % 8), 0, 64, 5, grow},
                      pattern(n, static_cast<std::uint8_t>(mode + grow))}));
      }
    }
    c.add(concat({{static_cast<std::uint8_t>(mode | 0x80), 0xc1, 0, 64, 5, 0xd4}, pattern(100, mode)}));
  }
}

// fuzz_ed25519_verify: real signatures (flags bit 0: seed and XOR mask),
// with no mask, one flipped bit, and a mask on the key too; and RFC 8032
// 7.1 TEST 1 given raw (key, signature, empty message).
void ed25519_seeds(const fs::path& root) {
  corpus c(root, "fuzz_ed25519_verify");
  for (std::size_t n : {0u, 1u, 32u, 100u, 300u}) {
    const auto seed = pattern(32, static_cast<std::uint8_t>(n));
    fuzz::bytes mask(64, 0);
    c.add(concat({{static_cast<std::uint8_t>(1 | (n % 4) << 2)}, seed, mask, pattern(n, 9)}));
    mask[n % 64] = 0x10;
    c.add(concat({{1}, seed, mask, pattern(n, 9)}));
    fuzz::bytes key_mask(64, 0);
    key_mask[31] = 0x80;  // the key's sign bit
    c.add(concat({{3}, seed, key_mask, pattern(n, 9)}));
  }
  const auto raw = crypto::from_hex(
      "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe2"
      "4655141438e7a100b");
  must(raw.has_value(), "ed25519 seed hex");
  c.add(concat({{0}, *raw}));
}

void batch_seeds(const fs::path& root) {
  corpus c(root, "fuzz_hpke_batch");
  const auto ikm = crypto::to_hex(pattern(32, 1));
  c.add(R"({"op":"keygen","kem":32})");
  c.add(R"({"op":"derive","kem":33,"ikm":")" + ikm + R"("})");
  // A real seal and its open, built through the batch protocol itself.
  const std::string seal = R"({"op":"seal","mode":0,"kem":32,"kdf":1,"aead":3,"pkR":")";
  fuzz::hpke_parties p;
  p.ensure(hpke::kem_id::x25519);
  const auto pk = crypto::to_hex(p.recipient.pub.bytes());
  const auto sk = crypto::to_hex(p.recipient.priv.bytes());
  const std::string seal_req = seal + pk + R"(","info":"0a0b","ikmE":")" + ikm +
                               R"(","aad":["01",""],"pt":["68656c6c6f",""],"exports":[{"ctx":"00","len":16}]})";
  c.add(seal_req);
  const std::string reply = tool::handle_batch_line(seal_req);
  c.add(reply);
  const auto field = [&](const std::string& name) {
    const auto at = reply.find("\"" + name + "\":");
    return at == std::string::npos ? std::string("null") : reply.substr(at + name.size() + 3);
  };
  std::string enc = field("enc");
  enc = enc.substr(0, enc.find(',') == std::string::npos ? enc.size() : enc.find(','));
  std::string cts = field("ct");
  cts = cts.substr(0, cts.find(']') == std::string::npos ? cts.size() : cts.find(']') + 1);
  c.add(R"({"op":"open","mode":0,"kem":32,"kdf":1,"aead":3,"skR":")" + sk + R"(","enc":)" + enc +
        R"(,"info":"0a0b","aad":["01",""],"ct":)" + cts + R"(,"exports":[{"ctx":"00","len":16}]})");
  c.add(R"({"op":"seal","mode":3,"kem":33,"kdf":3,"aead":65535,"pkR":"00","psk":"0102","psk_id":"03","skS":"ff"})");
  c.add(R"({"op":"open","aad":[1,2,{"x":[]}],"ct":"\u0041\n","exports":[{"len":-1}]})");
  c.add(R"({"op":"derive","kem":25978,"ikm":")" + ikm + R"("})");  // X-Wing (0x647a)
  c.add(R"({"op":"keygen","kem":65})");                           // ML-KEM-768
}

// fuzz_datagram_open: operation lists (the format at the top of
// fuzz_datagram_open.cpp) for each AEAD and option: seals, changed seals,
// replays, key updates and raw datagrams. (Its keys are a hash of the
// input, so no seed can carry a genuine record; the target seals its own.)
void datagram_seeds(const fs::path& root) {
  corpus c(root, "fuzz_datagram_open");
  for (std::uint8_t flags : {0, 1, 2, 3, 4, 6, 9, 15}) {
    c.add(concat({{flags}, {1, 5}, pattern(5, flags), {0x81, 40}, pattern(40, 3), {4, 1, 1}, {4, 1, 0}}));
    c.add(concat({{flags}, {2, 16}, pattern(16, flags), {2, 2, 0, 9}, {1, 0}, {3, 0}, {1, 3}, pattern(3, 1),
                  {4, 1, 2}, {0xf9, 0}, {4, 1, 1}}));
    c.add(concat({{flags}, {0, 24, 0x20}, pattern(23, flags), {0, 3, 0x2c, 0, 1}, {0, 1, 0xff}}));
  }
}

// fuzz_mlkem_decaps: for each parameter set, the honest ciphertext, one
// changed byte at several offsets, a byte dropped and added, and raw
// ciphertexts of the right and a wrong length.
void mlkem_decaps_seeds(const fs::path& root) {
  corpus c(root, "fuzz_mlkem_decaps");
  const std::size_t ct_sizes[3] = {768, 1088, 1568};
  for (std::uint8_t set : {0, 1, 2}) {
    const fuzz::bytes m = pattern(32, static_cast<std::uint8_t>(set + 1));
    c.add(concat({{set, 0}, m}));
    for (std::uint16_t offset : {0, 31, 700, 1087, 1567}) {
      c.add(concat({{set, 0}, m, {static_cast<std::uint8_t>(offset >> 8), static_cast<std::uint8_t>(offset)}, {0x40, 0}}));
    }
    c.add(concat({{set, 0}, m, {0, 0}, {1}}));  // the last byte dropped
    c.add(concat({{set, 0}, m, {0, 0}, {2}}));  // a byte added
    c.add(concat({{static_cast<std::uint8_t>(set | 4), 1}, pattern(ct_sizes[set], set)}));
    c.add(concat({{set, 1}, pattern(ct_sizes[set] - 1, set)}));
  }
}

// fuzz_group_unprotect: each mode (raw MLSMessage, mutated PrivateMessage,
// mutated PublicMessage) with no mutation, one flipped bit at several
// offsets, and a few content sizes and paddings.
void group_unprotect_seeds(const fs::path& root) {
  corpus c(root, "fuzz_group_unprotect");
  c.add(fuzz::bytes{0, 0, 1, 0, 2});
  for (std::uint8_t mode : {1, 2}) {
    for (std::uint8_t length : {0, 1, 64, 200}) {
      c.add(fuzz::bytes{mode, length, static_cast<std::uint8_t>(length % 7), 0});
      for (std::uint8_t offset : {0, 5, 20, 40, 90}) {
        c.add(fuzz::bytes{mode, length, 3, offset, 0x01});
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  const fs::path root(argv[1]);
  fs::remove_all(root);
  record_seeds(root);
  record_inner_seeds(root);
  hpke_seeds(root);
  hpke_pq_seeds(root);
  mlkem_decaps_seeds(root);
  aead_seeds(root);
  blake3_seeds(root);
  ed25519_seeds(root);
  batch_seeds(root);
  fuzz::group_decode_seeds(root, SEALWIRE_FUZZ_VECTORS_DIR);
  datagram_seeds(root);
  group_unprotect_seeds(root);
  std::printf("seed corpora written to %s\n", root.c_str());
  return 0;
}
