// SPDX-License-Identifier: Apache-2.0
// sealwire's error model: std::error_code with sealwire's own categories, and
// one small result<T> (a value or an error code) used by every component.
#pragma once

#include <sealwire/crypto/contract.hpp>

#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>

namespace sealwire {

// crypto_errc lists the failures the primitives report. Authentication
// failures and malformed input are ordinary results, never exceptions.
enum class crypto_errc {
  authentication_failed = 1,  // tag mismatch; no plaintext was released
  buffer_too_small,           // output buffer shorter than required; state unchanged
  invalid_argument,           // a length or parameter outside what the primitive accepts
  invalid_key,                // wrong key length, or a key the primitive rejects
  invalid_nonce,              // wrong nonce length
  invalid_public_key,         // a public key of the wrong length or not on the curve
  zero_shared_secret,         // key agreement produced the all-zero value (low-order point)
  message_too_long,           // over the primitive's length limit
  counter_exhausted,          // the block counter would wrap
  rng_failure,                // the operating system's random source failed
  invalid_encoding,           // malformed hex or other encoded input
  output_too_long,            // a requested output beyond the primitive's limit (HKDF: 255 * HashLen)
};

// crypto_category is the error category of crypto_errc values.
[[nodiscard]] const std::error_category& crypto_category() noexcept;

[[nodiscard]] inline std::error_code make_error_code(crypto_errc e) noexcept {
  return {static_cast<int>(e), crypto_category()};
}

// result<T> holds either a T or a non-zero std::error_code. Reading the value
// of an error result is a contract failure, not undefined behaviour.
template <class T>
class [[nodiscard]] result {
 public:
  using value_type = T;

  result(const T& v) : v_(std::in_place_index<0>, v) {}          // NOLINT(implicit)
  result(T&& v) : v_(std::in_place_index<0>, std::move(v)) {}     // NOLINT(implicit)
  result(std::error_code ec) noexcept : v_(std::in_place_index<1>, ec) {  // NOLINT(implicit)
    SEALWIRE_EXPECTS(ec);
  }
  template <class E>
    requires std::is_error_code_enum_v<E>
  result(E e) noexcept : result(std::error_code(make_error_code(e))) {}  // NOLINT(implicit)

  [[nodiscard]] bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  [[nodiscard]] T& value() & noexcept { return *checked(); }
  [[nodiscard]] const T& value() const& noexcept { return *checked(); }
  [[nodiscard]] T&& value() && noexcept { return std::move(*checked()); }
  T& operator*() & noexcept { return *checked(); }
  const T& operator*() const& noexcept { return *checked(); }
  T&& operator*() && noexcept { return std::move(*checked()); }
  T* operator->() noexcept { return checked(); }
  const T* operator->() const noexcept { return checked(); }

  // error returns the error, or an empty error_code when a value is held.
  [[nodiscard]] std::error_code error() const noexcept {
    const auto* ec = std::get_if<1>(&v_);
    return ec ? *ec : std::error_code{};
  }

 private:
  T* checked() noexcept {
    auto* p = std::get_if<0>(&v_);
    SEALWIRE_EXPECTS(p != nullptr);
    return p;
  }
  const T* checked() const noexcept {
    const auto* p = std::get_if<0>(&v_);
    SEALWIRE_EXPECTS(p != nullptr);
    return p;
  }

  std::variant<T, std::error_code> v_;
};

// result<void> is success or an error code.
template <>
class [[nodiscard]] result<void> {
 public:
  result() noexcept = default;
  result(std::error_code ec) noexcept : ec_(ec) {}  // NOLINT(implicit)
  template <class E>
    requires std::is_error_code_enum_v<E>
  result(E e) noexcept : ec_(make_error_code(e)) {}  // NOLINT(implicit)

  [[nodiscard]] bool has_value() const noexcept { return !ec_; }
  explicit operator bool() const noexcept { return has_value(); }
  void value() const noexcept { SEALWIRE_EXPECTS(!ec_); }
  [[nodiscard]] std::error_code error() const noexcept { return ec_; }

 private:
  std::error_code ec_;
};

}  // namespace sealwire

template <>
struct std::is_error_code_enum<sealwire::crypto_errc> : std::true_type {};
