// SPDX-License-Identifier: Apache-2.0
// A member's leaf: LeafNode (RFC 9420 7.2) with its Credential (5.3),
// Capabilities and Lifetime, and the LeafNodeTBS its signature covers.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace sealwire::record::group {

// credential is Credential (RFC 9420 5.3). A basic credential carries
// `identity`; an x509 one carries `certificates` (each cert_data, DER,
// not parsed here). Other credential types are refused when decoding.
struct credential {
  credential_type type = credential_type::basic;  // credential_type
  bytes identity;                                 // identity<V> (basic)
  std::vector<bytes> certificates;                // Certificate certificates<V> (x509)
  // Equality is equality of every field.
  bool operator==(const credential&) const = default;
};

// capabilities is Capabilities (RFC 9420 7.2); every listed value is carried.
struct capabilities {
  std::vector<protocol_version> versions;        // versions<V>
  std::vector<cipher_suite> cipher_suites;       // cipher_suites<V>
  std::vector<extension_type> extensions;        // extensions<V>
  std::vector<proposal_type> proposals;          // proposals<V>
  std::vector<credential_type> credentials;      // credentials<V>
  // Equality is equality of every field.
  bool operator==(const capabilities&) const = default;
};

// lifetime is Lifetime (RFC 9420 7.2), in seconds since the Unix epoch.
struct lifetime {
  std::uint64_t not_before = 0;  // not_before
  std::uint64_t not_after = 0;   // not_after
  // Equality is equality of both fields.
  bool operator==(const lifetime&) const = default;
};

// leaf_node is LeafNode (RFC 9420 7.2). `source` selects the field that
// follows capabilities: `life` for key_package, nothing for update,
// `parent_hash` for commit; the other one is ignored when encoding and left
// empty when decoding.
struct leaf_node {
  bytes encryption_key;                             // HPKEPublicKey encryption_key
  bytes signature_key;                              // SignaturePublicKey signature_key
  group::credential credential;                     // Credential credential
  group::capabilities capabilities;                 // Capabilities capabilities
  leaf_node_source source = leaf_node_source::key_package;  // leaf_node_source
  lifetime life;                                    // Lifetime lifetime (key_package)
  bytes parent_hash;                                // parent_hash<V> (commit)
  std::vector<extension> extensions;                // Extension extensions<V>
  bytes signature;                                  // signature<V>
  // Equality is equality of every field.
  bool operator==(const leaf_node&) const = default;
};

// encode writes a Credential; an unknown type is a writer error (invalid_value).
SEALWIRE_API void encode(writer& w, const credential& v);
// decode reads a Credential, refusing types other than basic and x509 (unknown_value).
SEALWIRE_API void decode(reader& r, credential& v);
// encode writes Capabilities.
SEALWIRE_API void encode(writer& w, const capabilities& v);
// decode reads Capabilities.
SEALWIRE_API void decode(reader& r, capabilities& v);
// encode writes a Lifetime.
SEALWIRE_API void encode(writer& w, const lifetime& v);
// decode reads a Lifetime.
SEALWIRE_API void decode(reader& r, lifetime& v);
// encode writes a LeafNode.
SEALWIRE_API void encode(writer& w, const leaf_node& v);
// decode reads a LeafNode, refusing an unknown leaf_node_source (unknown_value).
SEALWIRE_API void decode(reader& r, leaf_node& v);

// encode_leaf_node_tbs writes LeafNodeTBS (RFC 9420 7.2), what the leaf's
// signature covers: the leaf without its signature and, for the update and
// commit sources, the group id and the leaf's index.
SEALWIRE_API void encode_leaf_node_tbs(writer& w, const leaf_node& v, std::span<const std::uint8_t> group_id,
                                       std::uint32_t leaf_index);

}  // namespace sealwire::record::group
