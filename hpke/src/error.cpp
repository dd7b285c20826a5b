// SPDX-License-Identifier: Apache-2.0
// The hpke_errc error category.
#include <sealwire/hpke/error.hpp>

#include <string>

namespace sealwire {
namespace {

class hpke_category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "sealwire.hpke"; }
  std::string message(int ev) const override {
    switch (static_cast<hpke_errc>(ev)) {
      case hpke_errc::unsupported_suite: return "unsupported HPKE suite";
      case hpke_errc::invalid_mode: return "invalid HPKE mode or mode inputs";
      case hpke_errc::invalid_psk_inputs: return "psk and psk_id must both be given or both be empty";
      case hpke_errc::invalid_public_key: return "invalid public key";
      case hpke_errc::invalid_private_key: return "invalid private key";
      case hpke_errc::invalid_encapsulation: return "invalid encapsulated key";
      case hpke_errc::zero_shared_secret: return "all-zero Diffie-Hellman result";
      case hpke_errc::derive_key_pair_failed: return "DeriveKeyPair failed";
      case hpke_errc::open_failed: return "decryption failed (authentication)";
      case hpke_errc::message_limit_reached: return "message limit reached";
      case hpke_errc::export_only: return "the export-only AEAD cannot seal or open";
      case hpke_errc::export_too_long: return "export length too large";
      case hpke_errc::invalid_length: return "invalid length";
      case hpke_errc::rng_failure: return "random number generator failure";
      case hpke_errc::kem_mismatch: return "the key belongs to another KEM than the suite's";
      case hpke_errc::auth_not_supported: return "the auth modes are not supported by this KEM (it has no AuthEncap)";
    }
    return "unknown sealwire.hpke error " + std::to_string(ev);
  }
  std::error_condition default_error_condition(int ev) const noexcept override {
    switch (static_cast<hpke_errc>(ev)) {
      case hpke_errc::open_failed: return condition::authentication_failed;
      case hpke_errc::invalid_public_key:
      case hpke_errc::invalid_private_key:
      case hpke_errc::invalid_encapsulation:
      case hpke_errc::kem_mismatch: return condition::invalid_key;
      case hpke_errc::message_limit_reached:
      case hpke_errc::export_too_long: return condition::limit_reached;
      default: return {ev, *this};
    }
  }
};

}  // namespace

const std::error_category& hpke_category() noexcept {
  static const hpke_category_impl cat;
  return cat;
}

}  // namespace sealwire
