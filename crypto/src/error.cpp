// SPDX-License-Identifier: Apache-2.0
// The crypto_errc error category.
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
    }
    return "unknown sealwire.crypto error " + std::to_string(ev);
  }
};

}  // namespace

const std::error_category& crypto_category() noexcept {
  static const crypto_category_impl cat;
  return cat;
}

}  // namespace sealwire
