// SPDX-License-Identifier: Apache-2.0
// A member's KeyPackage and its private half (RFC 9420 10): making one with
// a signed LeafNode and a fresh HPKE init key, and validating a received one
// (10.1) and any signed leaf (7.3) before a group session uses it.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/record/group/cipher_suite.hpp>
#include <sealwire/record/group/key_package.hpp>
#include <sealwire/record/group/leaf_node.hpp>
#include <sealwire/record/group/signature.hpp>

#include <cstdint>
#include <optional>

namespace sealwire::record::group {

// key_package_bundle is a KeyPackage with the private keys behind it: the
// init key (opens the Welcome's GroupSecrets), the leaf's HPKE key (the
// member's encryption key once in the group) and the signature key. Publish
// `package` (serialize an mls_message holding it); keep the rest. Movable,
// not copyable; the private keys are wiped on destruction.
struct key_package_bundle {
  group::key_package package;           // what others add to a group
  hpke::private_key init_key;           // private key of package.init_key
  hpke::private_key leaf_key;           // private key of package.leaf_node.encryption_key
  signature_private_key signature_key;  // private key of package.leaf_node.signature_key
};

// key_package_options are the caller's choices for make_key_package.
struct key_package_options {
  // now is the current time in seconds since the Unix epoch (nullopt: the
  // system clock); the Lifetime runs from one hour before it to `validity` after.
  std::optional<std::uint64_t> now;
  std::uint64_t validity = std::uint64_t{28} * 24 * 3600;  // seconds (28 days)
};

// make_key_package builds a KeyPackage for `suite` (RFC 9420 10): a basic
// credential holding `identity`, fresh init and leaf HPKE key pairs of the
// suite's KEM, capabilities naming mls10, the suite and basic credentials,
// a Lifetime, the LeafNode signed ("LeafNodeTBS") and the KeyPackage signed
// ("KeyPackageTBS") with signature_key. Errors: group_errc::invalid_argument
// (a signature key of another scheme), the random source's.
[[nodiscard]] SEALWIRE_API result<key_package_bundle> make_key_package(const suite_algorithms& suite,
                                                                       bytes_view identity,
                                                                       signature_private_key signature_key,
                                                                       const key_package_options& options = {});

// validate_key_package checks a received KeyPackage (RFC 9420 10.1): version
// mls10, cipher suite `suite`, init key and leaf encryption key valid keys
// of the suite's KEM and different, the leaf's source key_package, a basic
// credential, `now` (nullopt: the system clock) within the Lifetime, the
// leaf's and the package's signatures. Error: group_errc::invalid_key_package.
[[nodiscard]] SEALWIRE_API result<void> validate_key_package(const suite_algorithms& suite, const key_package& kp,
                                                             std::optional<std::uint64_t> now = std::nullopt);

// sign_leaf_node fills leaf.signature: SignWithLabel(key, "LeafNodeTBS",
// LeafNodeTBS) (RFC 9420 7.2); group_id and leaf_index count only for the
// update and commit sources.
[[nodiscard]] SEALWIRE_API result<void> sign_leaf_node(leaf_node& leaf, const signature_private_key& key,
                                                       bytes_view group_id, std::uint32_t leaf_index);

// verify_leaf_node checks a leaf (RFC 9420 7.3): its encryption key a valid
// key of the suite's KEM, a basic credential, and its signature under its
// own signature key. Error: group_errc::invalid_key_package.
[[nodiscard]] SEALWIRE_API result<void> verify_leaf_node(const suite_algorithms& suite, const leaf_node& leaf,
                                                         bytes_view group_id, std::uint32_t leaf_index);

}  // namespace sealwire::record::group
