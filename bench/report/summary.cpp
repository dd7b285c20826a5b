// SPDX-License-Identifier: Apache-2.0
// The summary table: one row per headline operation, in a fixed order, with
// sealwire's speed and cycles, the fastest other library in the same run and
// the ratio of speeds (above 1: sealwire is faster). Where no other library
// does the operation, a row may name a reference measured with our own code
// (the record layer against the bare AEAD), shown in italics. Rows the run
// does not have are left out, so a filtered run still gives a valid table.
#include "format.hpp"
#include "report.hpp"

#include <sstream>

namespace sealwire::bench::report {
namespace {

struct row {
  const char* label;
  const char* op;
  long size;
  const char* reference = nullptr;  // used only when no other library ran it
  const char* ours = "sealwire";    // the implementation measured as ours
  bool reference_only = false;      // compare with the reference even when peers ran
};

// The headline operations. Sizes: 64 B (a chat message), 1 KiB, 16 KiB (a
// full record); 1448 bytes is one TCP segment's payload (a 1500-byte MTU).
const row rows[] = {
    {"ChaCha20-Poly1305 seal, 64 B", "chacha20_poly1305.seal", 64},
    {"ChaCha20-Poly1305 seal, 1 KiB", "chacha20_poly1305.seal", 1024},
    {"ChaCha20-Poly1305 seal, 16 KiB", "chacha20_poly1305.seal", 16384},
    {"ChaCha20-Poly1305 open, 16 KiB in 1448-byte pieces", "chacha20_poly1305.open_16k_pieces", 1448},
    {"ChaCha20-Poly1305 open, 16 KiB in 100-byte pieces", "chacha20_poly1305.open_16k_pieces", 100},
    {"AES-128-GCM seal, 64 B", "aes128_gcm.seal", 64},
    {"AES-128-GCM seal, 1 KiB", "aes128_gcm.seal", 1024},
    {"AES-128-GCM seal, 16 KiB", "aes128_gcm.seal", 16384},
    {"AES-128-GCM open, 16 KiB in 1448-byte pieces", "aes128_gcm.open_16k_pieces", 1448},
    {"AES-256-GCM seal, 64 B", "aes256_gcm.seal", 64},
    {"AES-256-GCM seal, 1 KiB", "aes256_gcm.seal", 1024},
    {"AES-256-GCM seal, 16 KiB", "aes256_gcm.seal", 16384},
    {"AES-256-GCM open, 16 KiB in 1448-byte pieces", "aes256_gcm.open_16k_pieces", 1448},
    {"XChaCha20-Poly1305 seal, 16 KiB", "xchacha20_poly1305.seal", 16384},
    {"Poly1305, 16 KiB", "poly1305.mac", 16384},
    {"SHA-256, 16 KiB", "sha256", 16384},
    {"SHA-512, 16 KiB", "sha512", 16384},
    {"SHA3-256, 16 KiB", "sha3_256", 16384},
    {"BLAKE3, 16 KiB", "blake3", 16384},
    {"HMAC-SHA256, 64 B", "hmac_sha256", 64},
    {"HKDF-SHA256, extract + 32-byte expand", "hkdf_sha256.extract_expand32", 32},
    {"X25519 shared secret", "x25519.shared", 1},
    {"X448 shared secret", "x448.shared", 1},
    {"P-256 ECDH shared secret", "p256.shared", 1},
    {"P-384 ECDH shared secret", "p384.shared", 1},
    {"P-521 ECDH shared secret", "p521.shared", 1},
    {"Ed25519 sign, 64 B", "ed25519.sign", 64},
    {"Ed25519 verify, 64 B", "ed25519.verify", 64},
    {"Ed448 sign, 64 B", "ed448.sign", 64},
    {"Ed448 verify, 64 B", "ed448.verify", 64},
    {"ECDSA P-256 sign, 64 B", "ecdsa_p256.sign", 64},
    {"ECDSA P-256 verify, 64 B", "ecdsa_p256.verify", 64},
    {"ECDSA P-384 sign, 64 B", "ecdsa_p384.sign", 64},
    {"ECDSA P-384 verify, 64 B", "ecdsa_p384.verify", 64},
    {"ECDSA P-521 sign, 64 B", "ecdsa_p521.sign", 64},
    {"ECDSA P-521 verify, 64 B", "ecdsa_p521.verify", 64},
    {"HPKE (X25519, ChaCha20-Poly1305) sender setup", "hpke_x25519_sha256_chacha.setup_sender", 1},
    {"HPKE (X25519, ChaCha20-Poly1305) seal, 1 KiB", "hpke_x25519_sha256_chacha.seal", 1024},
    {"HPKE (X25519, ChaCha20-Poly1305) open, 1 KiB", "hpke_x25519_sha256_chacha.open", 1024},
    {"Record seal, 16 KiB (ChaCha20-Poly1305)", "record.seal", 16384, "raw_aead"},
    {"Record open, 16 KiB (ChaCha20-Poly1305)", "record.open", 16384, "raw_aead"},
    {"Record open, 16 KiB record in 1448-byte pieces", "record.open_pieces", 1448},
    {"Record handshake, both sides (X25519)", "record.handshake", 1, "hpke_ops"},
    {"Record handshake with client authentication", "record.handshake_client_auth", 1, "hpke_ops"},
    {"Record handshake, both sides (X-Wing)", "record.handshake", 1, nullptr, "sealwire_xwing"},
    {"Record stream over loopback TCP, 16 KiB writes", "record.tcp_16k_writes", 16384},
    {"Record stream over loopback TCP, against plain TCP", "record.tcp_16k_writes", 16384, "plain_tcp", "sealwire",
     true},
    {"ML-KEM-768 key generation", "mlkem768.keygen", 0},
    {"ML-KEM-768 encapsulation", "mlkem768.encaps", 0},
    {"ML-KEM-768 decapsulation", "mlkem768.decaps", 0},
    {"X-Wing encapsulation", "xwing.encaps", 0},
    {"HPKE (X-Wing, ChaCha20-Poly1305) sender setup", "hpke_xwing_sha256_chacha.setup_sender", 1},
    {"Datagram seal, 1200 B (ChaCha20-Poly1305)", "datagram.seal", 1200, "raw_aead"},
    {"Datagram open, 1200 B (ChaCha20-Poly1305)", "datagram.open", 1200, "raw_aead"},
    {"Datagram echo over loopback UDP, 1200 B", "datagram.udp_echo", 1200, "plain_udp"},
};

}  // namespace

std::string summary_markdown(const results& r) {
  std::ostringstream out;
  bool any = false, any_reference = false;
  for (const auto& spec : rows) {
    const entry* ours = r.find(spec.op, spec.size, spec.ours);
    if (ours == nullptr) continue;
    // The fastest other library; failing that, the reference.
    const entry* best = nullptr;
    std::string best_impl;
    for (const auto& impl : r.impls.at(spec.op)) {
      if (spec.reference_only) break;
      const entry* e = r.find(spec.op, spec.size, impl);
      if (e == nullptr || !is_peer(impl) || e->ns_per_op <= 0) continue;
      if (best == nullptr || e->ns_per_op < best->ns_per_op) {
        best = e;
        best_impl = impl;
      }
    }
    bool reference = false;
    if (best == nullptr && spec.reference != nullptr) {
      best = r.find(spec.op, spec.size, spec.reference);
      best_impl = spec.reference;
      reference = best != nullptr;
    }
    if (!any) {
      out << "| operation | sealwire | best peer | ratio |\n|---|---:|---:|---:|\n";
      any = true;
    }
    out << "| " << spec.label << " | " << speed(*ours) << spread(*ours) << " (" << cycles(*ours) << ") | ";
    if (best == nullptr) {
      out << "- | - |\n";
      continue;
    }
    const std::string peer = impl_name(best_impl) + " " + speed(*best) + spread(*best);
    out << (reference ? "*" + peer + "*" : peer) << " | " << ratio(*ours, *best) << " |\n";
    any_reference |= reference;
  }
  if (!any) return "No headline operation was measured in this run.\n";
  if (any_reference) {
    out << "\nIn italics: no other library does this operation; the reference is the same cryptographic work "
           "done with sealwire's primitives alone (the bare AEAD for records and datagrams, the HPKE operations "
           "for the handshake), or the same transport without protection (plain TCP or UDP), so the ratio shows "
           "the record layer's cost.\n";
  }
  return out.str();
}

}  // namespace sealwire::bench::report
