// SPDX-License-Identifier: Apache-2.0
// ML-KEM ByteEncode/ByteDecode and Compress/Decompress (FIPS 203 4.2.1):
// the portable kernels and the encode.hpp entry points, which dispatch to
// the kernel table of the CPU level (kernels.hpp).
#include "encode.hpp"

#include "kernels.hpp"

#include <sealwire/crypto/ct.hpp>

namespace sealwire::crypto::mlkem {

void encode12_portable(std::uint8_t* out, const std::int16_t* a) noexcept {
  for (unsigned i = 0; i < n / 2; ++i) {
    const auto x = static_cast<std::uint16_t>(to_unsigned(a[2 * i]));
    const auto y = static_cast<std::uint16_t>(to_unsigned(a[2 * i + 1]));
    out[3 * i] = static_cast<std::uint8_t>(x);
    out[3 * i + 1] = static_cast<std::uint8_t>((x >> 8) | (y << 4));
    out[3 * i + 2] = static_cast<std::uint8_t>(y >> 4);
  }
}

namespace {

inline void decode12_pair(std::uint16_t& x, std::uint16_t& y, const std::uint8_t* in) noexcept {
  x = static_cast<std::uint16_t>(in[0] | ((in[1] & 0x0f) << 8));
  y = static_cast<std::uint16_t>((in[1] >> 4) | (in[2] << 4));
}

}  // namespace

bool decode12_checked_portable(std::int16_t* a, const std::uint8_t* in) noexcept {
  std::uint16_t bad = 0;
  for (unsigned i = 0; i < n / 2; ++i) {
    std::uint16_t x, y;
    decode12_pair(x, y, in + 3 * i);
    // (q - 1 - x) >> 15 is 1 exactly when x >= q.
    bad |= static_cast<std::uint16_t>((static_cast<std::uint16_t>(q - 1 - x) >> 15) |
                                      (static_cast<std::uint16_t>(q - 1 - y) >> 15));
    a[2 * i] = static_cast<std::int16_t>(x);
    a[2 * i + 1] = static_cast<std::int16_t>(y);
  }
  return bad == 0;
}

namespace {

// reduce_once maps x in [0, 2^12) to x mod q with a mask (x < 2q).
inline std::int16_t reduce_once(std::uint16_t x) noexcept {
  const auto t = static_cast<std::int16_t>(x - q);
  return static_cast<std::int16_t>(t + ((t >> 15) & q));
}

}  // namespace

void decode12_reduce_portable(std::int16_t* a, const std::uint8_t* in) noexcept {
  for (unsigned i = 0; i < n / 2; ++i) {
    std::uint16_t x, y;
    decode12_pair(x, y, in + 3 * i);
    a[2 * i] = reduce_once(x);
    a[2 * i + 1] = reduce_once(y);
  }
}

void compress_encode_portable(std::uint8_t* out, const std::int16_t* a, unsigned d) noexcept {
  // A little-endian bit stream (Algorithm 5): coefficients go in at the top
  // of the buffer, whole bytes leave at the bottom.
  std::uint32_t acc = 0;
  unsigned bits = 0;
  for (unsigned i = 0; i < n; ++i) {
    acc |= compress(static_cast<std::uint32_t>(to_unsigned(a[i])), d) << bits;
    bits += d;
    for (; bits >= 8; bits -= 8, acc >>= 8) *out++ = static_cast<std::uint8_t>(acc);
  }
}

void decode_decompress_portable(std::int16_t* a, const std::uint8_t* in, unsigned d) noexcept {
  const std::uint32_t mask = (1u << d) - 1;
  std::uint32_t acc = 0;
  unsigned bits = 0;
  for (unsigned i = 0; i < n; ++i) {
    for (; bits < d; bits += 8) acc |= std::uint32_t{*in++} << bits;
    a[i] = decompress(acc & mask, d);
    acc >>= d;
    bits -= d;
  }
}

void from_message_portable(std::int16_t* a, const std::uint8_t* m) noexcept {
  for (unsigned i = 0; i < 32; ++i) {
    for (unsigned j = 0; j < 8; ++j) {
      // Decompress_1(bit) = bit * (q + 1) / 2, selected with a mask.
      const auto mask = static_cast<std::int16_t>(-static_cast<std::int16_t>((m[i] >> j) & 1));
      a[8 * i + j] = static_cast<std::int16_t>(mask & ((q + 1) / 2));
    }
  }
}

void to_message_portable(std::uint8_t* m, const std::int16_t* a) noexcept {
  for (unsigned i = 0; i < 32; ++i) {
    std::uint8_t byte = 0;
    for (unsigned j = 0; j < 8; ++j)
      byte = static_cast<std::uint8_t>(byte | (compress(static_cast<std::uint32_t>(to_unsigned(a[8 * i + j])), 1) << j));
    m[i] = byte;
  }
}

void encode12(std::uint8_t* out, const poly& a) noexcept { kernels_now().encode12(out, a.c); }

bool decode12_checked(poly& a, const std::uint8_t* in) noexcept { return kernels_now().decode12_checked(a.c, in); }

void decode12_reduce(poly& a, const std::uint8_t* in) noexcept { kernels_now().decode12_reduce(a.c, in); }

void decode_decompress(poly& a, const std::uint8_t* in, unsigned d) noexcept {
  kernels_now().decode_decompress(a.c, in, d);
}

void poly_from_message(poly& a, const std::uint8_t m[32]) noexcept { kernels_now().from_message(a.c, m); }

void compress_encode(std::uint8_t* out, const poly& a, unsigned d) noexcept {
  kernels_now().compress_encode(out, a.c, d);
}

void poly_to_message(std::uint8_t m[32], const poly& a) noexcept { kernels_now().to_message(m, a.c); }

}  // namespace sealwire::crypto::mlkem
