// SPDX-License-Identifier: Apache-2.0
// The record layer's logging: one spdlog logger, "sealwire.record", silent
// (level off) until the application raises its level or installs its own.
// It logs handshake results, key updates, closes and failures at debug and
// trace; never key material, secrets or plaintext.
#pragma once

#include <spdlog/logger.h>

#include <memory>

namespace sealwire::record {

// logger returns the logger in use (never null).
[[nodiscard]] std::shared_ptr<spdlog::logger> logger() noexcept;

// set_logger replaces it; nullptr restores the silent default.
void set_logger(std::shared_ptr<spdlog::logger> l) noexcept;

}  // namespace sealwire::record
