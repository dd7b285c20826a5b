// SPDX-License-Identifier: Apache-2.0
// The process-wide helper-thread pool (see detail/work_pool.hpp).
#include "detail/work_pool.hpp"

#include <atomic>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace sealwire::crypto::detail {
namespace {

// At most this many helper threads, whatever a caller asks for.
constexpr unsigned max_helpers = 63;

// How long a thread polls before it sleeps on a condition variable: a helper
// after its job (for the next one), the caller after its own share (for the
// helpers'). Waking a sleeping thread costs a futex wake-up and, on a VM, an
// interrupt to an idle virtual CPU: 15 to 30 us measured here, per hand-off,
// against about 400 us of hashing for 4 MiB on one thread. A bounded poll
// makes back-to-back calls and the join cheap and still lets an idle pool
// sleep.
constexpr std::chrono::microseconds helper_poll{100};
constexpr std::chrono::microseconds caller_poll{200};

struct pool {
  explicit pool(pid_t owner) : pid(owner) {}

  const pid_t pid;   // the process that created it (a forked child makes its own)
  std::mutex job_m;  // held by the one caller whose job the pool runs

  std::mutex m;  // guards everything below; the atomics are written under it too
  std::condition_variable work_cv;  // workers wait here for a new generation
  std::condition_variable done_cv;  // the caller waits here for active == 0
  std::vector<std::thread> threads;
  std::atomic<std::uint64_t> generation{0};  // bumped once per job; polled without the lock
  pool_job_fn fn = nullptr;
  void* ctx = nullptr;
  unsigned wanted = 0;             // workers with an index below this join the current job
  std::atomic<unsigned> active{0};  // of those, the ones not yet finished; polled without the lock
};

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// poll_until returns true as soon as done() holds, false if it still does not
// after `limit`. The clock is read once per 64 pauses.
template <class Done>
bool poll_until(Done done, std::chrono::microseconds limit) noexcept {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return done();
  }
}

void worker(pool* p, unsigned index, std::uint64_t seen) noexcept {
  for (;;) {
    // A new generation is published under the lock after fn, ctx and wanted
    // (release), so the poll only tells when to take the lock.
    poll_until([&] { return p->generation.load(std::memory_order_acquire) != seen; }, helper_poll);
    std::unique_lock lk(p->m);
    p->work_cv.wait(lk, [&] { return p->generation.load(std::memory_order_relaxed) != seen; });
    seen = p->generation.load(std::memory_order_relaxed);
    if (index >= p->wanted) continue;
    const pool_job_fn fn = p->fn;
    void* const ctx = p->ctx;
    lk.unlock();
    fn(ctx);
    lk.lock();
    // The caller may be polling: it must see active fall only after this
    // worker's writes (release), and it may return before the notify.
    if (p->active.fetch_sub(1, std::memory_order_acq_rel) == 1) p->done_cv.notify_one();
  }
}

// The current process's pool. A pool is never destroyed: its threads run
// until the process exits, and a forked child must not touch its parent's
// (whose mutexes another thread may have held at the fork), so the child
// leaves it allocated and makes its own.
std::atomic<pool*> current_pool{nullptr};

pool* get_pool() noexcept {
  const pid_t self = ::getpid();
  pool* p = current_pool.load(std::memory_order_acquire);
  while (p == nullptr || p->pid != self) {
    pool* fresh = new (std::nothrow) pool(self);
    if (fresh == nullptr) return nullptr;
    if (current_pool.compare_exchange_strong(p, fresh, std::memory_order_acq_rel, std::memory_order_acquire)) {
      return fresh;
    }
    delete fresh;  // another thread installed one first; p now holds it
  }
  return p;
}

}  // namespace

void pool_run(pool_job_fn fn, void* ctx, unsigned helpers) noexcept {
  if (helpers > max_helpers) helpers = max_helpers;
  pool* p = helpers == 0 ? nullptr : get_pool();
  std::unique_lock<std::mutex> job;
  if (p != nullptr) job = std::unique_lock(p->job_m, std::try_to_lock);
  if (!job.owns_lock()) {
    // No pool, or another caller's job is running: this thread works alone.
    fn(ctx);
    return;
  }
  {
    std::lock_guard lk(p->m);
    while (p->threads.size() < helpers) {
      try {
        p->threads.emplace_back(worker, p, static_cast<unsigned>(p->threads.size()),
                                p->generation.load(std::memory_order_relaxed));
      } catch (...) {
        break;  // run with the threads there are
      }
    }
    p->fn = fn;
    p->ctx = ctx;
    p->wanted = std::min<unsigned>(helpers, static_cast<unsigned>(p->threads.size()));
    p->active.store(p->wanted, std::memory_order_relaxed);
    p->generation.fetch_add(1, std::memory_order_release);
  }
  // Cheap when every helper is still polling: no thread sleeps on work_cv.
  p->work_cv.notify_all();
  fn(ctx);
  if (poll_until([&] { return p->active.load(std::memory_order_acquire) == 0; }, caller_poll)) return;
  std::unique_lock lk(p->m);
  p->done_cv.wait(lk, [&] { return p->active.load(std::memory_order_acquire) == 0; });
}

}  // namespace sealwire::crypto::detail
