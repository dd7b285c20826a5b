// SPDX-License-Identifier: Apache-2.0
// The logging hook: the minimum level in an atomic (so a disabled message
// costs one load) and the handler behind a shared_ptr, copied under a mutex and
// called outside it.
#include <sealwire/crypto/log.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>

namespace sealwire {
namespace {

struct hook {
  std::mutex mutex;
  std::shared_ptr<const log_handler> handler;
  std::atomic<std::uint8_t> min_level{static_cast<std::uint8_t>(log_level::off)};
};

hook& the_hook() noexcept {
  static hook h;
  return h;
}

}  // namespace

void set_log_handler(log_level min_level, log_handler handler) {
  hook& h = the_hook();
  auto next = handler ? std::make_shared<const log_handler>(std::move(handler)) : nullptr;
  if (!next) min_level = log_level::off;
  std::shared_ptr<const log_handler> previous;
  {
    const std::lock_guard lock(h.mutex);
    previous = std::exchange(h.handler, std::move(next));
    h.min_level.store(static_cast<std::uint8_t>(min_level), std::memory_order_release);
  }
  // `previous` is released here, outside the lock.
}

bool log_enabled(log_level level) noexcept {
  return level != log_level::off &&
         static_cast<std::uint8_t>(level) >= the_hook().min_level.load(std::memory_order_acquire);
}

void log_message(log_level level, std::string_view component, std::string_view message) noexcept {
  if (!log_enabled(level)) return;
  hook& h = the_hook();
  std::shared_ptr<const log_handler> handler;
  {
    const std::lock_guard lock(h.mutex);
    handler = h.handler;
  }
  if (!handler) return;
  try {
    (*handler)(level, component, message);
  } catch (...) {
    // Logging never fails an operation.
  }
}

}  // namespace sealwire
