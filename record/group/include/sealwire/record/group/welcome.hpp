// SPDX-License-Identifier: Apache-2.0
// Joining a group (RFC 9420 12.4.3.1): Welcome, its EncryptedGroupSecrets,
// and the GroupSecrets and PathSecret they encrypt.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>
#include <sealwire/record/group/proposals.hpp>

#include <optional>
#include <vector>

namespace sealwire::record::group {

// path_secret is PathSecret (RFC 9420 12.4.3.1); the secret is wiped when
// the structure is destroyed.
struct path_secret {
  crypto::secret_bytes secret;  // path_secret<V>
};

// group_secrets is GroupSecrets (RFC 9420 12.4.3.1), the plaintext of an
// EncryptedGroupSecrets; its secrets are wiped when it is destroyed.
struct group_secrets {
  crypto::secret_bytes joiner_secret;              // joiner_secret<V>
  std::optional<group::path_secret> path_secret;   // optional<PathSecret> path_secret
  std::vector<pre_shared_key_id> psks;             // PreSharedKeyID psks<V>
};

// encrypted_group_secrets is EncryptedGroupSecrets (RFC 9420 12.4.3.1).
struct encrypted_group_secrets {
  bytes new_member;                         // KeyPackageRef new_member
  hpke_ciphertext encrypted_group_secrets;  // HPKECiphertext encrypted_group_secrets
  // Equality is equality of every field.
  bool operator==(const group::encrypted_group_secrets&) const = default;
};

// welcome is Welcome (RFC 9420 12.4.3.1).
struct welcome {
  group::cipher_suite cipher_suite{};            // cipher_suite
  std::vector<encrypted_group_secrets> secrets;  // EncryptedGroupSecrets secrets<V>
  bytes encrypted_group_info;                    // encrypted_group_info<V>
  // Equality is equality of every field.
  bool operator==(const welcome&) const = default;
};

// encode writes a PathSecret.
SEALWIRE_API void encode(writer& w, const path_secret& v);
// decode reads a PathSecret.
SEALWIRE_API void decode(reader& r, path_secret& v);
// encode writes a GroupSecrets (the writer wipes its buffers; wipe what take() returns).
SEALWIRE_API void encode(writer& w, const group_secrets& v);
// decode reads a GroupSecrets.
SEALWIRE_API void decode(reader& r, group_secrets& v);
// encode writes an EncryptedGroupSecrets.
SEALWIRE_API void encode(writer& w, const encrypted_group_secrets& v);
// decode reads an EncryptedGroupSecrets.
SEALWIRE_API void decode(reader& r, encrypted_group_secrets& v);
// encode writes a Welcome.
SEALWIRE_API void encode(writer& w, const welcome& v);
// decode reads a Welcome.
SEALWIRE_API void decode(reader& r, welcome& v);

}  // namespace sealwire::record::group
