// SPDX-License-Identifier: Apache-2.0
// heap_count: the demo's count of the heap the server holds (issue 22 item
// 8). heap_count.cpp replaces the global operator new/delete of the
// sealwire-demo executable (only there): every block carries a small header
// naming the side that allocated it, so a block freed on another thread is
// taken off the right count. The demo runs its clients on the main thread
// (mark_client_thread) and the server on its own pool: every allocation on
// another thread is the server's. Sizes are what malloc reserved
// (malloc_usable_size), the header included.
//
// Server blocks are sorted by how they were allocated into the record
// layer's buffers (the stream's input buffer: new[]; the connection's send
// and plaintext buffers: nothrow new[], told apart by the plaintext
// buffer's size) and the rest (shared lines, queue nodes,
// posted handlers, Asio's own state: plain new).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::chat::heap_count {

enum kind : unsigned { input_buffer, send_buffer, plaintext_buffer, other, kinds };

struct snapshot {
  std::int64_t server = 0;               // live server bytes, every kind
  std::int64_t by_kind[kinds] = {};      // live server bytes per kind
  std::int64_t blocks[kinds] = {};       // live server blocks per kind
  std::int64_t client = 0;               // live bytes of the main thread (the clients)
};

// mark_client_thread: allocations on the calling thread count as the clients'.
void mark_client_thread() noexcept;
// classify: a nothrow new[] block of this size is a plaintext buffer (the
// others are send buffers). Call before the server starts.
void classify(std::size_t plaintext) noexcept;
// now reads the counters (each exact; together as of one moment only
// roughly, as the server keeps allocating).
[[nodiscard]] snapshot now() noexcept;
// peak_server is the highest live server total, tracked at every allocation.
[[nodiscard]] std::int64_t peak_server() noexcept;

}  // namespace sealwire::chat::heap_count
