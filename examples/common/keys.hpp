// SPDX-License-Identifier: Apache-2.0
// Record-protocol key files for sealwire's examples (the echo chat and the
// example server): one line "sealwire-KEM-private HEX" or
// "sealwire-KEM-public HEX", KEM being xwing, x25519 or x448, written through
// key_file.hpp and read back with the checks a private key file deserves.
#pragma once

#include "key_file.hpp"

#include <sealwire/hpke/keys.hpp>

#include <string>
#include <utility>
#include <vector>

namespace sealwire::tools {

// generate_keys makes a fresh key pair for kem; throws key_file_error if the
// random source fails.
[[nodiscard]] hpke::key_pair generate_keys(hpke::kem_id kem);

// write_key_files writes the private key file (mode 0600) and the public one
// through write_key_pair_files: existing files are kept (key_file_error with
// code file_exists, nothing written) unless overwrite is set, and then
// replaced atomically.
void write_key_files(const std::string& private_path, const std::string& public_path, const hpke::key_pair& kp,
                     hpke::kem_id kem, bool overwrite = false);

// read_private_key reads a private key file. It refuses a symbolic link,
// anything but a regular file, a file of another user and a file readable by
// others; the bytes read are wiped. Throws key_file_error.
[[nodiscard]] std::pair<hpke::kem_id, hpke::private_key> read_private_key(const std::string& path);

// parse_public_key accepts a key file's path, a key file's line, or bare hex
// (32 bytes: X25519, 56: X448, 1216: X-Wing). Throws key_file_error.
[[nodiscard]] std::pair<hpke::kem_id, hpke::public_key> parse_public_key(const std::string& file_or_hex);

// read_public_keys reads a file of public keys, one per line in any form
// parse_public_key accepts; blank lines and lines starting with '#' are
// skipped. Throws key_file_error naming the file and line.
[[nodiscard]] std::vector<std::pair<hpke::kem_id, hpke::public_key>> read_public_keys(const std::string& path);

// public_key_line is the public key file's line (without the newline).
[[nodiscard]] std::string public_key_line(const hpke::public_key& key, hpke::kem_id kem);

// fingerprint: "SHA256:" and the first 16 bytes of SHA-256(public key), hex in pairs.
[[nodiscard]] std::string fingerprint(const hpke::public_key& key);

// kem_title names a key's KEM for people: "X-Wing (ML-KEM-768 + X25519)",
// "X25519", "X448".
[[nodiscard]] std::string kem_title(hpke::kem_id kem);

}  // namespace sealwire::tools
