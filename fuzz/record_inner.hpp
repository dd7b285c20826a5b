// SPDX-License-Identifier: Apache-2.0
// The record fuzz target's inner-plaintext mode: the fuzzer's bytes read as
// a list of protected records (their inner plaintexts, content || inner
// type || padding, as the fuzzer wrote them), and what a receiver must do
// with them according to docs/protocol.md 3 and 6 (header limits, hidden
// inner types and padding, the content of each type, close reasons,
// empty-record runs, nothing after close), written from the specification
// as the target's oracle.
#pragma once

#include <sealwire/record/config.hpp>
#include <sealwire/record/error.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <system_error>
#include <vector>

namespace sealwire::fuzz {

// Inner types (docs/protocol.md 3.1); every record's outer type is 2.
inline constexpr std::uint8_t record_protected = 2;
inline constexpr std::uint8_t record_application_data = 2;
inline constexpr std::uint8_t record_key_update = 3;
inline constexpr std::uint8_t record_close = 4;

struct inner_record {
  std::span<const std::uint8_t> inner;  // content || inner type || padding, as the fuzzer wrote it
};

// inner_type is the last non-zero byte of an inner plaintext (0: none).
inline std::uint8_t inner_type(std::span<const std::uint8_t> inner) {
  std::size_t end = inner.size();
  while (end > 0 && inner[end - 1] == 0) --end;
  return end == 0 ? 0 : inner[end - 1];
}

// parse_inner_records reads `u16(len) inner[len]` entries (len clamped to
// what is left) until the input ends.
inline std::vector<inner_record> parse_inner_records(std::span<const std::uint8_t> in) {
  std::vector<inner_record> out;
  std::size_t pos = 0;
  while (in.size() - pos >= 2) {
    const std::size_t len = std::min((std::size_t{in[pos]} << 8) | in[pos + 1], in.size() - pos - 2);
    out.push_back({in.subspan(pos + 2, len)});
    pos += 2 + len;
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
    if (closed) return fail(record_errc::unexpected_record);  // 3.4: nothing follows a close
    // 3: 16 + 1 <= length <= max_record_size + 1 + 16, checked on the header.
    if (r.inner.empty()) return fail(record_errc::bad_record_mac);
    if (r.inner.size() > l.max_record_size + 1) return fail(record_errc::record_too_large);
    // 3.1: strip the zero padding; the last non-zero byte is the inner type.
    std::size_t end = r.inner.size();
    while (end > 0 && r.inner[end - 1] == 0) --end;
    if (end == 0) return fail(record_errc::unexpected_record);
    const std::uint8_t type = r.inner[end - 1];
    const auto content = r.inner.first(end - 1);
    // 3.2-3.4: each type's content; runs of records without application bytes.
    if (type == record_application_data) {
      if (content.empty()) {
        if (++empty_run > l.max_empty_records) return fail(record_errc::too_many_empty_records);
      } else {
        empty_run = 0;
        o.plaintext.insert(o.plaintext.end(), content.begin(), content.end());
      }
      continue;
    }
    if (type == record_key_update && content.empty()) {
      if (++empty_run > l.max_empty_records) return fail(record_errc::too_many_empty_records);
      continue;
    }
    if (type == record_close && content.size() == 1) {
      if (content[0] != 0) return fail(record_errc::peer_error_close);  // a reason other than normal
      closed = true;
      continue;
    }
    return fail(record_errc::unexpected_record);  // another type, or content the type does not allow
  }
  if (!closed) return fail(record_errc::truncated);  // 3.4: end of input without a close
  return o;
}

}  // namespace sealwire::fuzz
