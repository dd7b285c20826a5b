// SPDX-License-Identifier: Apache-2.0
// The psk_secret of RFC 9420 8.4: the pre-shared keys a commit or Welcome
// names, chained in order into one secret for the key schedule.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/record/group/cipher_suite.hpp>

#include <span>

namespace sealwire::record::group {

// psk_input is one pre-shared key: its PreSharedKeyID as the codec
// serializes it (psktype, the id or resumption fields, psk_nonce) and the
// key itself.
struct psk_input {
  bytes_view id;   // the serialized PreSharedKeyID
  bytes_view psk;  // the pre-shared key
};

// derive_psk_secret computes psk_secret (RFC 9420 8.4):
//   psk_extracted_[i] = KDF.Extract(0, psk_[i])
//   psk_input_[i]     = ExpandWithLabel(psk_extracted_[i], "derived psk", PSKLabel, KDF.Nh)
//   psk_secret_[0]    = 0
//   psk_secret_[i]    = KDF.Extract(psk_input_[i-1], psk_secret_[i-1])
// with PSKLabel {id, uint16 index, uint16 count}. No PSK gives Nh zero
// bytes. Errors: group_errc::invalid_argument (more than 65535 PSKs).
[[nodiscard]] SEALWIRE_API result<crypto::secret_bytes> derive_psk_secret(const suite_algorithms& suite,
                                                                          std::span<const psk_input> psks);

}  // namespace sealwire::record::group
