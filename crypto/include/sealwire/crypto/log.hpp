// SPDX-License-Identifier: Apache-2.0
// sealwire's logging hook: a minimum level and a callback, silent until the
// application installs one. The library logs events (handshake results, key
// updates, closes, failures and their reasons), never key material, secrets
// or plaintext. Examples route it to spdlog; any logger will do. Of this
// header an application needs only set_log_handler.
#pragma once

#include <sealwire/crypto/export.hpp>

#include <cstdint>
#include <functional>
#include <string_view>

namespace sealwire {

// log_level orders messages by importance; off silences everything.
enum class log_level : std::uint8_t { trace, debug, info, warning, error, off };

// log_handler receives one message: its level, the component that wrote it
// ("record", "hpke", ...) and the text (valid for the call only). It may be
// called from any thread that uses sealwire, concurrently; it must not call
// back into sealwire's logging functions.
using log_handler = std::function<void(log_level level, std::string_view component, std::string_view message)>;

// set_log_handler installs `handler` for messages at `min_level` and above
// (an empty handler or log_level::off silences the library, the default).
// Thread-safe; a call racing with a message may see the old or the new handler.
SEALWIRE_API void set_log_handler(log_level min_level, log_handler handler);

// log_enabled reports whether a message at `level` would reach a handler
// (one atomic load), so that callers build messages only when they are wanted.
[[nodiscard]] SEALWIRE_API bool log_enabled(log_level level) noexcept;

// log_message hands a message to the handler if its level is enabled.
// Exceptions from the handler are swallowed: logging never fails an operation.
SEALWIRE_API void log_message(log_level level, std::string_view component, std::string_view message) noexcept;

}  // namespace sealwire
