// SPDX-License-Identifier: Apache-2.0
// Owning containers for key material: wiped on destruction and when moved from.
// The API's key types (box.hpp, hpke/keys.hpp) keep their bytes in these; use
// them for key material of your own.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/ct.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace sealwire::crypto {

// secret_array<N> holds N secret bytes inline. Copies are explicit (copy());
// moving copies the bytes and wipes the source; destruction wipes.
template <std::size_t N>
class secret_array {
 public:
  // size_bytes is N.
  static constexpr std::size_t size_bytes = N;

  secret_array() noexcept : data_{} {}
  // An array holding a copy of src.
  explicit secret_array(std::span<const std::uint8_t, N> src) noexcept { std::memcpy(data_.data(), src.data(), N); }
  ~secret_array() { ct::wipe(data_.data(), N); }

  // The move constructor copies other's bytes and wipes other.
  secret_array(secret_array&& other) noexcept {
    std::memcpy(data_.data(), other.data_.data(), N);
    ct::wipe(other.data_.data(), N);
  }
  // Move assignment copies other's bytes over this array's and wipes other.
  secret_array& operator=(secret_array&& other) noexcept {
    if (this != &other) {
      std::memcpy(data_.data(), other.data_.data(), N);
      ct::wipe(other.data_.data(), N);
    }
    return *this;
  }
  secret_array(const secret_array&) = delete;
  secret_array& operator=(const secret_array&) = delete;

  // copy duplicates the secret; the name makes copies visible in code review.
  [[nodiscard]] secret_array copy() const noexcept { return secret_array(span()); }

  // span views the bytes.
  [[nodiscard]] std::span<std::uint8_t, N> span() noexcept { return std::span<std::uint8_t, N>(data_); }
  // span views the bytes, read only.
  [[nodiscard]] std::span<const std::uint8_t, N> span() const noexcept {
    return std::span<const std::uint8_t, N>(data_);
  }
  // data points to the first byte.
  [[nodiscard]] std::uint8_t* data() noexcept { return data_.data(); }
  // data points to the first byte, read only.
  [[nodiscard]] const std::uint8_t* data() const noexcept { return data_.data(); }
  // size is N.
  [[nodiscard]] static constexpr std::size_t size() noexcept { return N; }

 private:
  std::array<std::uint8_t, N> data_;
};

// secret_bytes owns a heap buffer of secret bytes. Destruction, clear() and
// resize() wipe the old contents before the memory is released; a moved-from
// secret_bytes is empty.
class SEALWIRE_API secret_bytes {
 public:
  secret_bytes() noexcept = default;
  // Allocates n zero bytes. Allocation failure throws std::bad_alloc, as for
  // any standard container; it never involves attacker input.
  explicit secret_bytes(std::size_t n);
  // Allocates a copy of src; allocation failure throws std::bad_alloc.
  explicit secret_bytes(std::span<const std::uint8_t> src);
  ~secret_bytes() { clear(); }

  // The move constructor takes over other's buffer; other is left empty.
  secret_bytes(secret_bytes&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
  }
  // Move assignment wipes and frees this buffer, then takes over other's;
  // other is left empty.
  secret_bytes& operator=(secret_bytes&& other) noexcept;
  secret_bytes(const secret_bytes&) = delete;
  secret_bytes& operator=(const secret_bytes&) = delete;

  // copy duplicates the secret into a new buffer; the name makes copies
  // visible in code review.
  [[nodiscard]] secret_bytes copy() const { return secret_bytes(span()); }

  // clear wipes and frees the buffer.
  void clear() noexcept;
  // resize reallocates to n bytes, keeping the first min(n, size()) bytes and
  // zero-filling the rest; the old buffer is wiped before it is freed.
  void resize(std::size_t n);

  // span views the bytes.
  [[nodiscard]] std::span<std::uint8_t> span() noexcept { return {data_, size_}; }
  // span views the bytes, read only.
  [[nodiscard]] std::span<const std::uint8_t> span() const noexcept { return {data_, size_}; }
  // data points to the first byte (nullptr when empty).
  [[nodiscard]] std::uint8_t* data() noexcept { return data_; }
  // data points to the first byte, read only (nullptr when empty).
  [[nodiscard]] const std::uint8_t* data() const noexcept { return data_; }
  // size is the length in bytes.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  // empty reports a zero length.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace sealwire::crypto
