// SPDX-License-Identifier: Apache-2.0
// The logging hook: silent by default, the level filter, replacing and
// removing the handler, a throwing handler, concurrent messages.
#include <sealwire/crypto/log.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace sealwire;

namespace {
struct captured {
  std::mutex m;
  std::vector<std::string> lines;
};
}  // namespace

TEST(Log, SilentByDefaultThenFilteredByLevel) {
  EXPECT_FALSE(log_enabled(log_level::error));
  captured c;
  set_log_handler(log_level::info, [&](log_level l, std::string_view comp, std::string_view msg) {
    const std::lock_guard lock(c.m);
    c.lines.push_back(std::to_string(static_cast<int>(l)) + " " + std::string(comp) + ": " + std::string(msg));
  });
  EXPECT_FALSE(log_enabled(log_level::debug));
  EXPECT_TRUE(log_enabled(log_level::info));
  EXPECT_TRUE(log_enabled(log_level::error));
  EXPECT_FALSE(log_enabled(log_level::off));
  log_message(log_level::debug, "test", "dropped");
  log_message(log_level::warning, "test", "kept");
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], "3 test: kept");
  set_log_handler(log_level::off, nullptr);
  log_message(log_level::error, "test", "after removal");
  EXPECT_EQ(c.lines.size(), 1u);
  EXPECT_FALSE(log_enabled(log_level::error));
}

TEST(Log, AThrowingHandlerNeverFailsTheCaller) {
  set_log_handler(log_level::trace, [](log_level, std::string_view, std::string_view) { throw std::runtime_error("x"); });
  EXPECT_NO_THROW(log_message(log_level::error, "test", "m"));
  set_log_handler(log_level::trace, {});  // an empty handler silences
  EXPECT_FALSE(log_enabled(log_level::error));
}

TEST(Log, ConcurrentMessagesAndReplacement) {
  std::atomic<int> seen{0};
  set_log_handler(log_level::trace, [&](log_level, std::string_view, std::string_view) { ++seen; });
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 1000; ++i) log_message(log_level::info, "test", "m");
    });
  for (int i = 0; i < 50; ++i)
    set_log_handler(log_level::trace, [&](log_level, std::string_view, std::string_view) { ++seen; });
  for (auto& th : threads) th.join();
  EXPECT_EQ(seen.load(), 4000);
  set_log_handler(log_level::off, nullptr);
}
