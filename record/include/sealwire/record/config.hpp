// SPDX-License-Identifier: Apache-2.0
// Configuration of a sealwire record connection: roles, keys, algorithm
// preferences and the named limits of docs/protocol.md section 5. An
// application fills in a client_config or server_config and hands it to
// stream.hpp's handshake (start there) or to connection.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/parse.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/hpke/suite.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace sealwire::record {

// protocol_version is the version of the record protocol (docs/protocol.md)
// that this library speaks and offers in its ClientHello.
inline constexpr std::uint16_t protocol_version = 0x0001;

// Record framing sizes (docs/protocol.md 3).
inline constexpr std::size_t record_header_size = 4;
// record_tag_size is the tag length of every record AEAD in bytes.
inline constexpr std::size_t record_tag_size = 16;
// Wire bytes a record adds to its content: header, content-end marker, tag.
inline constexpr std::size_t record_overhead = record_header_size + 1 + record_tag_size;
// The protocol's ceiling on max_record_size: the body length is a u24.
inline constexpr std::size_t max_record_size_ceiling = (std::size_t{1} << 24) - 1 - 1 - record_tag_size;

// Record AEAD identifiers (docs/protocol.md 2).
enum class record_aead : std::uint16_t {
  aes128_gcm = 0x0001,  // NIST SP 800-38D, 96-bit nonce (the HPKE ids)
  aes256_gcm = 0x0002,
  chacha20_poly1305 = 0x0003,
  xchacha20_poly1305 = 0xc003,
};

// to_string names a record AEAD: "aes128gcm", "aes256gcm", "chacha20poly1305",
// "xchacha20poly1305" (what parse<record_aead> reads, as well as the numbers).
[[nodiscard]] SEALWIRE_API std::string_view to_string(record_aead a) noexcept;

// limits are the named limits of docs/protocol.md 5.
struct limits {
  std::size_t max_record_size = 16 * 1024;         // content bytes per record, both directions
  std::size_t max_handshake_size = 4096;           // bytes per handshake message
  unsigned max_empty_records = 32;                 // consecutive records without application bytes
  std::uint64_t key_update_after = 1ULL << 32;     // records per key before an automatic update (0: never)
  std::size_t max_buffered_plaintext = 64 * 1024;  // verified plaintext held for the application
  std::size_t max_send_buffer = 64 * 1024;         // sealed bytes awaiting the transport before write() stops
  std::size_t pad_to = 0;                          // pad inner plaintext to a multiple of this (0: none)
};

// client_config: the pinned server key, an optional client key, and the
// client's preferences. Shared by any number of connections. The KEM is the
// server key's (X25519 or X448); a client key must be of the same KEM.
struct client_config {
  hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256;          // the handshake's KDF; the server must accept it
  hpke::public_key server_key;                           // pinned
  std::shared_ptr<const hpke::private_key> client_key;   // set to authenticate as a client
  // aeads are the record AEADs offered, most preferred first: the server
  // takes the first one it accepts.
  std::vector<record_aead> aeads = {record_aead::chacha20_poly1305, record_aead::xchacha20_poly1305};
  record::limits limits;                                 // this side's limits
};

// server_config: the server's static key and its acceptance policy. The
// KEM is the static key's (X25519 or X448).
struct server_config {
  std::shared_ptr<const hpke::private_key> static_key;  // required; clients pin its public key
  // kdfs are the KDFs the server accepts for the handshake.
  std::vector<hpke::kdf_id> kdfs = {hpke::kdf_id::hkdf_sha256, hpke::kdf_id::hkdf_sha384,
                                    hpke::kdf_id::hkdf_sha512};
  // aeads are the record AEADs the server accepts. Their order does not
  // matter: the server takes the first of the client's offers that is here.
  std::vector<record_aead> aeads = {record_aead::chacha20_poly1305, record_aead::xchacha20_poly1305,
                                    record_aead::aes256_gcm, record_aead::aes128_gcm};
  bool require_client_auth = false;                     // refuse clients that send no key (client_auth_required)
  // accept_client decides on an authenticating client's public key; unset
  // accepts any key that proves possession.
  std::function<bool(std::span<const std::uint8_t> client_public_key)> accept_client;
  record::limits limits;  // this side's limits
};

}  // namespace sealwire::record

namespace sealwire {
// parse<record::record_aead> reads to_string's names and the protocol's numbers.
template <>
[[nodiscard]] SEALWIRE_API result<record::record_aead> parse<record::record_aead>(std::string_view text) noexcept;
}  // namespace sealwire
