// SPDX-License-Identifier: Apache-2.0
// The crypto_errc error category, the condition category that groups every
// component's codes, and result<T>'s exception.
#include <sealwire/crypto/result.hpp>

#include <string>

namespace sealwire {
namespace {

class crypto_category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "sealwire.crypto"; }
  std::string message(int ev) const override {
    switch (static_cast<crypto_errc>(ev)) {
      case crypto_errc::authentication_failed: return "authentication failed";
      case crypto_errc::buffer_too_small: return "output buffer too small";
      case crypto_errc::invalid_argument: return "invalid argument";
      case crypto_errc::invalid_key: return "invalid key";
      case crypto_errc::invalid_nonce: return "invalid nonce";
      case crypto_errc::invalid_public_key: return "invalid public key";
      case crypto_errc::zero_shared_secret: return "all-zero shared secret (low-order public key)";
      case crypto_errc::message_too_long: return "message too long";
      case crypto_errc::counter_exhausted: return "block counter exhausted";
      case crypto_errc::rng_failure: return "random number generator failure";
      case crypto_errc::invalid_encoding: return "invalid encoding";
      case crypto_errc::output_too_long: return "requested output too long";
      case crypto_errc::unknown_algorithm: return "unknown algorithm name or identifier";
      case crypto_errc::not_keyed: return "key object used before it was given a key";
      case crypto_errc::invalid_signature: return "invalid signature";
    }
    return "unknown sealwire.crypto error " + std::to_string(ev);
  }
  std::error_condition default_error_condition(int ev) const noexcept override {
    switch (static_cast<crypto_errc>(ev)) {
      case crypto_errc::authentication_failed:
      case crypto_errc::invalid_signature: return condition::authentication_failed;
      case crypto_errc::invalid_key:
      case crypto_errc::invalid_public_key: return condition::invalid_key;
      case crypto_errc::message_too_long:
      case crypto_errc::counter_exhausted:
      case crypto_errc::output_too_long: return condition::limit_reached;
      default: return {ev, *this};
    }
  }
};

class condition_category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "sealwire"; }
  std::string message(int ev) const override {
    switch (static_cast<condition>(ev)) {
      case condition::authentication_failed: return "authentication failed";
      case condition::invalid_key: return "invalid key";
      case condition::limit_reached: return "limit reached";
    }
    return "unknown sealwire condition " + std::to_string(ev);
  }
};

}  // namespace

const std::error_category& crypto_category() noexcept {
  static const crypto_category_impl cat;
  return cat;
}

const std::error_category& condition_category() noexcept {
  static const condition_category_impl cat;
  return cat;
}

bad_result_access::bad_result_access(std::error_code ec) : std::system_error(ec, "sealwire: result holds an error") {}

namespace detail {
void throw_bad_result_access(std::error_code ec) { throw bad_result_access(ec); }
}  // namespace detail

}  // namespace sealwire
