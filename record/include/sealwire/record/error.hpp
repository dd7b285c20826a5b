// SPDX-License-Identifier: Apache-2.0
// Errors reported by sealwire's record layer and its handshake. The API is
// in stream.hpp (start there) and connection.hpp; result.hpp's conditions
// test these errors together with the other layers'.
#pragma once

#include <sealwire/crypto/result.hpp>

#include <system_error>

namespace sealwire {

// record_errc lists record-layer failures. All of them put a connection in
// its sticky failed state except closed, bad_state and send_buffer_full,
// which refuse one call and change nothing, and the configuration errors
// (missing_key to missing_client_policy), which refuse to create a connection.
enum class record_errc {
  bad_record_mac = 1,     // a record failed authentication; its plaintext was wiped
  record_too_large,       // a header announced more than the negotiated maximum
  unexpected_record,      // a record type not allowed in the current state
  truncated,              // the transport ended before the peer's close record
  handshake_failed,       // the handshake did not complete (the log says why)
  bad_handshake_message,  // a malformed handshake message
  unsupported_version,    // no protocol version in common
  no_common_suite,        // no cipher suite in common
  server_key_mismatch,    // the server's static key is not the pinned one
  client_auth_required,   // the server requires a client key and none was sent
  too_many_empty_records, // more consecutive empty records than allowed
  sequence_exhausted,     // the sequence number reached its hard limit
  no_application_protocol,  // no application protocol in common (docs/protocol.md 4.3)
  unknown_server_key,       // the client pinned none of the server's static keys
  peer_error_close,         // the peer closed with an error reason (connection::peer_close_reason)
  closed,                 // the connection was closed; no more data
  bad_state,              // an operation not valid in the current state
  send_buffer_full,       // no room for another record: send pending() bytes, consume them, retry
  // Configuration errors (connection::client and connection::server):
  missing_key,             // no pinned server key (client), no static key (server)
  kem_mismatch,            // the configuration's keys belong to different KEMs
  unsupported_algorithm,   // a KEM, KDF or AEAD the record protocol does not offer (docs/protocol.md 2)
  invalid_algorithm_list,  // an empty list of KDFs or AEADs, more than 16 entries, more than 4 pinned keys,
                           // or an application protocol list over 16 entries or with an entry not 1-255 bytes
  invalid_limit,           // a limit outside its allowed range (docs/protocol.md 6)
  missing_client_policy,   // require_client_auth without accept_client or accept_any_client_key
  // Resources (sticky, like the failures above):
  out_of_memory,           // a buffer could not be allocated when data began to flow
};

// record_category is the error category of record_errc values.
[[nodiscard]] SEALWIRE_API const std::error_category& record_category() noexcept;

// make_error_code makes record_errc values usable as std::error_code.
[[nodiscard]] inline std::error_code make_error_code(record_errc e) noexcept {
  return {static_cast<int>(e), record_category()};
}

}  // namespace sealwire

template <>
struct std::is_error_code_enum<sealwire::record_errc> : std::true_type {};
