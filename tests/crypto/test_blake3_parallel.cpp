// SPDX-License-Identifier: Apache-2.0
// blake3::hash_parallel and its process-wide work pool: equal to the one-thread
// hash at every length class and thread count (at every CPU level), concurrent
// callers, and fork. Its own executable, so that the tsan preset runs the
// pool's hand-offs (atomics polled beside a mutex and condition variables)
// without building the other crypto tests.
#include <sealwire/crypto/blake3.hpp>

#include "vectors.hpp"

#include <cstdio>
#include <span>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace sealwire;
using crypto::blake3;
using test::bytes;

class Blake3Pool : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Blake3Pool);

TEST_P(Blake3Pool, HashParallelEqualsHash) {
  test::seeded_random rng(13);
  const bytes in = rng.fill(4 * 1024 * 1024 + 4096);
  // Under 256 KiB it runs on one thread; above, the whole chunks are cut
  // into aligned pieces that shrink toward the end (down to one chunk), and
  // a partial last chunk follows them: lengths on and one byte off chunk
  // boundaries, an odd number of chunks (a one-chunk last piece), and
  // counts just under and over the piece sizes. The same pool serves every call.
  const std::size_t sizes[] = {0,
                               1,
                               1024,
                               1025,
                               (256 << 10) - 1,
                               256 << 10,
                               (256 << 10) + 1,
                               (257 << 10),
                               (257 << 10) + 1,
                               (287 << 10) - 1,
                               300000,
                               (511 << 10),
                               (1 << 20) - 1,
                               1 << 20,
                               (1 << 20) + 1,
                               (1 << 20) + 66567,
                               (2 << 20) + 3 * 1024,
                               (2 << 20) + 31 * 1024,
                               3 * 1024 * 1024 + 12345,
                               4 << 20,
                               in.size()};
  for (std::size_t n : sizes) {
    const auto msg = std::span(in).first(n);
    bytes want(32);
    blake3::hash(want, msg);
    for (unsigned threads : {0u, 1u, 2u, 3u, 8u}) {
      bytes got(32);
      blake3::hash_parallel(got, msg, threads);
      ASSERT_EQ(got, want) << "length " << n << " threads " << threads;
    }
  }
}

// Many threads on a large input: more pieces (382 here) than the plan held on
// the stack (256), so the plan and the chaining values go to the heap.
TEST(Blake3Parallel, PlansOfMoreThan256PiecesGoToTheHeap) {
  test::seeded_random rng(19);
  const bytes in = rng.fill((16 << 20) + 1000);
  bytes want(32), got(32);
  blake3::hash(want, in);
  blake3::hash_parallel(got, in, 32);
  EXPECT_EQ(got, want);
}

// Two threads calling at once: one gets the pool, the other runs alone (or
// gets it when it is free); both get their own message's hash.
TEST(Blake3Parallel, ConcurrentCallersEachGetTheirHash) {
  test::seeded_random rng(15);
  const bytes a = rng.fill((1 << 20) + 777), b = rng.fill((2 << 20) - 5);
  bytes want_a(32), want_b(32);
  blake3::hash(want_a, a);
  blake3::hash(want_b, b);
  const auto run = [](const bytes& msg, const bytes& want, bool& ok) {
    ok = true;
    for (int i = 0; i < 4; ++i) {
      bytes got(32);
      blake3::hash_parallel(got, msg, 2 + static_cast<unsigned>(i % 2));
      ok = ok && got == want;
    }
  };
  bool ok_a = false, ok_b = false;
  std::thread t([&] { run(a, want_a, ok_a); });
  run(b, want_b, ok_b);
  t.join();
  EXPECT_TRUE(ok_a);
  EXPECT_TRUE(ok_b);
}

// The pool's threads do not survive fork(): a child that reused its parent's
// pool would wait forever for them (the alarm turns that into a failure).
TEST(Blake3Parallel, ChildAfterForkHashesCorrectly) {
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer does not support starting threads in the child of a
  // multithreaded process; the release and ASan builds run this test.
  GTEST_SKIP() << "ThreadSanitizer cannot start threads after a multithreaded fork";
#endif
  test::seeded_random rng(17);
  const bytes in = rng.fill((2 << 20) + 3);
  bytes want(32), got(32);
  blake3::hash(want, in);
  blake3::hash_parallel(got, in, 2);  // the parent's pool now has a thread
  ASSERT_EQ(got, want);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  ASSERT_NE(pid, -1);
  if (pid == 0) {
    ::alarm(30);
    bytes first(32), second(32);
    blake3::hash_parallel(first, in, 2);
    blake3::hash_parallel(second, in, 3);
    ::_exit(first == want && second == want ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the child did not exit normally (status " << status << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child computed a wrong hash";
  blake3::hash_parallel(got, in, 2);  // the parent's pool still works
  EXPECT_EQ(got, want);
}
