// SPDX-License-Identifier: Apache-2.0
// The process-wide helper-thread pool (see detail/work_pool.hpp).
#include "detail/work_pool.hpp"

#include <atomic>
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

namespace sealwire::crypto::detail {
namespace {

// At most this many helper threads, whatever a caller asks for.
constexpr unsigned max_helpers = 63;

struct pool {
  explicit pool(pid_t owner) : pid(owner) {}

  const pid_t pid;   // the process that created it (a forked child makes its own)
  std::mutex job_m;  // held by the one caller whose job the pool runs

  std::mutex m;  // guards everything below
  std::condition_variable work_cv;  // workers wait here for a new generation
  std::condition_variable done_cv;  // the caller waits here for active == 0
  std::vector<std::thread> threads;
  std::uint64_t generation = 0;  // bumped once per job
  pool_job_fn fn = nullptr;
  void* ctx = nullptr;
  unsigned wanted = 0;  // workers with an index below this join the current job
  unsigned active = 0;  // of those, the ones not yet finished
};

void worker(pool* p, unsigned index, std::uint64_t seen) noexcept {
  std::unique_lock lk(p->m);
  for (;;) {
    p->work_cv.wait(lk, [&] { return p->generation != seen; });
    seen = p->generation;
    if (index >= p->wanted) continue;
    const pool_job_fn fn = p->fn;
    void* const ctx = p->ctx;
    lk.unlock();
    fn(ctx);
    lk.lock();
    if (--p->active == 0) p->done_cv.notify_one();
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
        p->threads.emplace_back(worker, p, static_cast<unsigned>(p->threads.size()), p->generation);
      } catch (...) {
        break;  // run with the threads there are
      }
    }
    p->fn = fn;
    p->ctx = ctx;
    p->wanted = std::min<unsigned>(helpers, static_cast<unsigned>(p->threads.size()));
    p->active = p->wanted;
    ++p->generation;
  }
  p->work_cv.notify_all();
  fn(ctx);
  std::unique_lock lk(p->m);
  p->done_cv.wait(lk, [&] { return p->active == 0; });
}

}  // namespace sealwire::crypto::detail
