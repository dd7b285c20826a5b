// SPDX-License-Identifier: Apache-2.0
// Internal to record::stream: a "lane", the deadline and the cancellation
// signal of one direction's asynchronous operations. Not part of the API.
#pragma once

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstdint>
#include <memory>

namespace sealwire::record::detail {

// stream_lane: every next-layer call an operation of the stream starts is
// bound to the lane's cancellation signal. Two things emit on it: the
// caller's own per-operation cancellation (forwarded) and the lane's timer
// when its deadline passes. The operation tells the two apart by expired().
//
// The timer's handler holds only a weak_ptr to the lane, so a stream
// destroyed while a wait is pending (a disarmed timer's cancelled wait, or an
// expiry already queued) leaves a handler that finds nothing and does
// nothing. A generation number makes an expiry queued before the deadline
// was re-armed or disarmed harmless too.
//
// Not thread-safe: used on the stream's executor (strand) only, like the
// stream.
template <class Executor>
class stream_lane {
 public:
  using timer_type =
      boost::asio::basic_waitable_timer<std::chrono::steady_clock, boost::asio::wait_traits<std::chrono::steady_clock>,
                                        Executor>;
  using duration = std::chrono::steady_clock::duration;

  explicit stream_lane(const Executor& ex) : timer_(ex) {}
  stream_lane(const stream_lane&) = delete;
  stream_lane& operator=(const stream_lane&) = delete;

  // arm starts the deadline `timeout` from now, replacing any earlier one; a
  // zero or negative timeout disarms. The expiry runs on handler_ex (the
  // operation's executor, so it never runs beside the operation's steps).
  template <class HandlerExecutor>
  static void arm(const std::shared_ptr<stream_lane>& lane, duration timeout, const HandlerExecutor& handler_ex) {
    lane->disarm();
    if (timeout <= duration::zero()) return;
    lane->armed_ = true;
    lane->timer_.expires_after(timeout);
    lane->timer_.async_wait(boost::asio::bind_executor(handler_ex, on_expiry{lane, lane->generation_}));
  }

  // disarm cancels the deadline (its wait completes at once, as cancelled,
  // and does nothing) and forgets an expiry.
  void disarm() noexcept {
    ++generation_;
    expired_ = false;
    if (armed_) {
      armed_ = false;
      timer_.cancel();
    }
  }

  // expired: the deadline passed while armed and cancelled the lane's call.
  [[nodiscard]] bool expired() const noexcept { return expired_; }

  // slot is what the operation's next-layer calls are bound to.
  [[nodiscard]] boost::asio::cancellation_slot slot() noexcept { return signal_.slot(); }

  // cancel forwards the caller's cancellation to the call in progress.
  void cancel(boost::asio::cancellation_type type) { signal_.emit(type); }

 private:
  struct on_expiry {
    std::weak_ptr<stream_lane> lane;
    std::uint64_t generation;
    void operator()(const boost::system::error_code& ec) const {
      if (ec) return;  // cancelled: disarmed, re-armed, or the lane destroyed
      const auto l = lane.lock();
      if (!l || !l->armed_ || l->generation_ != generation) return;  // queued before a re-arm or disarm
      l->armed_ = false;
      l->expired_ = true;
      l->signal_.emit(boost::asio::cancellation_type::terminal);
    }
  };

  timer_type timer_;
  boost::asio::cancellation_signal signal_;
  std::uint64_t generation_ = 0;
  bool armed_ = false;
  bool expired_ = false;
};

// forward_cancellation is installed in an operation's own cancellation slot
// and passes the caller's cancellation on to the lane.
template <class Lane>
struct forward_cancellation {
  explicit forward_cancellation(Lane* l) noexcept : lane(l) {}
  Lane* lane;
  void operator()(boost::asio::cancellation_type type) const { lane->cancel(type); }
};

}  // namespace sealwire::record::detail
