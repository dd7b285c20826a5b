// SPDX-License-Identifier: Apache-2.0
// Deadlines for tests that wait on sockets, threads, servers and futures.
// Every deadline these helpers take is nominal: they multiply it by one
// scale, SEALWIRE_TEST_TIMEOUT_SCALE (default 1; 2 under AddressSanitizer,
// 4 under ThreadSanitizer), so that a slow build waits longer instead of
// failing, and a hung operation fails with a message instead of holding the
// test binary until the ctest timeout.
#pragma once

#include <gtest/gtest.h>

#include <sys/socket.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <future>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace sealwire::test {

// GCC defines __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang answers
// __has_feature (and newer clang defines the macros too).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool address_sanitizer = true;
#else
inline constexpr bool address_sanitizer = false;
#endif
#else
inline constexpr bool address_sanitizer = false;
#endif

#if defined(__SANITIZE_THREAD__)
inline constexpr bool thread_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool thread_sanitizer = true;
#else
inline constexpr bool thread_sanitizer = false;
#endif
#else
inline constexpr bool thread_sanitizer = false;
#endif

// A sanitizer that slows everything down several times.
inline constexpr bool sanitizer_build = address_sanitizer || thread_sanitizer;

inline constexpr const char* timeout_scale_variable = "SEALWIRE_TEST_TIMEOUT_SCALE";
inline constexpr double default_timeout_scale = thread_sanitizer ? 4.0 : address_sanitizer ? 2.0 : 1.0;

namespace detail {
struct timeout_scale_setting {
  double value = default_timeout_scale;
  std::string error;  // non-empty: the variable was set to something unusable
};

// parse_timeout_scale reads the variable's text: a number from 1 to 1000.
inline timeout_scale_setting parse_timeout_scale(const char* text) {
  timeout_scale_setting s;
  if (text == nullptr || *text == '\0') return s;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v) || v < 1.0 || v > 1000.0) {
    s.error = std::string(timeout_scale_variable) + "=\"" + text +
              "\" is not a number from 1 to 1000; using the default " + std::to_string(default_timeout_scale);
    return s;
  }
  s.value = v;
  return s;
}
}  // namespace detail

// timeout_scale is the multiplier for every deadline, read once. An unusable
// value fails the first test that asks (and the default is used).
inline double timeout_scale() {
  static const detail::timeout_scale_setting setting = detail::parse_timeout_scale(std::getenv(timeout_scale_variable));
  static std::once_flag reported;
  if (!setting.error.empty()) std::call_once(reported, [] { ADD_FAILURE() << setting.error; });
  return setting.value;
}

// scaled returns a nominal duration times the scale, in whole milliseconds
// (rounded up).
template <class Rep, class Period>
std::chrono::milliseconds scaled(std::chrono::duration<Rep, Period> nominal) {
  const double ms = std::chrono::duration<double, std::milli>(nominal).count() * timeout_scale();
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(ms)));
}

// describe_deadline names a scaled deadline for failure messages.
inline std::string describe_deadline(std::chrono::milliseconds nominal) {
  return std::to_string(scaled(nominal).count()) + " ms (" + std::to_string(nominal.count()) + " ms x " +
         timeout_scale_variable + " " + std::to_string(timeout_scale()) + ")";
}

// ready_within waits for a future at most the scaled deadline.
//   ASSERT_TRUE(ready_within(server, 10s, "the server's handshake"));
//   server.get();
template <class T>
::testing::AssertionResult ready_within(const std::future<T>& f, std::chrono::milliseconds nominal,
                                        std::string_view what) {
  if (f.wait_for(scaled(nominal)) == std::future_status::ready) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << " did not finish within " << describe_deadline(nominal);
}

// runs_to_completion runs an io_context until it has no work left, at most
// the scaled deadline; on failure the operations still pending are abandoned
// with the io_context.
template <class IoContext>
::testing::AssertionResult runs_to_completion(IoContext& io, std::chrono::milliseconds nominal,
                                              std::string_view what) {
  io.run_for(scaled(nominal));
  if (io.stopped()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << " did not finish within " << describe_deadline(nominal);
}

// deadline_guard bounds blocking socket calls on this thread: if it is still
// alive when the scaled deadline passes, it shuts the sockets down (both
// ways), so that a blocked read or write returns an error instead of hanging
// the binary, and the test fails naming what did not finish. Pass the
// native descriptors of open sockets that outlive the guard.
class deadline_guard {
 public:
  deadline_guard(std::initializer_list<int> fds, std::chrono::milliseconds nominal, std::string what)
      : fds_(fds), what_(std::move(what)), nominal_(nominal), thread_([this, limit = scaled(nominal)] {
          std::unique_lock lock(mutex_);
          if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
            fired_ = true;
            for (const int fd : fds_) ::shutdown(fd, SHUT_RDWR);
          }
        }) {}
  ~deadline_guard() {
    {
      const std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
    if (fired_) ADD_FAILURE() << what_ << ": not done within " << describe_deadline(nominal_);
  }
  deadline_guard(const deadline_guard&) = delete;
  deadline_guard& operator=(const deadline_guard&) = delete;

  [[nodiscard]] bool fired() {
    const std::lock_guard lock(mutex_);
    return fired_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false, fired_ = false;
  const std::vector<int> fds_;
  const std::string what_;
  const std::chrono::milliseconds nominal_;
  std::thread thread_;  // last: it starts once everything above exists
};

// shutdown_on_exit ends the connections of some sockets (shutdown both ways)
// when the scope exits, however it exits: an ASSERT that returns early or an
// exception must not leave another thread blocked on them, or a std::async
// future's destructor would wait for it forever. It only shuts down (a
// system call on the descriptor, safe while another thread is blocked on the
// socket); the sockets' own destructors close them. dismiss() keeps the
// connections for later use once the risky part is over.
template <class... Sockets>
class shutdown_on_exit {
 public:
  explicit shutdown_on_exit(Sockets&... sockets) : sockets_(sockets...) {}
  ~shutdown_on_exit() {
    if (!dismissed_) std::apply([](auto&... s) { (end_connection(s), ...); }, sockets_);
  }
  shutdown_on_exit(const shutdown_on_exit&) = delete;
  shutdown_on_exit& operator=(const shutdown_on_exit&) = delete;
  void dismiss() { dismissed_ = true; }

 private:
  template <class Socket>
  static void end_connection(Socket& s) {
    if (s.is_open()) ::shutdown(s.native_handle(), SHUT_RDWR);
  }
  std::tuple<Sockets&...> sockets_;
  bool dismissed_ = false;
};

// scope_exit runs a function when the scope exits (joining a helper thread
// that an early return would otherwise leave joinable).
template <class F>
class scope_exit {
 public:
  explicit scope_exit(F f) : f_(std::move(f)) {}
  ~scope_exit() { f_(); }
  scope_exit(const scope_exit&) = delete;
  scope_exit& operator=(const scope_exit&) = delete;

 private:
  F f_;
};

}  // namespace sealwire::test
