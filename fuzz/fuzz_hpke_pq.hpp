// SPDX-License-Identifier: Apache-2.0
// The post-quantum HPKE fuzz target's suites (draft-ietf-hpke-pq KEMs),
// shared with the seed generator.
#pragma once

#include "fuzz_hpke.hpp"

namespace sealwire::fuzz {

inline constexpr hpke::suite hpke_pq_suites[] = {
    {hpke::kem_id::xwing, hpke::kdf_id::hkdf_sha256, hpke::aead_id::chacha20_poly1305},
    {hpke::kem_id::ml_kem_768, hpke::kdf_id::hkdf_sha256, hpke::aead_id::aes128_gcm},
    {hpke::kem_id::ml_kem_512, hpke::kdf_id::hkdf_sha384, hpke::aead_id::aes256_gcm},
    {hpke::kem_id::ml_kem_1024, hpke::kdf_id::hkdf_sha512, hpke::aead_id::chacha20_poly1305},
    {hpke::kem_id::xwing, hpke::kdf_id::hkdf_sha512, hpke::aead_id::export_only},
};

}  // namespace sealwire::fuzz
