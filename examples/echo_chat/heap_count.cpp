// SPDX-License-Identifier: Apache-2.0
// The counting operator new/delete of sealwire-demo (heap_count.hpp).
// Every block is [header][the caller's bytes]: the header (16 bytes, or the
// alignment asked for) records who allocated the block and where it starts.
#include "heap_count.hpp"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <limits>
#include <new>

namespace sealwire::chat::heap_count {
namespace {

constexpr unsigned client_kind = kinds;  // the header's mark for a client block
constexpr std::size_t header_size = 16;

struct header {
  std::uint32_t kind;    // a heap_count::kind, or client_kind
  std::uint32_t offset;  // from the block's start to the caller's bytes
  std::uint64_t unused;
};
static_assert(sizeof(header) == header_size);

std::atomic<std::int64_t> server_bytes{0}, server_peak{0}, client_bytes{0};
std::atomic<std::int64_t> kind_bytes[kinds] = {}, kind_blocks[kinds] = {};
std::atomic<std::size_t> plaintext_size{0};
thread_local bool client_thread = false;

// How the block was asked for: the stream allocates its input buffer with
// new[], the connection its send and plaintext buffers with nothrow new[]
// (record/src/buffer.cpp); containers, strings and handlers use plain new.
enum class form { plain, array, nothrow_array };

unsigned kind_of(std::size_t n, form f) noexcept {
  if (client_thread) return client_kind;
  if (f == form::array) return input_buffer;
  if (f == form::nothrow_array)
    return n == plaintext_size.load(std::memory_order_relaxed) ? plaintext_buffer : send_buffer;
  return other;
}

void add(unsigned kind, std::int64_t bytes) noexcept {
  if (kind == client_kind) {
    client_bytes.fetch_add(bytes, std::memory_order_relaxed);
    return;
  }
  kind_bytes[kind].fetch_add(bytes, std::memory_order_relaxed);
  kind_blocks[kind].fetch_add(bytes > 0 ? 1 : -1, std::memory_order_relaxed);
  const std::int64_t now = server_bytes.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::int64_t peak = server_peak.load(std::memory_order_relaxed);
  while (now > peak && !server_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

// place sets up the header in front of the caller's bytes and counts the block.
void* place(void* base, std::size_t offset, std::size_t n, form f) noexcept {
  if (base == nullptr) return nullptr;
  auto* user = static_cast<unsigned char*>(base) + offset;
  auto* h = reinterpret_cast<header*>(user - header_size);
  h->kind = kind_of(n, f);
  h->offset = static_cast<std::uint32_t>(offset);
  add(h->kind, static_cast<std::int64_t>(malloc_usable_size(base)));
  return user;
}

void* allocate(std::size_t n, std::size_t align, form f) noexcept {
  // A size the header and alignment would overflow fails like any other.
  if (n > std::numeric_limits<std::size_t>::max() - 2 * std::max(align, header_size)) return nullptr;
  if (align <= header_size) return place(std::malloc(header_size + n), header_size, n, f);
  const std::size_t total = (align + n + align - 1) / align * align;
  return place(std::aligned_alloc(align, total), align, n, f);
}

void release(void* p) noexcept {
  if (p == nullptr) return;
  auto* user = static_cast<unsigned char*>(p);
  const auto* h = reinterpret_cast<const header*>(user - header_size);
  void* base = user - h->offset;
  add(h->kind, -static_cast<std::int64_t>(malloc_usable_size(base)));
  std::free(base);
}

void* allocate_or_throw(std::size_t n, std::size_t align, form f) {
  void* p = allocate(n, align, f);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void mark_client_thread() noexcept { client_thread = true; }

void classify(std::size_t plaintext) noexcept { plaintext_size.store(plaintext, std::memory_order_relaxed); }

snapshot now() noexcept {
  snapshot s;
  s.server = server_bytes.load(std::memory_order_relaxed);
  s.client = client_bytes.load(std::memory_order_relaxed);
  for (unsigned k = 0; k < kinds; ++k) {
    s.by_kind[k] = kind_bytes[k].load(std::memory_order_relaxed);
    s.blocks[k] = kind_blocks[k].load(std::memory_order_relaxed);
  }
  return s;
}

std::int64_t peak_server() noexcept { return server_peak.load(std::memory_order_relaxed); }

}  // namespace sealwire::chat::heap_count

namespace hc = sealwire::chat::heap_count;

void* operator new(std::size_t n) { return hc::allocate_or_throw(n, 0, hc::form::plain); }
void* operator new[](std::size_t n) { return hc::allocate_or_throw(n, 0, hc::form::array); }
void* operator new(std::size_t n, std::align_val_t a) {
  return hc::allocate_or_throw(n, static_cast<std::size_t>(a), hc::form::plain);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return hc::allocate_or_throw(n, static_cast<std::size_t>(a), hc::form::array);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return hc::allocate(n, 0, hc::form::plain); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return hc::allocate(n, 0, hc::form::nothrow_array);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return hc::allocate(n, static_cast<std::size_t>(a), hc::form::plain);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return hc::allocate(n, static_cast<std::size_t>(a), hc::form::plain);
}
void operator delete(void* p) noexcept { hc::release(p); }
void operator delete[](void* p) noexcept { hc::release(p); }
void operator delete(void* p, std::size_t) noexcept { hc::release(p); }
void operator delete[](void* p, std::size_t) noexcept { hc::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { hc::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { hc::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { hc::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { hc::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { hc::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { hc::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { hc::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { hc::release(p); }
