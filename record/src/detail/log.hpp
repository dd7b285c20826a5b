// SPDX-License-Identifier: Apache-2.0
// Internal: the record layer's messages to sealwire's logging hook
// (crypto/log.hpp), built only when their level is enabled. Never pass key
// material or plaintext here.
#pragma once

#include <sealwire/crypto/log.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace sealwire::record::detail {

// hex16 shows a 16-bit id as 0x%04x.
struct hex16 {
  unsigned value;
};

inline void append(std::string& s, std::string_view v) { s += v; }
inline void append(std::string& s, const char* v) { s += v; }
inline void append(std::string& s, hex16 v) {
  static constexpr char digits[] = "0123456789abcdef";
  s += "0x";
  for (int shift = 12; shift >= 0; shift -= 4) s += digits[(v.value >> shift) & 15];
}
template <class Int>
  requires std::is_integral_v<Int>
inline void append(std::string& s, Int v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}

// log writes the concatenation of parts at `level` under "record".
template <class... Parts>
void log(log_level level, const Parts&... parts) noexcept {
  if (!log_enabled(level)) return;
  try {
    std::string s;
    (append(s, parts), ...);
    log_message(level, "record", s);
  } catch (...) {
    // An allocation failure loses the message, never the operation.
  }
}

}  // namespace sealwire::record::detail
