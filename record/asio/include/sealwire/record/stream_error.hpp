// SPDX-License-Identifier: Apache-2.0
// Errors of sealwire::record::stream itself (its timeouts and its shutdown),
// as opposed to the record layer's record_errc: the stream's deadlines are
// an Asio matter, so they live with the Asio stream and not in the sans-IO core.
#pragma once

#include <string>
#include <system_error>

namespace sealwire {

// stream_errc lists the failures of record::stream that are not the record
// layer's. The three timeouts put the stream in its sticky failed state
// (every later operation reports the same error); read_in_progress refuses
// one call and changes nothing. The timeouts compare equal to
// std::errc::timed_out.
enum class stream_errc {
  handshake_timeout = 1,  // async_handshake did not complete within stream_timeouts::handshake
  idle_timeout,           // an async read or write made no progress within stream_timeouts::idle
  shutdown_timeout,       // async_shutdown did not see the peer's close record within stream_timeouts::shutdown
  read_in_progress,       // async_shutdown waiting for the peer's close while a read is outstanding
};

namespace detail {
class stream_category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "sealwire.stream"; }
  std::string message(int ev) const override {
    switch (static_cast<stream_errc>(ev)) {
      case stream_errc::handshake_timeout: return "handshake timed out";
      case stream_errc::idle_timeout: return "no data from or to the peer within the idle timeout";
      case stream_errc::shutdown_timeout: return "the peer's close record did not arrive within the shutdown timeout";
      case stream_errc::read_in_progress:
        return "shutdown cannot wait for the peer's close record while a read is outstanding (use shutdown_mode::send_only)";
    }
    return "unknown sealwire.stream error " + std::to_string(ev);
  }
  std::error_condition default_error_condition(int ev) const noexcept override {
    switch (static_cast<stream_errc>(ev)) {
      case stream_errc::handshake_timeout:
      case stream_errc::idle_timeout:
      case stream_errc::shutdown_timeout: return std::errc::timed_out;
      case stream_errc::read_in_progress: break;
    }
    return {ev, *this};
  }
};
}  // namespace detail

// stream_category is the error category of stream_errc values (one object
// per program: a function-local static of an inline function).
[[nodiscard]] inline const std::error_category& stream_category() noexcept {
  static const detail::stream_category_impl category;
  return category;
}

// make_error_code makes stream_errc values usable as std::error_code (and so
// as boost::system::error_code: ec == stream_errc::idle_timeout).
[[nodiscard]] inline std::error_code make_error_code(stream_errc e) noexcept {
  return {static_cast<int>(e), stream_category()};
}

}  // namespace sealwire

template <>
struct std::is_error_code_enum<sealwire::stream_errc> : std::true_type {};
