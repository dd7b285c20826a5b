// SPDX-License-Identifier: Apache-2.0
// DER encoding of ECDSA signatures (X.690 8.3 INTEGER, 10.1 definite
// lengths in their shortest form), strict in both directions.
#include "detail/ecdsa_der.hpp"

#include <cstring>

namespace sealwire::crypto::detail {
namespace {

// integer_length: the content length of INTEGER v (width bytes, unsigned):
// leading zero bytes dropped, at least one byte, and a 0x00 sign byte when
// the first remaining byte has its top bit set (X.690 8.3.2).
std::size_t integer_length(const std::uint8_t* v, std::size_t width, std::size_t& skip) noexcept {
  skip = 0;
  while (skip + 1 < width && v[skip] == 0) ++skip;
  return width - skip + ((v[skip] & 0x80) != 0 ? 1 : 0);
}

std::uint8_t* put_integer(std::uint8_t* out, const std::uint8_t* v, std::size_t width) noexcept {
  std::size_t skip = 0;
  const std::size_t len = integer_length(v, width, skip);
  *out++ = 0x02;
  *out++ = static_cast<std::uint8_t>(len);
  if (len > width - skip) *out++ = 0x00;
  std::memcpy(out, v + skip, width - skip);
  return out + (width - skip);
}

// get_integer reads one INTEGER at der[pos] into width bytes (left-padded)
// and advances pos. Its length is below 128 for any accepted width, so the
// long length form is never minimal and is refused.
bool get_integer(std::uint8_t* v, std::span<const std::uint8_t> der, std::size_t& pos, std::size_t width) noexcept {
  if (der.size() - pos < 2 || der[pos] != 0x02) return false;
  const std::size_t len = der[pos + 1];
  pos += 2;
  if (len == 0 || len >= 0x80 || der.size() - pos < len) return false;
  const std::uint8_t* c = der.data() + pos;
  if ((c[0] & 0x80) != 0) return false;                           // negative
  if (len > 1 && c[0] == 0 && (c[1] & 0x80) == 0) return false;  // a redundant leading zero
  std::size_t skip = c[0] == 0 && len > 1 ? 1 : 0;
  const std::size_t digits = len - skip;
  if (digits > width) return false;
  std::memset(v, 0, width - digits);
  std::memcpy(v + width - digits, c + skip, digits);
  pos += len;
  return true;
}

}  // namespace

std::size_t der_encode_signature(std::uint8_t* out, const std::uint8_t* r, const std::uint8_t* s,
                                 std::size_t width) noexcept {
  std::size_t skip = 0;
  const std::size_t body = 2 + integer_length(r, width, skip) + 2 + integer_length(s, width, skip);
  std::uint8_t* p = out;
  *p++ = 0x30;
  if (body >= 0x80) *p++ = 0x81;  // body < 256 for width <= 66
  *p++ = static_cast<std::uint8_t>(body);
  p = put_integer(p, r, width);
  p = put_integer(p, s, width);
  return static_cast<std::size_t>(p - out);
}

bool der_decode_signature(std::uint8_t* r, std::uint8_t* s, std::span<const std::uint8_t> der,
                          std::size_t width) noexcept {
  if (der.size() < 2 || der[0] != 0x30) return false;
  std::size_t pos = 2;
  std::size_t body = der[1];
  if (body == 0x81) {
    // One length byte: only for bodies of 128 bytes or more (else the
    // short form is the DER one).
    if (der.size() < 3 || der[2] < 0x80) return false;
    body = der[2];
    pos = 3;
  } else if (body >= 0x80) {
    return false;  // indefinite (0x80) or longer length forms than any signature needs
  }
  if (der.size() - pos != body) return false;  // the SEQUENCE is the whole input
  if (!get_integer(r, der, pos, width) || !get_integer(s, der, pos, width)) return false;
  return pos == der.size();
}

}  // namespace sealwire::crypto::detail
