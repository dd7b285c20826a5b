// SPDX-License-Identifier: Apache-2.0
// A process-wide pool of helper threads for data-parallel one-shots (BLAKE3's
// hash_parallel). Threads are started on first use, as many as a call asks
// for, and then outlive the call, so that a call costs at most a wake-up
// instead of a thread start. Between jobs a helper polls briefly, then sleeps
// on a condition variable.
#pragma once

namespace sealwire::crypto::detail {

// A job: fn(ctx) runs on the calling thread and on every helper that joins.
// It must let any number of threads share the work (for example by taking
// pieces from an atomic counter) and must not throw.
using pool_job_fn = void (*)(void* ctx) noexcept;

// pool_run runs fn(ctx) on the calling thread and on up to `helpers` pool
// threads at once, and returns once every one of them has returned (the
// caller polls for a short bound, then sleeps on a condition variable). It
// never throws:
// if the pool is busy with another caller's job, or a thread cannot be
// started, fewer helpers (at worst none) join, and the caller does the rest.
// The pool is safe across fork(): a child finds the parent's pool by its
// process id, leaves it (its threads do not exist in the child) and starts
// its own on first use.
void pool_run(pool_job_fn fn, void* ctx, unsigned helpers) noexcept;

}  // namespace sealwire::crypto::detail
