// SPDX-License-Identifier: Apache-2.0
// A new member's side of a Welcome (RFC 9420 12.4.3.1): find its
// EncryptedGroupSecrets by KeyPackageRef, decrypt the GroupSecrets with its
// init key, decrypt the GroupInfo with the welcome key and verify the
// GroupInfo's signature. Validating the tree and the group state is the
// caller's (group management is not part of the framing).
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/record/group/cipher_suite.hpp>
#include <sealwire/record/group/group_info.hpp>
#include <sealwire/record/group/key_package.hpp>
#include <sealwire/record/group/welcome.hpp>

namespace sealwire::record::group {

// key_package_ref is MakeKeyPackageRef = RefHash("MLS 1.0 KeyPackage
// Reference", KeyPackage) (RFC 9420 5.2).
[[nodiscard]] SEALWIRE_API result<bytes> key_package_ref(const suite_algorithms& suite, const key_package& kp);

// decrypt_group_secrets finds the entry for `ref` and opens it:
// DecryptWithLabel(init_key, "Welcome", encrypted_group_info, kem_output,
// ciphertext). Errors: group_errc::unknown_sender (no entry for ref),
// hpke_errc::open_failed, codec errors for a malformed GroupSecrets.
[[nodiscard]] SEALWIRE_API result<group_secrets> decrypt_group_secrets(const suite_algorithms& suite,
                                                                       const welcome& w, bytes_view ref,
                                                                       const hpke::private_key& init_key);

// decrypt_group_info opens encrypted_group_info under welcome_key and
// welcome_nonce derived from the welcome_secret of joiner_secret and
// psk_secret (empty for no PSK). Errors: group_errc::authentication_failed,
// codec errors.
[[nodiscard]] SEALWIRE_API result<group_info> decrypt_group_info(const suite_algorithms& suite, const welcome& w,
                                                                 bytes_view joiner_secret, bytes_view psk_secret);

// verify_group_info checks the GroupInfo's signature by the signer's key:
// VerifyWithLabel(signer, "GroupInfoTBS", GroupInfoTBS) (RFC 9420 12.4.3).
// Error: group_errc::invalid_signature.
[[nodiscard]] SEALWIRE_API result<void> verify_group_info(const suite_algorithms& suite, const group_info& info,
                                                          bytes_view signer_public_key);

}  // namespace sealwire::record::group
