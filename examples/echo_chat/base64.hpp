// SPDX-License-Identifier: Apache-2.0
// Base64 (RFC 4648 4, with padding): how group mode writes MLS messages
// into the chat's text lines. Strict decoding: canonical padding only.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sealwire::chat {

inline constexpr std::string_view base64_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

[[nodiscard]] inline std::string base64_encode(std::span<const std::uint8_t> in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t{in[i]} << 16) | (std::uint32_t{in[i + 1]} << 8) | in[i + 2];
    for (int s = 18; s >= 0; s -= 6) out += base64_alphabet[(v >> s) & 63];
  }
  if (const std::size_t rest = in.size() - i; rest != 0) {
    const std::uint32_t v = (std::uint32_t{in[i]} << 16) | (rest == 2 ? std::uint32_t{in[i + 1]} << 8 : 0);
    out += base64_alphabet[(v >> 18) & 63];
    out += base64_alphabet[(v >> 12) & 63];
    out += rest == 2 ? base64_alphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// base64_decode returns nullopt for anything but canonical base64.
[[nodiscard]] inline std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view in) {
  if (in.size() % 4 != 0) return std::nullopt;
  std::vector<std::uint8_t> out;
  out.reserve(in.size() / 4 * 3);
  for (std::size_t i = 0; i < in.size(); i += 4) {
    std::uint32_t v = 0;
    int pad = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = in[i + k];
      std::uint32_t d = 0;
      if (c == '=') {
        if (i + 4 != in.size() || k < 2) return std::nullopt;
        ++pad;
      } else {
        const auto pos = base64_alphabet.find(c);
        if (pos == std::string_view::npos || pad != 0) return std::nullopt;
        d = static_cast<std::uint32_t>(pos);
      }
      v = (v << 6) | d;
    }
    out.push_back(static_cast<std::uint8_t>(v >> 16));
    if (pad < 2) out.push_back(static_cast<std::uint8_t>(v >> 8));
    if (pad < 1) out.push_back(static_cast<std::uint8_t>(v));
    // Canonical: the bits under the padding are zero.
    if ((pad == 1 && (v & 0xff) != 0) || (pad == 2 && (v & 0xffff) != 0)) return std::nullopt;
  }
  return out;
}

}  // namespace sealwire::chat
