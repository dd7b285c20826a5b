// SPDX-License-Identifier: Apache-2.0
// Byte views shared by every component: bytes_view for data, and
// associated_data, a distinct type for what an AEAD authenticates but does
// not encrypt, so that swapping plaintext and associated data does not compile.
// The API headers include it; start from box.hpp, hpke/single_shot.hpp or
// record/stream.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire {

// bytes_view is a read-only view of bytes.
using bytes_view = std::span<const std::uint8_t>;

// bytes_of views the bytes of a string (no terminating zero).
[[nodiscard]] inline bytes_view bytes_of(std::string_view text) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// associated_data wraps the bytes an AEAD authenticates without encrypting
// (a header, a context label). Every sealing and opening function takes the
// plaintext or ciphertext first and the associated data after, as this
// type: construct it explicitly, associated_data(header) or
// associated_data("label"), or pass {} for none. A bytes_view does not
// convert to it implicitly, so the two cannot be swapped by accident.
class associated_data {
 public:
  // The empty associated data.
  constexpr associated_data() noexcept = default;
  // Views `data` (the caller keeps it alive for the call).
  constexpr explicit associated_data(bytes_view data) noexcept : bytes_(data) {}
  // Views the bytes of `text` (no terminating zero).
  explicit associated_data(std::string_view text) noexcept : bytes_(bytes_of(text)) {}

  // bytes is the viewed data.
  [[nodiscard]] constexpr bytes_view bytes() const noexcept { return bytes_; }
  // size is its length in bytes.
  [[nodiscard]] constexpr std::size_t size() const noexcept { return bytes_.size(); }
  // empty reports a zero length.
  [[nodiscard]] constexpr bool empty() const noexcept { return bytes_.empty(); }

 private:
  bytes_view bytes_;
};

}  // namespace sealwire
