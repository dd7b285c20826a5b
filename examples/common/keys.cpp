// SPDX-License-Identifier: Apache-2.0
// Record-protocol key files and fingerprints (see keys.hpp).
#include "keys.hpp"

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/hex.hpp>
#include <sealwire/crypto/sha2.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

namespace sealwire::tools {
namespace {

// The code of a key file that is not what it should be.
std::error_code bad_key() { return std::make_error_code(std::errc::invalid_argument); }

// The chat's KEMs are the record protocol's: X-Wing, X25519 and X448,
// named as hpke::to_string names them.
std::string kem_name(hpke::kem_id kem) { return std::string(hpke::to_string(kem)); }

std::optional<hpke::kem_id> kem_from_name(const std::string& s) {
  const auto kem = parse<hpke::kem_id>(s);
  if (!kem || (*kem != hpke::kem_id::xwing && *kem != hpke::kem_id::x25519 && *kem != hpke::kem_id::x448) ||
      s != hpke::to_string(*kem))
    return std::nullopt;
  return *kem;
}

// parse_line splits "sealwire-KEM-KIND HEX".
struct parsed_line {
  hpke::kem_id kem;
  std::string kind;
  std::vector<std::uint8_t> bytes;
};

std::optional<parsed_line> parse_line(const std::string& line) {
  std::istringstream in(line);
  std::string tag, hex;
  if (!(in >> tag >> hex)) return std::nullopt;
  const std::string prefix = "sealwire-";
  if (tag.rfind(prefix, 0) != 0) return std::nullopt;
  const auto dash = tag.find('-', prefix.size());
  if (dash == std::string::npos) return std::nullopt;
  const auto kem = kem_from_name(tag.substr(prefix.size(), dash - prefix.size()));
  if (!kem) return std::nullopt;
  auto bytes = crypto::from_hex(hex);
  if (!bytes) return std::nullopt;
  return parsed_line{*kem, tag.substr(dash + 1), std::move(*bytes)};
}

std::string read_first_line(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw key_file_error(path + ": cannot open", std::make_error_code(std::errc::no_such_file_or_directory));
  std::string line;
  std::getline(f, line);
  return line;
}

}  // namespace

hpke::key_pair generate_keys(hpke::kem_id kem) {
  auto kp = hpke::generate_key_pair(kem);
  if (!kp) throw key_file_error("key generation failed: " + kp.error().message(), kp.error());
  return std::move(*kp);
}

std::string public_key_line(const hpke::public_key& key, hpke::kem_id kem) {
  return std::string("sealwire-") + kem_name(kem) + "-public " + crypto::to_hex(key.bytes());
}

void write_key_files(const std::string& private_path, const std::string& public_path, const hpke::key_pair& kp,
                     hpke::kem_id kem, bool overwrite) {
  std::string priv = std::string("sealwire-") + kem_name(kem) + "-private " + crypto::to_hex(kp.priv.bytes()) + "\n";
  const tools::wipe_on_exit wipe(priv);
  const std::string pub = public_key_line(kp.pub, kem) + "\n";
  tools::write_key_pair_files(private_path, std::span(reinterpret_cast<const std::uint8_t*>(priv.data()), priv.size()),
                              public_path, std::span(reinterpret_cast<const std::uint8_t*>(pub.data()), pub.size()),
                              overwrite);
}

std::pair<hpke::kem_id, hpke::private_key> read_private_key(const std::string& path) {
  // Open once and check what was opened (no symlinks, a regular file, ours,
  // not readable by others), then read into a fixed buffer that is wiped.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) throw key_file_error(path + ": " + std::strerror(errno), std::error_code(errno, std::generic_category()));
  struct stat st {};
  std::string problem;
  if (::fstat(fd, &st) != 0) problem = std::strerror(errno);
  else if (!S_ISREG(st.st_mode)) problem = "not a regular file";
  else if (st.st_uid != ::geteuid()) problem = "not owned by this user";
  else if ((st.st_mode & 077) != 0) problem = "private key file is readable by others (chmod 600 it)";
  char buf[512];
  std::size_t len = 0;
  while (problem.empty() && len < sizeof buf) {
    const ssize_t n = ::read(fd, buf + len, sizeof buf - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) problem = std::strerror(errno);
    if (n <= 0) break;
    len += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (!problem.empty()) throw key_file_error(path + ": " + problem, bad_key());
  // "sealwire-KEM-private HEX\n", parsed in place.
  const std::string_view text(buf, len);
  const auto space = text.find(' ');
  const auto end = text.find_first_of("\r\n", space == std::string_view::npos ? 0 : space);
  std::optional<hpke::kem_id> kem;
  if (space != std::string_view::npos) {
    const std::string_view tag = text.substr(0, space);
    if (tag == "sealwire-x25519-private") kem = hpke::kem_id::x25519;
    if (tag == "sealwire-x448-private") kem = hpke::kem_id::x448;
    if (tag == "sealwire-xwing-private") kem = hpke::kem_id::xwing;
  }
  crypto::secret_array<hpke::max_private_key_size> raw;
  result<std::size_t> n = crypto_errc::invalid_encoding;
  if (kem) n = crypto::hex_decode(raw.span(), text.substr(space + 1, end == std::string_view::npos ? end : end - space - 1));
  crypto::ct::wipe(buf, sizeof buf);
  if (!kem || !n) throw key_file_error(path + ": not a sealwire private key file", bad_key());
  auto key = hpke::private_key::from(*kem, raw.span().first(*n));
  if (!key) throw key_file_error(path + ": " + key.error().message(), bad_key());
  return {*kem, std::move(*key)};
}

namespace {

// parse_line_key reads a public key from a key file's line or bare hex.
std::pair<hpke::kem_id, hpke::public_key> parse_line_key(const std::string& line) {
  if (auto p = parse_line(line)) {
    if (p->kind != "public") throw key_file_error("expected a public key, got a " + p->kind + " key", bad_key());
    auto key = hpke::public_key::from(p->kem, p->bytes);
    if (!key) throw key_file_error("public key: " + key.error().message(), bad_key());
    return {p->kem, *key};
  }
  // Bare hex: the length says the KEM.
  auto bytes = crypto::from_hex(line);
  if (!bytes) throw key_file_error("public key: neither a key file line nor hex", bad_key());
  const hpke::kem_id kem = bytes->size() == 56     ? hpke::kem_id::x448
                           : bytes->size() == 1216 ? hpke::kem_id::xwing
                                                   : hpke::kem_id::x25519;
  auto key = hpke::public_key::from(kem, *bytes);
  if (!key) throw key_file_error("public key: " + key.error().message(), bad_key());
  return {kem, *key};
}

}  // namespace

std::pair<hpke::kem_id, hpke::public_key> parse_public_key(const std::string& file_or_hex) {
  return parse_line_key(::access(file_or_hex.c_str(), R_OK) == 0 ? read_first_line(file_or_hex) : file_or_hex);
}

std::vector<std::pair<hpke::kem_id, hpke::public_key>> read_public_keys(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw key_file_error(path + ": cannot open", std::make_error_code(std::errc::no_such_file_or_directory));
  std::vector<std::pair<hpke::kem_id, hpke::public_key>> keys;
  std::string line;
  for (unsigned number = 1; std::getline(f, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto last = line.find_last_not_of(" \t\r");
    try {
      keys.push_back(parse_line_key(line.substr(first, last - first + 1)));
    } catch (const key_file_error& e) {
      throw key_file_error(path + ":" + std::to_string(number) + ": " + e.what(), e.code());
    }
  }
  return keys;
}

std::string kem_title(hpke::kem_id kem) {
  switch (kem) {
    case hpke::kem_id::xwing: return "X-Wing (ML-KEM-768 + X25519)";
    case hpke::kem_id::x25519: return "X25519";
    case hpke::kem_id::x448: return "X448";
    default: return std::string(hpke::to_string(kem));
  }
}

std::string fingerprint(const hpke::public_key& key) {
  std::uint8_t digest[32];
  crypto::sha256::hash(digest, key.bytes());
  std::string out = "SHA256:";
  const std::string hex = crypto::to_hex(std::span<const std::uint8_t>(digest, 16));
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    if (i != 0) out += ':';
    out += hex.substr(i, 2);
  }
  return out;
}

}  // namespace sealwire::tools
