// SPDX-License-Identifier: Apache-2.0
// The identifiers RFC 9420 structures select on or carry (its section 17
// registries), and the small structures many of them share: Extension
// (13) and HPKECiphertext (5.1.3).
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>

#include <cstdint>
#include <vector>

namespace sealwire::record::group {

// bytes is an owned byte string: every opaque<V> field of the structures.
using bytes = std::vector<std::uint8_t>;

// Enums whose every value is carried (a uint16 or uint8 on the wire that no
// structure selects on) accept values RFC 9420 does not name; enums a
// structure selects on are refused (codec_errc::unknown_value) when unknown,
// since the rest of the structure cannot be parsed.

// protocol_version is ProtocolVersion (RFC 9420 6); any value is carried,
// except in MLSMessage, whose body is only defined for mls10.
enum class protocol_version : std::uint16_t {
  reserved = 0,  // not a version
  mls10 = 1,     // RFC 9420
};

// cipher_suite is a CipherSuite identifier (RFC 9420 17.1); any value is carried.
enum class cipher_suite : std::uint16_t {};

// wire_format is WireFormat (RFC 9420 6, 17.2); MLSMessage selects on it.
enum class wire_format : std::uint16_t {
  mls_public_message = 1,   // PublicMessage
  mls_private_message = 2,  // PrivateMessage
  mls_welcome = 3,          // Welcome
  mls_group_info = 4,       // GroupInfo
  mls_key_package = 5,      // KeyPackage
};

// content_type is ContentType (RFC 9420 6); FramedContent selects on it.
enum class content_type : std::uint8_t {
  application = 1,  // application_data
  proposal = 2,     // a Proposal
  commit = 3,       // a Commit
};

// sender_type is SenderType (RFC 9420 6); Sender selects on it.
enum class sender_type : std::uint8_t {
  member = 1,               // a member, by leaf index
  external = 2,             // an external sender, by index into the external_senders extension
  new_member_proposal = 3,  // a joiner proposing its own Add
  new_member_commit = 4,    // a joiner committing externally
};

// proposal_type is ProposalType (RFC 9420 17.4). Proposal selects on it (so
// an unknown one is refused there); Capabilities lists any value.
enum class proposal_type : std::uint16_t {
  add = 1,                       // Add
  update = 2,                    // Update
  remove = 3,                    // Remove
  psk = 4,                       // PreSharedKey
  reinit = 5,                    // ReInit
  external_init = 6,             // ExternalInit
  group_context_extensions = 7,  // GroupContextExtensions
};

// credential_type is CredentialType (RFC 9420 5.3, 17.5). Credential selects
// on it (an unknown one is refused there); Capabilities lists any value.
enum class credential_type : std::uint16_t {
  basic = 1,  // an identity byte string
  x509 = 2,   // a chain of X.509 certificates, carried as opaque DER
};

// extension_type is ExtensionType (RFC 9420 17.3); any value is carried,
// since an Extension's data is an opaque<V>.
enum class extension_type : std::uint16_t {
  application_id = 1,         // ApplicationId
  ratchet_tree = 2,           // the ratchet tree (ratchet_tree.hpp)
  required_capabilities = 3,  // RequiredCapabilities
  external_pub = 4,           // ExternalPub
  external_senders = 5,       // ExternalSender list
};

// leaf_node_source is LeafNodeSource (RFC 9420 7.2); LeafNode selects on it.
enum class leaf_node_source : std::uint8_t {
  key_package = 1,  // the leaf of a KeyPackage, with a Lifetime
  update = 2,       // the leaf of an Update proposal
  commit = 3,       // the leaf of a Commit's UpdatePath, with a parent hash
};

// node_type is NodeType (RFC 9420 7.8); Node selects on it.
enum class node_type : std::uint8_t {
  leaf = 1,    // a LeafNode
  parent = 2,  // a ParentNode
};

// psk_type is PSKType (RFC 9420 8.4); PreSharedKeyID selects on it.
enum class psk_type : std::uint8_t {
  external = 1,    // an external PSK, by psk_id
  resumption = 2,  // a resumption PSK, by group id and epoch
};

// resumption_psk_usage is ResumptionPSKUsage (RFC 9420 8.4); any value is carried.
enum class resumption_psk_usage : std::uint8_t {
  application = 1,  // resumption within a group
  reinit = 2,       // a reinitialised group
  branch = 3,       // a branched group
};

// proposal_or_ref_type is ProposalOrRefType (RFC 9420 12.4); ProposalOrRef selects on it.
enum class proposal_or_ref_type : std::uint8_t {
  proposal = 1,   // the proposal inline
  reference = 2,  // a ProposalRef to a proposal sent before
};

// extension is Extension (RFC 9420 13): a type and opaque data, carried
// whatever the type.
struct extension {
  extension_type type{};  // extension_type
  bytes data;             // extension_data<V>
  // Equality is byte equality of every field.
  bool operator==(const extension&) const = default;
};

// hpke_ciphertext is HPKECiphertext (RFC 9420 5.1.3).
struct hpke_ciphertext {
  bytes kem_output;  // kem_output<V>
  bytes ciphertext;  // ciphertext<V>
  // Equality is byte equality of every field.
  bool operator==(const hpke_ciphertext&) const = default;
};

// encode writes an Extension.
SEALWIRE_API void encode(writer& w, const extension& v);
// decode reads an Extension.
SEALWIRE_API void decode(reader& r, extension& v);
// encode writes an HPKECiphertext.
SEALWIRE_API void encode(writer& w, const hpke_ciphertext& v);
// decode reads an HPKECiphertext.
SEALWIRE_API void decode(reader& r, hpke_ciphertext& v);
// encode_extensions writes `Extension extensions<V>`.
SEALWIRE_API void encode_extensions(writer& w, const std::vector<extension>& v);
// decode_extensions reads `Extension extensions<V>` (duplicate types are
// carried: rejecting them is the group logic's check, RFC 9420 13).
SEALWIRE_API void decode_extensions(reader& r, std::vector<extension>& v);

}  // namespace sealwire::record::group
