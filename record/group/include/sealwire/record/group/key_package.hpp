// SPDX-License-Identifier: Apache-2.0
// KeyPackage (RFC 9420 10): a client's offer to be added to groups, and the
// KeyPackageTBS its signature covers.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>
#include <sealwire/record/group/leaf_node.hpp>

#include <vector>

namespace sealwire::record::group {

// key_package is KeyPackage (RFC 9420 10). The version and cipher suite are
// carried as they are; checking them is the group logic's job.
struct key_package {
  protocol_version version = protocol_version::mls10;  // version
  group::cipher_suite cipher_suite{};                  // cipher_suite
  bytes init_key;                                      // HPKEPublicKey init_key
  group::leaf_node leaf_node;                          // LeafNode leaf_node
  std::vector<extension> extensions;                   // Extension extensions<V>
  bytes signature;                                     // signature<V>
  // Equality is equality of every field.
  bool operator==(const key_package&) const = default;
};

// encode writes a KeyPackage.
SEALWIRE_API void encode(writer& w, const key_package& v);
// decode reads a KeyPackage.
SEALWIRE_API void decode(reader& r, key_package& v);
// encode_key_package_tbs writes KeyPackageTBS: the key package without its signature.
SEALWIRE_API void encode_key_package_tbs(writer& w, const key_package& v);

}  // namespace sealwire::record::group
