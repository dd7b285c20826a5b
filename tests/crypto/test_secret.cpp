// SPDX-License-Identifier: Apache-2.0
// secret_array and secret_bytes wipe their contents.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/secret.hpp>

#include "vectors.hpp"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>

using sealwire::crypto::secret_array;
using sealwire::crypto::secret_bytes;
namespace ct = sealwire::crypto::ct;

// To see what secret_bytes leaves behind when it frees its buffer, this test
// binary replaces the array forms of operator new/delete and inspects one
// watched allocation just before it is released.
namespace {
std::atomic<const void*> g_watch{nullptr};
std::size_t g_watch_size = 0;
std::atomic<int> g_watch_zero{-1};  // -1 not freed yet, 0 freed dirty, 1 freed wiped

void inspect_before_free(void* p) noexcept {
  if (p != nullptr && p == g_watch.load()) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    g_watch_zero = ct::is_zero({b, g_watch_size}) ? 1 : 0;
    g_watch = nullptr;
  }
}
}  // namespace

void* operator new[](std::size_t n) {
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete[](void* p) noexcept {
  inspect_before_free(p);
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  inspect_before_free(p);
  std::free(p);
}

namespace {
void watch(const secret_bytes& s) {
  g_watch_size = s.size();
  g_watch_zero = -1;
  g_watch = s.data();
}
}  // namespace

TEST(SecretBytes, DestructionWipesBeforeFreeing) {
  {
    secret_bytes s(48);
    std::memset(s.data(), 0x5a, s.size());
    watch(s);
  }
  EXPECT_EQ(g_watch_zero.load(), 1);
}

TEST(SecretBytes, ClearAndResizeWipeTheOldBuffer) {
  secret_bytes s(sealwire::test::hex("0102030405060708"));
  watch(s);
  s.resize(12);
  EXPECT_EQ(g_watch_zero.load(), 1);
  ASSERT_EQ(s.size(), 12u);
  EXPECT_EQ(sealwire::test::to_hex(s.span()), "010203040506070800000000");
  s.resize(3);
  EXPECT_EQ(sealwire::test::to_hex(s.span()), "010203");
  watch(s);
  s.clear();
  EXPECT_EQ(g_watch_zero.load(), 1);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.data(), nullptr);
}

TEST(SecretBytes, MoveLeavesSourceEmpty) {
  secret_bytes a(sealwire::test::hex("aabbcc"));
  const auto* buf = a.data();
  secret_bytes b(std::move(a));
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(b.data(), buf);
  secret_bytes c(4);
  watch(c);
  c = std::move(b);  // c's old buffer is wiped and freed
  EXPECT_EQ(g_watch_zero.load(), 1);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(sealwire::test::to_hex(c.span()), "aabbcc");
}

TEST(SecretBytes, CopyIsIndependent) {
  secret_bytes a(sealwire::test::hex("0011"));
  secret_bytes b = a.copy();
  b.data()[0] = 0xff;
  EXPECT_EQ(sealwire::test::to_hex(a.span()), "0011");
  EXPECT_EQ(sealwire::test::to_hex(b.span()), "ff11");
  EXPECT_TRUE(secret_bytes(0).empty());
}

TEST(SecretArray, MoveWipesSource) {
  secret_array<32> a;
  std::memset(a.data(), 0x77, a.size());
  secret_array<32> b(std::move(a));
  EXPECT_TRUE(ct::is_zero(a.span()));  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b.data()[31], 0x77);
  secret_array<32> c;
  c = std::move(b);
  EXPECT_TRUE(ct::is_zero(b.span()));  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(c.data()[0], 0x77);
}

TEST(SecretArray, DestructionWipes) {
  // Construct in storage we own, destroy it, then inspect the storage.
  alignas(secret_array<24>) std::uint8_t storage[sizeof(secret_array<24>)];
  auto* s = new (storage) secret_array<24>();
  std::memset(s->data(), 0x3c, 24);
  s->~secret_array<24>();
  EXPECT_TRUE(ct::is_zero(storage));
}
