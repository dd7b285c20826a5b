// SPDX-License-Identifier: Apache-2.0
// sealwire's error model: std::error_code with sealwire's own categories, one
// small result<T> (a value or an error code) used by every component, and the
// error conditions that group the components' codes (authentication failure,
// bad key, limit reached) so a caller can test them across layers. Every API
// header includes it; start from box.hpp, hpke/single_shot.hpp or
// record/stream.hpp.
#pragma once

#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/export.hpp>

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
  unknown_algorithm,          // a name or identifier that names no algorithm sealwire has
  not_keyed,                  // a key object used before it was given a key
  invalid_signature,          // a signature that does not verify, or one not in the scheme's strict encoding
};

// crypto_category is the error category of crypto_errc values.
[[nodiscard]] SEALWIRE_API const std::error_category& crypto_category() noexcept;

// make_error_code makes crypto_errc values usable as std::error_code.
[[nodiscard]] inline std::error_code make_error_code(crypto_errc e) noexcept {
  return {static_cast<int>(e), crypto_category()};
}

// condition groups the codes of every component by what went wrong, as
// std::errc does for the system's codes. Compare an error_code with one:
//   if (r.error() == sealwire::condition::authentication_failed) ...
// is true for crypto_errc::authentication_failed, hpke_errc::open_failed and
// record_errc::bad_record_mac alike (docs/architecture.md lists every mapping).
enum class condition {
  authentication_failed = 1,  // a tag, MAC or Finished check failed: forged or corrupted input
  invalid_key,                // a key of the wrong length, of another algorithm, or rejected
  limit_reached,              // a length, counter or sequence-number limit was reached
};

// condition_category is the error category of condition values.
[[nodiscard]] SEALWIRE_API const std::error_category& condition_category() noexcept;

// make_error_condition makes condition values usable as std::error_condition.
[[nodiscard]] inline std::error_condition make_error_condition(condition c) noexcept {
  return {static_cast<int>(c), condition_category()};
}

// bad_result_access is thrown by result<T>::value() when the result holds an
// error; code() is that error. It is a std::system_error, so code written
// for std::expected-style or Asio-style exceptions catches it.
class SEALWIRE_API bad_result_access : public std::system_error {
 public:
  // An exception carrying ec, which code() returns.
  explicit bad_result_access(std::error_code ec);
};

namespace detail {
[[noreturn]] SEALWIRE_API void throw_bad_result_access(std::error_code ec);
}  // namespace detail

// result<T> holds either a T or a non-zero std::error_code, like
// std::expected<T, std::error_code>:
//   - value() returns the value, and throws bad_result_access (a
//     std::system_error carrying the code) when there is none; it is not
//     [[nodiscard]], so `f().value();` checks a result and throws on error;
//   - value_or(v) returns the value or v;
//   - error() returns the error (an empty error_code when a value is held);
//   - operator* and operator-> are the unchecked accessors of
//     std::expected, except that here reading an absent value is a contract
//     failure (SEALWIRE_EXPECTS: the program stops), never undefined
//     behaviour. Use them where the code has just tested has_value().
// sealwire's own functions never call value() on a result they cannot
// vouch for, so a library call never throws; only the caller's value() does.
template <class T>
class [[nodiscard]] result {
 public:
  // value_type is T, the type of the value held on success.
  using value_type = T;

  // A result holding a copy of v (implicit, so a function can return v).
  result(const T& v) : v_(std::in_place_index<0>, v) {}          // NOLINT(implicit)
  // A result holding v, moved in (implicit).
  result(T&& v) : v_(std::in_place_index<0>, std::move(v)) {}     // NOLINT(implicit)
  // A result holding the error ec (implicit); an empty ec is a contract failure.
  result(std::error_code ec) noexcept : v_(std::in_place_index<1>, ec) {  // NOLINT(implicit)
    SEALWIRE_EXPECTS(ec);
  }
  // A result holding the error code of an error enum value such as
  // crypto_errc (implicit, so a function can return crypto_errc::invalid_key).
  template <class E>
    requires std::is_error_code_enum_v<E>
  result(E e) noexcept : result(std::error_code(make_error_code(e))) {}  // NOLINT(implicit)

  // has_value reports whether a value is held.
  [[nodiscard]] bool has_value() const noexcept { return v_.index() == 0; }
  // A result converts to true when it holds a value.
  explicit operator bool() const noexcept { return has_value(); }

  // value returns the value; throws bad_result_access carrying the error when there is none.
  T& value() & { return *thrown(); }
  // value returns the value; throws bad_result_access carrying the error when there is none.
  const T& value() const& { return *thrown(); }
  // value moves the value out; throws bad_result_access carrying the error when there is none.
  T&& value() && { return std::move(*thrown()); }

  // value_or returns the value, or `fallback` converted to T when an error is held.
  template <class U>
  [[nodiscard]] T value_or(U&& fallback) const& {
    return has_value() ? *std::get_if<0>(&v_) : static_cast<T>(std::forward<U>(fallback));
  }
  // value_or moves the value out, or returns `fallback` converted to T when an error is held.
  template <class U>
  [[nodiscard]] T value_or(U&& fallback) && {
    return has_value() ? std::move(*std::get_if<0>(&v_)) : static_cast<T>(std::forward<U>(fallback));
  }

  // operator* reads the value; reading an absent one is a contract failure.
  T& operator*() & noexcept { return *checked(); }
  // operator* reads the value; reading an absent one is a contract failure.
  const T& operator*() const& noexcept { return *checked(); }
  // operator* moves the value out; reading an absent one is a contract failure.
  T&& operator*() && noexcept { return std::move(*checked()); }
  // operator-> reaches the value; an absent one is a contract failure.
  T* operator->() noexcept { return checked(); }
  // operator-> reaches the value; an absent one is a contract failure.
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
  T* thrown() {
    auto* p = std::get_if<0>(&v_);
    if (p == nullptr) detail::throw_bad_result_access(*std::get_if<1>(&v_));
    return p;
  }
  const T* thrown() const {
    const auto* p = std::get_if<0>(&v_);
    if (p == nullptr) detail::throw_bad_result_access(*std::get_if<1>(&v_));
    return p;
  }

  std::variant<T, std::error_code> v_;
};

// result<void> is success or an error code.
template <>
class [[nodiscard]] result<void> {
 public:
  // value_type is void: success holds no value.
  using value_type = void;

  // A default-constructed result<void> is success.
  result() noexcept = default;
  // A result holding ec (implicit); an empty ec means success.
  result(std::error_code ec) noexcept : ec_(ec) {}  // NOLINT(implicit)
  // A result holding the error code of an error enum value such as
  // crypto_errc (implicit).
  template <class E>
    requires std::is_error_code_enum_v<E>
  result(E e) noexcept : ec_(make_error_code(e)) {}  // NOLINT(implicit)

  // has_value reports success.
  [[nodiscard]] bool has_value() const noexcept { return !ec_; }
  // A result converts to true on success.
  explicit operator bool() const noexcept { return has_value(); }
  // value throws bad_result_access carrying the error, if there is one.
  void value() const {
    if (ec_) detail::throw_bad_result_access(ec_);
  }
  // error returns the error, or an empty error_code on success.
  [[nodiscard]] std::error_code error() const noexcept { return ec_; }

 private:
  std::error_code ec_;
};

}  // namespace sealwire

template <>
struct std::is_error_code_enum<sealwire::crypto_errc> : std::true_type {};
template <>
struct std::is_error_condition_enum<sealwire::condition> : std::true_type {};
