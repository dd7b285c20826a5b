// SPDX-License-Identifier: Apache-2.0
// Errors of sealwire's datagram channel (docs/protocol.md 9). The API is in
// channel.hpp; a record that fails authentication is not an error there (it
// is dropped and counted), so these are the channel's own failures and
// refusals.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>

#include <system_error>

namespace sealwire {

// datagram_errc lists the datagram channel's failures. integrity_limit_reached
// is sticky (every later call reports it, the keys are wiped); the others
// refuse one call and change nothing.
enum class datagram_errc {
  message_too_large = 1,    // a message, or the messages for one datagram, exceed max_datagram_size (never fragmented)
  buffer_too_small,         // the output buffer is shorter than the datagram
  integrity_limit_reached,  // too many records failed authentication under one key (docs/protocol.md 9.6)
  update_too_soon,          // a key update within previous_epoch_lifetime of the last one (9.4)
  bad_state,                // a moved-from channel, or a connection without a completed handshake
  invalid_config,           // a datagram configuration value outside its range (9.6)
};

// datagram_category is the error category of datagram_errc values.
[[nodiscard]] SEALWIRE_API const std::error_category& datagram_category() noexcept;

// make_error_code makes datagram_errc values usable as std::error_code.
[[nodiscard]] inline std::error_code make_error_code(datagram_errc e) noexcept {
  return {static_cast<int>(e), datagram_category()};
}

}  // namespace sealwire

template <>
struct std::is_error_code_enum<sealwire::datagram_errc> : std::true_type {};
