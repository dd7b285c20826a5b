// SPDX-License-Identifier: Apache-2.0
// Errors reported by sealwire's HPKE (RFC 9180). The HPKE API is in
// single_shot.hpp (start there) and context.hpp; result.hpp's conditions
// test these errors together with the other layers'.
#pragma once

#include <sealwire/crypto/result.hpp>

#include <system_error>

namespace sealwire {

// hpke_errc lists HPKE failures.
enum class hpke_errc {
  unsupported_suite = 1,     // a KEM, KDF or AEAD id that is not built in
  invalid_mode,              // unknown mode, or keys inconsistent with the mode
  invalid_psk_inputs,        // psk and psk_id not both present or both absent (RFC 9180 5.1)
  invalid_public_key,        // wrong length, or rejected by the KEM
  invalid_private_key,       // wrong length, or rejected by the KEM
  invalid_encapsulation,     // enc of the wrong length or not a valid public key
  zero_shared_secret,        // a DH result was all zero (RFC 9180 7.1.4)
  derive_key_pair_failed,    // DeriveKeyPair found no valid scalar (RFC 9180 7.1.3)
  open_failed,               // authentication failed; no plaintext released
  message_limit_reached,     // sequence number exhausted (RFC 9180 5.2)
  export_only,               // seal/open asked of the export-only AEAD
  export_too_long,           // Export length beyond the KDF's limit
  invalid_length,            // an input or output length outside the allowed range
  rng_failure,               // the random source failed during key generation
  kem_mismatch,              // a key of another KEM than the suite's
  auth_not_supported,        // an auth mode with a KEM that has no AuthEncap (ML-KEM, X-Wing)
};

// hpke_category is the error category of hpke_errc values.
[[nodiscard]] SEALWIRE_API const std::error_category& hpke_category() noexcept;

// make_error_code makes hpke_errc values usable as std::error_code.
[[nodiscard]] inline std::error_code make_error_code(hpke_errc e) noexcept {
  return {static_cast<int>(e), hpke_category()};
}

}  // namespace sealwire

template <>
struct std::is_error_code_enum<sealwire::hpke_errc> : std::true_type {};
