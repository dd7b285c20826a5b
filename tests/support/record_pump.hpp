// SPDX-License-Identifier: Apache-2.0
// Moving bytes between sans-IO record connections with chosen fragmentation:
// shared by the record tests and the fuzz targets (no GoogleTest here).
#pragma once

#include <sealwire/record/connection.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <system_error>
#include <vector>

namespace sealwire::record::test {

using pump_bytes = std::vector<std::uint8_t>;

// splitter decides how many bytes of the remaining `left` to deliver next.
using splitter = std::function<std::size_t(std::size_t left)>;

inline splitter whole() {
  return [](std::size_t left) { return left; };
}
inline splitter bytewise() {
  return [](std::size_t) { return std::size_t{1}; };
}

// deliver feeds `data` to c in pieces chosen by split, reading plaintext
// whenever the connection stops taking input. Returns the first error.
inline std::error_code deliver(connection& c, bytes_view data, const splitter& split, pump_bytes* plaintext) {
  std::size_t pos = 0;
  while (pos < data.size()) {
    const std::size_t n = std::min(split(data.size() - pos), data.size() - pos);
    std::size_t off = 0;
    while (off < n) {
      auto r = c.receive(data.subspan(pos + off, n - off));
      // Records verified before a failure stay readable.
      if (plaintext != nullptr) {
        const auto v = c.peek();
        plaintext->insert(plaintext->end(), v.begin(), v.end());
        c.discard(v.size());
      }
      if (!r) return r.error();
      off += *r;
      // Nothing taken and nothing read out: the caller's plaintext buffer is
      // full and it does not read (or the connection is stuck); stop.
      if (*r == 0 && (plaintext == nullptr || c.readable() == 0)) return make_error_code(record_errc::bad_state);
    }
    pos += n;
  }
  return {};
}

// take_pending moves everything c has to send into a byte vector.
inline pump_bytes take_pending(connection& c) {
  const auto p = c.pending();
  pump_bytes out(p.begin(), p.end());
  c.consume(p.size());
  return out;
}

// handshake runs both sides until they complete (or one fails).
inline std::error_code run_handshake(connection& client, connection& server, const splitter& split = whole()) {
  for (int round = 0; round < 8; ++round) {
    if (auto e = deliver(server, take_pending(client), split, nullptr)) return e;
    if (auto e = deliver(client, take_pending(server), split, nullptr)) return e;
    if (client.handshake_complete() && server.handshake_complete() && client.pending().empty() &&
        server.pending().empty())
      return {};
  }
  return make_error_code(record_errc::handshake_failed);
}

}  // namespace sealwire::record::test
