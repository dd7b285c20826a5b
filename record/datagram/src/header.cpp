// SPDX-License-Identifier: Apache-2.0
// The datagram record header (docs/protocol.md 9.2) and sequence number
// reconstruction (9.4, RFC 9000 A.3).
#include "detail/header.hpp"

namespace sealwire::record::datagram::detail {

bool parse_record(std::span<const std::uint8_t> in, record_layout& out) noexcept {
  if (in.empty() || (in[0] & header_fixed_mask) != header_fixed_bits) return false;
  const bool with_length = (in[0] & header_bit_l) != 0;
  out.seq_bytes = (in[0] & header_bit_s) != 0 ? 4 : 2;
  out.header_len = 1 + out.seq_bytes + (with_length ? 2 : 0);
  if (in.size() < out.header_len) return false;
  const std::size_t rest = in.size() - out.header_len;
  if (with_length) {
    out.body_len = static_cast<std::size_t>(in[1 + out.seq_bytes]) << 8 | in[2 + out.seq_bytes];
    if (out.body_len > rest) return false;
  } else {
    out.body_len = rest;
  }
  return out.body_len >= sample_size;
}

std::size_t write_header(std::uint8_t* h, std::uint64_t epoch, std::uint64_t seq, unsigned seq_bits,
                         bool with_length, std::size_t body_len) noexcept {
  const std::size_t n = seq_bits / 8;
  h[0] = static_cast<std::uint8_t>(header_fixed_bits | (n == 4 ? header_bit_s : 0) | (with_length ? header_bit_l : 0) |
                                   (epoch & header_epoch_mask));
  for (std::size_t i = 0; i < n; ++i) h[1 + i] = static_cast<std::uint8_t>(seq >> (8 * (n - 1 - i)));
  if (!with_length) return 1 + n;
  h[1 + n] = static_cast<std::uint8_t>(body_len >> 8);
  h[2 + n] = static_cast<std::uint8_t>(body_len);
  return 3 + n;
}

// RFC 9000 A.3 (DecodePacketNumber), with `expected` the largest verified
// sequence number plus one. The candidate is moved by one window when the
// other side of `expected` is closer, unless that leaves the 2^62 range.
std::uint64_t reconstruct(std::uint64_t expected, std::uint64_t truncated, unsigned bits) noexcept {
  const std::uint64_t win = std::uint64_t{1} << bits;
  const std::uint64_t hwin = win / 2;
  const std::uint64_t candidate = (expected & ~(win - 1)) | truncated;
  if (candidate + hwin <= expected && candidate < (std::uint64_t{1} << 62) - win) return candidate + win;
  if (candidate > expected + hwin && candidate >= win) return candidate - win;
  return candidate;
}

}  // namespace sealwire::record::datagram::detail
