// SPDX-License-Identifier: Apache-2.0
// The record fuzz target's inner-plaintext mode: the fuzzer's bytes read as
// a list of protected records (type and inner plaintext), and what a
// receiver must do with them according to docs/protocol.md 3 and 5 (header
// limits, marker and padding, the content of each type, empty-record runs,
// nothing after close), written from the specification as the target's
// oracle.
#pragma once

#include <sealwire/record/config.hpp>
#include <sealwire/record/error.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <system_error>
#include <vector>

namespace sealwire::fuzz {

inline constexpr std::uint8_t record_application_data = 2;
inline constexpr std::uint8_t record_key_update = 3;
inline constexpr std::uint8_t record_close = 4;

struct inner_record {
  std::uint8_t type;                    // 2, 3 or 4
  std::span<const std::uint8_t> inner;  // content || marker || padding, as the fuzzer wrote it
};

// parse_inner_records reads `t u16(len) inner[len]` entries (type 2 + t % 3,
// len clamped to what is left) until the input ends.
inline std::vector<inner_record> parse_inner_records(std::span<const std::uint8_t> in) {
  std::vector<inner_record> out;
  std::size_t pos = 0;
  while (in.size() - pos >= 3) {
    const auto type = static_cast<std::uint8_t>(record_application_data + in[pos] % 3);
    const std::size_t len = std::min((std::size_t{in[pos + 1]} << 8) | in[pos + 2], in.size() - pos - 3);
    out.push_back({type, in.subspan(pos + 3, len)});
    pos += 3 + len;
  }
  return out;
}

// expected_receive is what a receiver with these limits delivers from the
// records, in order, followed by the end of input: the application bytes
// released and the error the connection ends in (none after a close).
struct receive_outcome {
  std::vector<std::uint8_t> plaintext;
  std::error_code error;
};

inline receive_outcome expected_receive(const std::vector<inner_record>& records, const record::limits& l) {
  using sealwire::record_errc;
  receive_outcome o;
  unsigned empty_run = 0;
  bool closed = false;
  const auto fail = [&](record_errc e) {
    o.error = make_error_code(e);
    return o;
  };
  for (const inner_record& r : records) {
    if (closed) return fail(record_errc::unexpected_record);  // 3.2: nothing follows a close
    // 3: 16 + 1 <= length <= max_record_size + 1 + 16, checked on the header.
    if (r.inner.empty()) return fail(record_errc::bad_record_mac);
    if (r.inner.size() > l.max_record_size + 1) return fail(record_errc::record_too_large);
    // 3.1: strip the zero padding, then the 0x01 marker.
    std::size_t end = r.inner.size();
    while (end > 0 && r.inner[end - 1] == 0) --end;
    if (end == 0 || r.inner[end - 1] != 1) return fail(record_errc::unexpected_record);
    const auto content = r.inner.first(end - 1);
    // 3.2: each type's content; runs of records without application bytes.
    if (r.type == record_application_data) {
      if (content.empty()) {
        if (++empty_run > l.max_empty_records) return fail(record_errc::too_many_empty_records);
      } else {
        empty_run = 0;
        o.plaintext.insert(o.plaintext.end(), content.begin(), content.end());
      }
      continue;
    }
    if (!content.empty()) return fail(record_errc::unexpected_record);
    if (r.type == record_key_update) {
      if (++empty_run > l.max_empty_records) return fail(record_errc::too_many_empty_records);
    } else {
      closed = true;
    }
  }
  if (!closed) return fail(record_errc::truncated);  // 3.2: end of input without a close
  return o;
}

}  // namespace sealwire::fuzz
