// SPDX-License-Identifier: Apache-2.0
// Internal: the datagram record header (docs/protocol.md 9.2) and the
// reconstruction of full sequence numbers from truncated ones (9.4 step 4,
// RFC 9000 A.3, RFC 9147 4.2.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::record::datagram::detail {

// First byte: 0 0 1 0 S L E E.
inline constexpr std::uint8_t header_fixed_mask = 0xf0;
inline constexpr std::uint8_t header_fixed_bits = 0x20;
inline constexpr std::uint8_t header_bit_s = 0x08;  // 32-bit sequence number
inline constexpr std::uint8_t header_bit_l = 0x04;  // length present
inline constexpr std::uint8_t header_epoch_mask = 0x03;
inline constexpr std::size_t sample_size = 16;
// The sequence number space of one epoch (RFC 9147 4.5.2's 2^48).
inline constexpr std::uint64_t max_sequence = (std::uint64_t{1} << 48) - 1;

// record_layout is where a record's parts are, relative to its first byte.
struct record_layout {
  std::size_t seq_bytes = 2;   // 2 or 4
  std::size_t header_len = 3;  // 1 + seq_bytes (+ 2)
  std::size_t body_len = 0;    // ciphertext || tag, at least 16
};

// parse_record finds the record at the start of `in` (its first byte
// through the end of the datagram). False when malformed: wrong fixed bits,
// a header or body beyond the datagram, or a body shorter than a tag.
[[nodiscard]] bool parse_record(std::span<const std::uint8_t> in, record_layout& out) noexcept;

// write_header writes an unprotected header and returns its length.
std::size_t write_header(std::uint8_t* h, std::uint64_t epoch, std::uint64_t seq, unsigned seq_bits,
                         bool with_length, std::size_t body_len) noexcept;

// reconstruct returns the full sequence number nearest `expected` whose low
// `bits` bits are `truncated` (RFC 9000 A.3).
[[nodiscard]] std::uint64_t reconstruct(std::uint64_t expected, std::uint64_t truncated, unsigned bits) noexcept;

}  // namespace sealwire::record::datagram::detail
