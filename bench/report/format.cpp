// SPDX-License-Identifier: Apache-2.0
// Number formats and display names shared by the tables, the summary and the plots.
#include "format.hpp"

#include <cstdio>
#include <map>

namespace sealwire::bench::report {

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string speed(const entry& e) {
  if (e.bytes_per_second > 0) {
    const double gb = e.bytes_per_second / 1e9;
    return gb >= 0.1 ? fmt("%.2f GB/s", gb) : fmt("%.1f MB/s", e.bytes_per_second / 1e6);
  }
  if (e.ns_per_op >= 1e6) return fmt("%.2f ms", e.ns_per_op / 1e6);
  if (e.ns_per_op >= 1e3) return fmt("%.2f µs", e.ns_per_op / 1e3);
  return fmt("%.1f ns", e.ns_per_op);
}

std::string spread(const entry& e) { return noisy(e) ? fmt(" ±%.0f%%", e.cv * 100) : ""; }

std::string cycles(const entry& e) {
  if (e.cycles_per_byte > 0) return fmt(e.cycles_per_byte < 10 ? "%.2f c/B" : "%.1f c/B", e.cycles_per_byte);
  if (e.cycles_per_op > 0) return fmt("%.0f c/op", e.cycles_per_op);
  return "-";
}

std::string ratio(const entry& a, const entry& b) {
  if (a.ns_per_op <= 0 || b.ns_per_op <= 0) return "-";
  return fmt("%.2fx", b.ns_per_op / a.ns_per_op);
}

double gbps(const entry& e) { return e.bytes_per_second / 1e9; }

std::string size_label(long bytes) {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " B";
}

bool is_ours(const std::string& impl) { return impl == "sealwire" || impl.rfind("sealwire-", 0) == 0; }

bool is_peer(const std::string& impl) {
  for (const char* prefix : {"openssl", "libsodium", "botan", "cryptopp", "asio_ssl", "blake3c"}) {
    if (impl.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

std::string impl_name(const std::string& impl) {
  static const std::map<std::string, std::string> names = {
      {"sealwire", "sealwire"},
      {"sealwire-trailing", "sealwire (tag in the stream)"},
      {"sealwire_xwing", "sealwire (X-Wing)"},
      {"openssl", "OpenSSL"},
      {"openssl-fresh", "OpenSSL (fresh context)"},
      {"openssl_sha256", "OpenSSL SHA-256"},
      {"libsodium", "libsodium"},
      {"libsodium_blake2b256", "libsodium BLAKE2b-256"},
      {"blake3c", "official BLAKE3 C (asm)"},
      {"botan", "Botan"},
      {"cryptopp", "Crypto++"},
      {"asio_ssl_tls13_chacha", "TLS 1.3 (OpenSSL via asio::ssl)"},
      {"plain_tcp", "plain TCP"},
      {"plain_udp", "plain UDP"},
      {"raw_aead", "raw AEAD"},
      {"hpke_ops", "its HPKE operations"},
      {"x25519_ops", "its X25519 operations"},
      {"x25519_dh", "one X25519 DH"},
      {"x448_dh", "one X448 DH"},
      {"x25519_keygen_and_dh", "X25519 keygen + DH"},
      {"x448_keygen_and_dh", "X448 keygen + DH"},
      {"single_thread", "one thread"},
  };
  const auto it = names.find(impl);
  return it == names.end() ? impl : it->second;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace sealwire::bench::report
