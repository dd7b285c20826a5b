// SPDX-License-Identifier: Apache-2.0
// The key and nonce that protect a PrivateMessage's sender data (RFC 9420
// 6.3.2), derived from the epoch's sender_data_secret and a sample of the
// content ciphertext.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/record/group/cipher_suite.hpp>

#include <cstddef>

namespace sealwire::record::group {

// sender_data_keys is the key and nonce that protect a PrivateMessage's
// sender data (RFC 9420 6.3.2), derived from the ciphertext sample.
struct sender_data_keys {
  std::size_t key_size = 0;                     // AEAD.Nk
  crypto::secret_array<max_aead_key_size> key;  // sender_data_key
  crypto::secret_array<aead_nonce_size> nonce;  // sender_data_nonce
  // key_bytes views the key.
  [[nodiscard]] bytes_view key_bytes() const noexcept { return key.span().first(key_size); }
};

// derive_sender_data_keys computes sender_data_key and sender_data_nonce:
// ExpandWithLabel(sender_data_secret, "key"/"nonce", ciphertext_sample, Nk/Nn)
// with ciphertext_sample the first Nh bytes of ciphertext (all of it when
// shorter) (RFC 9420 6.3.2).
[[nodiscard]] SEALWIRE_API result<sender_data_keys> derive_sender_data_keys(const suite_algorithms& suite,
                                                                            bytes_view sender_data_secret,
                                                                            bytes_view ciphertext);

}  // namespace sealwire::record::group
