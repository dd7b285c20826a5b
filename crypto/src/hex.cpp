// SPDX-License-Identifier: Apache-2.0
// Constant-time hex encoding and decoding.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/hex.hpp>

namespace sealwire::crypto {
namespace {

char hex_digit(std::uint32_t nibble) noexcept {
  // For nibble > 9, (9 - nibble) wraps and its high bits select the jump from
  // '9'+1 to 'a'; no branch or table lookup on the value.
  const std::uint32_t above_nine = ((9u - nibble) >> 8) & 1u;
  return static_cast<char>('0' + nibble + ((0u - above_nine) & 39u));
}

// in_range returns all ones when lo <= x <= hi (all values below 2^31).
std::uint32_t in_range(std::uint32_t x, std::uint32_t lo, std::uint32_t hi) noexcept {
  const std::uint32_t outside = ((x - lo) | (hi - x)) >> 31;
  return (outside ^ 1u) * 0xffffffffu;
}

// nibble_value returns the value of hex digit c and sets *bad on a non-digit.
std::uint32_t nibble_value(char ch, std::uint32_t* bad) noexcept {
  const auto c = static_cast<std::uint32_t>(static_cast<unsigned char>(ch));
  const std::uint32_t digit = in_range(c, '0', '9');
  const std::uint32_t lower = in_range(c, 'a', 'f');
  const std::uint32_t upper = in_range(c, 'A', 'F');
  *bad |= ~(digit | lower | upper);
  return (digit & (c - '0')) | (lower & (c - 'a' + 10)) | (upper & (c - 'A' + 10));
}

}  // namespace

std::size_t hex_encode(std::span<char> out, std::span<const std::uint8_t> in) noexcept {
  SEALWIRE_EXPECTS(out.size() / 2 >= in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[2 * i] = hex_digit(in[i] >> 4u);
    out[2 * i + 1] = hex_digit(in[i] & 15u);
  }
  return 2 * in.size();
}

std::string to_hex(std::span<const std::uint8_t> in) {
  std::string s(2 * in.size(), '\0');
  hex_encode(s, in);
  return s;
}

result<std::size_t> hex_decode(std::span<std::uint8_t> out, std::string_view hex) noexcept {
  if (hex.size() % 2 != 0) return crypto_errc::invalid_encoding;
  const std::size_t n = hex.size() / 2;
  if (out.size() < n) return crypto_errc::buffer_too_small;
  std::uint32_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t hi = nibble_value(hex[2 * i], &bad);
    const std::uint32_t lo = nibble_value(hex[2 * i + 1], &bad);
    out[i] = static_cast<std::uint8_t>((hi << 4) | lo);
  }
  if (bad != 0) {
    ct::wipe(out.first(n));
    return crypto_errc::invalid_encoding;
  }
  return n;
}

result<std::vector<std::uint8_t>> from_hex(std::string_view hex) {
  std::vector<std::uint8_t> v(hex.size() / 2);
  auto r = hex_decode(v, hex);
  if (!r) return r.error();
  return v;
}

}  // namespace sealwire::crypto
