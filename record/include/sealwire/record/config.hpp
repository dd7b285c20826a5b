// SPDX-License-Identifier: Apache-2.0
// Configuration of a sealwire record connection: roles, keys, algorithm
// preferences and the named limits of docs/protocol.md section 6. An
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
#include <string>
#include <string_view>
#include <vector>

namespace sealwire::record {

// protocol_version is the version of the record protocol (docs/protocol.md)
// that this library speaks and offers in its ClientHello.
inline constexpr std::uint16_t protocol_version = 0x0002;

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

// default_kem is the KEM for new static keys (servers' and clients'):
// X-Wing (ML-KEM-768 + X25519, post-quantum hybrid; docs/protocol.md 2).
// X25519 and X448 remain available: a connection uses its server key's KEM.
inline constexpr hpke::kem_id default_kem = hpke::kem_id::xwing;

// max_pinned_server_keys is how many server keys a client may pin for one
// server (docs/protocol.md 4.4): one encapsulation each.
inline constexpr std::size_t max_pinned_server_keys = 4;

// close_reason is the reason code a close record carries (docs/protocol.md
// 3.4). Values beyond application_error are reserved; a peer may still send
// them, and they are reported as they came.
enum class close_reason : std::uint8_t {
  normal = 0,             // orderly end of the stream
  unexpected_record = 1,  // the sender opened a verified record it could not accept
  limit_exceeded = 2,     // the peer's verified records broke a limit (too many empty records)
  policy_refusal = 3,     // the application refuses to continue with this peer
  idle_timeout = 4,       // the application's idle timer expired
  handshake_timeout = 5,  // the handshake did not complete in time
  application_error = 6,  // the application ended the connection for a reason of its own
};

// to_string names a close reason ("normal", "unexpected_record", ...;
// "reserved" for values the protocol does not define).
[[nodiscard]] SEALWIRE_API std::string_view to_string(close_reason r) noexcept;

// to_string names a record AEAD: "aes128gcm", "aes256gcm", "chacha20poly1305",
// "xchacha20poly1305" (what parse<record_aead> reads, as well as the numbers).
[[nodiscard]] SEALWIRE_API std::string_view to_string(record_aead a) noexcept;

// limits are the named limits of docs/protocol.md 6.
struct limits {
  std::size_t max_record_size = 16 * 1024;         // content bytes per record, both directions
  // max_handshake_size bounds one handshake message (256 to 65536). The
  // default holds an X-Wing ClientHello with four pinned keys and a client
  // key (about 7 KiB) plus 1 KiB of protocol names.
  std::size_t max_handshake_size = 8192;
  unsigned max_empty_records = 32;                 // consecutive records without application bytes
  std::uint64_t key_update_after = 1ULL << 32;     // records per key before an automatic update (0: only the AEAD limit)
  // key_blocks_limit lowers the AEAD's per-key limit of records + 16-byte
  // blocks sealed (docs/protocol.md 3.5); 0 keeps the AEAD's limit. At least
  // 4 full records' worth when set (a test hook, mostly).
  std::uint64_t key_blocks_limit = 0;
  std::size_t max_buffered_plaintext = 64 * 1024;  // verified plaintext held for the application
  std::size_t max_send_buffer = 64 * 1024;         // sealed bytes awaiting the transport before write() stops
  std::size_t pad_to = 0;                          // pad every record's inner plaintext to a multiple of this (0: none)
};

// client_config: the pinned server key, an optional client key, and the
// client's preferences. Shared by any number of connections. The KEM is the
// server key's (X-Wing, X25519 or X448; default_kem for new keys); a client
// key must be of the same KEM.
struct client_config {
  hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256;          // the handshake's KDF; the server must accept it
  hpke::public_key server_key;                           // pinned; the preferred (newest) key
  // extra_server_keys are further pinned keys of the same server and KEM,
  // in preference order after server_key (a key rotation, docs/protocol.md
  // 4.4): each costs the client one more encapsulation per handshake.
  // server_key plus these: at most max_pinned_server_keys.
  std::vector<hpke::public_key> extra_server_keys;
  std::shared_ptr<const hpke::private_key> client_key;   // set to authenticate as a client
  // app_protocols are the application protocols the client runs over the
  // connection, most preferred first (like ALPN; docs/protocol.md 4.3): at
  // most 16, each 1 to 255 bytes. Empty: none (only a server with none
  // accepts it).
  std::vector<std::string> app_protocols;
  // aeads are the record AEADs offered, most preferred first: the server
  // takes the first one it accepts.
  std::vector<record_aead> aeads = {record_aead::chacha20_poly1305, record_aead::xchacha20_poly1305};
  record::limits limits;                                 // this side's limits
};

// server_config: the server's static keys and its acceptance policy.
struct server_config {
  std::shared_ptr<const hpke::private_key> static_key;  // required; clients pin its public key
  // extra_static_keys are further static keys the server answers with (the
  // old key during a rotation, docs/protocol.md 4.4), of any KEM the
  // protocol has. A client names the key it pinned; the server uses it.
  std::vector<std::shared_ptr<const hpke::private_key>> extra_static_keys;
  // kdfs are the KDFs the server accepts for the handshake.
  std::vector<hpke::kdf_id> kdfs = {hpke::kdf_id::hkdf_sha256, hpke::kdf_id::hkdf_sha384,
                                    hpke::kdf_id::hkdf_sha512};
  // aeads are the record AEADs the server accepts. Their order does not
  // matter: the server takes the first of the client's offers that is here.
  std::vector<record_aead> aeads = {record_aead::chacha20_poly1305, record_aead::xchacha20_poly1305,
                                    record_aead::aes256_gcm, record_aead::aes128_gcm};
  bool require_client_auth = false;                     // refuse clients that send no key (client_auth_required)
  // accept_client decides on an authenticating client's public key. It is
  // called only after the client proved it holds the key (its Finished
  // verified); a refusal ends the handshake exactly like a bad Finished
  // (handshake_failed, nothing more sent). Unset: any proven key is
  // accepted, which require_client_auth allows only with
  // accept_any_client_key (missing_client_policy otherwise).
  std::function<bool(std::span<const std::uint8_t> client_public_key)> accept_client;
  bool accept_any_client_key = false;  // with require_client_auth and no accept_client: say so explicitly
  // app_protocols are the application protocols this server runs; it picks
  // the first of the client's list that is here (docs/protocol.md 4.3).
  // Empty: none (only clients offering none are accepted).
  std::vector<std::string> app_protocols;
  record::limits limits;  // this side's limits
};

}  // namespace sealwire::record

namespace sealwire {
// parse<record::record_aead> reads to_string's names and the protocol's numbers.
template <>
[[nodiscard]] SEALWIRE_API result<record::record_aead> parse<record::record_aead>(std::string_view text) noexcept;
}  // namespace sealwire
