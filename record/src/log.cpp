// SPDX-License-Identifier: Apache-2.0
// The record layer's logger.
#include <sealwire/record/log.hpp>

#include <spdlog/sinks/stdout_sinks.h>

#include <mutex>

namespace sealwire::record {
namespace {

std::shared_ptr<spdlog::logger> make_default() {
  auto l = std::make_shared<spdlog::logger>("sealwire.record", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  l->set_level(spdlog::level::off);
  return l;
}

struct holder {
  std::mutex mutex;
  std::shared_ptr<spdlog::logger> current = make_default();
};

holder& state() {
  static holder h;
  return h;
}

}  // namespace

std::shared_ptr<spdlog::logger> logger() noexcept {
  holder& h = state();
  const std::lock_guard lock(h.mutex);
  return h.current;
}

void set_logger(std::shared_ptr<spdlog::logger> l) noexcept {
  holder& h = state();
  auto replacement = l ? std::move(l) : make_default();
  const std::lock_guard lock(h.mutex);
  h.current.swap(replacement);
}

}  // namespace sealwire::record
