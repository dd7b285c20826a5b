// SPDX-License-Identifier: Apache-2.0
// Routes sealwire's logging hook (sealwire/crypto/log.hpp) into spdlog, at
// spdlog's current level. The library itself never depends on spdlog.
#pragma once

#include <sealwire/crypto/log.hpp>

#include <spdlog/spdlog.h>

namespace sealwire::tools {

// route_library_log sends the library's messages to spdlog's default logger.
inline void route_library_log() {
  const auto to_spdlog = [](log_level l) {
    switch (l) {
      case log_level::trace: return spdlog::level::trace;
      case log_level::debug: return spdlog::level::debug;
      case log_level::info: return spdlog::level::info;
      case log_level::warning: return spdlog::level::warn;
      case log_level::error: return spdlog::level::err;
      case log_level::off: break;
    }
    return spdlog::level::off;
  };
  log_level min = log_level::off;
  switch (spdlog::get_level()) {
    case spdlog::level::trace: min = log_level::trace; break;
    case spdlog::level::debug: min = log_level::debug; break;
    case spdlog::level::info: min = log_level::info; break;
    case spdlog::level::warn: min = log_level::warning; break;
    case spdlog::level::err:
    case spdlog::level::critical: min = log_level::error; break;
    default: break;
  }
  set_log_handler(min, [to_spdlog](log_level level, std::string_view component, std::string_view message) {
    spdlog::log(to_spdlog(level), "sealwire.{}: {}", component, message);
  });
}

}  // namespace sealwire::tools
