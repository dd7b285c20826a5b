// SPDX-License-Identifier: Apache-2.0
// Errors reported by sealwire's record layer and its handshake.
#pragma once

#include <sealwire/crypto/result.hpp>

#include <system_error>

namespace sealwire {

// record_errc lists record-layer failures. All of them put a connection in
// its sticky failed state except closed, bad_state, invalid_config and
// send_buffer_full, which refuse one call and change nothing.
enum class record_errc {
  bad_record_mac = 1,     // a record failed authentication; its plaintext was wiped
  record_too_large,       // a header announced more than the negotiated maximum
  unexpected_record,      // a record type not allowed in the current state
  truncated,              // the transport ended before the peer's close record
  handshake_failed,       // the handshake did not complete (see the log for why)
  bad_handshake_message,  // a malformed handshake message
  unsupported_version,    // no protocol version in common
  no_common_suite,        // no cipher suite in common
  server_key_mismatch,    // the server's static key is not the pinned one
  client_auth_required,   // the server requires a client key and none was sent
  too_many_empty_records, // more consecutive empty records than allowed
  input_limit_exceeded,   // more buffered input than allowed
  sequence_exhausted,     // the sequence number reached its hard limit
  closed,                 // the connection was closed; no more data
  bad_state,              // an operation not valid in the current state
  invalid_config,         // a configuration that cannot work (missing key, KEM mismatch, limit out of range)
  send_buffer_full,       // no room for another record: send pending() bytes, consume them, retry
};

// record_category is the error category of record_errc values.
[[nodiscard]] const std::error_category& record_category() noexcept;

[[nodiscard]] inline std::error_code make_error_code(record_errc e) noexcept {
  return {static_cast<int>(e), record_category()};
}

}  // namespace sealwire

template <>
struct std::is_error_code_enum<sealwire::record_errc> : std::true_type {};
