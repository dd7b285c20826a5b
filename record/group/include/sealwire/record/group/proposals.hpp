// SPDX-License-Identifier: Apache-2.0
// The seven proposal types of RFC 9420 12.1, the Proposal that selects
// among them, and PreSharedKeyID (8.4), which the PreSharedKey proposal and
// GroupSecrets carry.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>
#include <sealwire/record/group/key_package.hpp>
#include <sealwire/record/group/leaf_node.hpp>

#include <cstdint>
#include <variant>
#include <vector>

namespace sealwire::record::group {

// pre_shared_key_id is PreSharedKeyID (RFC 9420 8.4). `type` selects
// `psk_id` (external) or `usage`, `psk_group_id` and `psk_epoch`
// (resumption); the unselected fields are ignored when encoding and left
// empty when decoding. An unknown psk_type is refused (unknown_value).
struct pre_shared_key_id {
  psk_type type = psk_type::external;                           // psktype
  bytes psk_id;                                                 // psk_id<V> (external)
  resumption_psk_usage usage = resumption_psk_usage::application;  // usage (resumption)
  bytes psk_group_id;                                           // psk_group_id<V> (resumption)
  std::uint64_t psk_epoch = 0;                                  // psk_epoch (resumption)
  bytes psk_nonce;                                              // psk_nonce<V>
  // Equality is equality of every field.
  bool operator==(const pre_shared_key_id&) const = default;
};

// add is Add (RFC 9420 12.1.1).
struct add {
  group::key_package key_package;  // KeyPackage key_package
  // Equality is equality of the key package.
  bool operator==(const add&) const = default;
};

// update is Update (RFC 9420 12.1.2).
struct update {
  group::leaf_node leaf_node;  // LeafNode leaf_node
  // Equality is equality of the leaf.
  bool operator==(const update&) const = default;
};

// remove is Remove (RFC 9420 12.1.3).
struct remove {
  std::uint32_t removed = 0;  // the removed member's leaf index
  // Equality is equality of the index.
  bool operator==(const remove&) const = default;
};

// pre_shared_key is PreSharedKey (RFC 9420 12.1.4).
struct pre_shared_key {
  pre_shared_key_id psk;  // PreSharedKeyID psk
  // Equality is equality of the PSK id.
  bool operator==(const pre_shared_key&) const = default;
};

// reinit is ReInit (RFC 9420 12.1.5).
struct reinit {
  bytes group_id;                                      // group_id<V>
  protocol_version version = protocol_version::mls10;  // version
  group::cipher_suite cipher_suite{};                  // cipher_suite
  std::vector<extension> extensions;                   // Extension extensions<V>
  // Equality is equality of every field.
  bool operator==(const reinit&) const = default;
};

// external_init is ExternalInit (RFC 9420 12.1.6).
struct external_init {
  bytes kem_output;  // kem_output<V>
  // Equality is byte equality.
  bool operator==(const external_init&) const = default;
};

// group_context_extensions is GroupContextExtensions (RFC 9420 12.1.7).
struct group_context_extensions {
  std::vector<extension> extensions;  // Extension extensions<V>
  // Equality is equality of the list.
  bool operator==(const group_context_extensions&) const = default;
};

// proposal is Proposal (RFC 9420 12.1): the alternative held gives the
// proposal_type (index + 1). An unknown proposal_type is refused when
// decoding (unknown_value): its body has no length prefix to skip it by.
struct proposal {
  // value is the proposal, in ProposalType order.
  std::variant<add, update, remove, pre_shared_key, reinit, external_init, group_context_extensions> value;
  // type is the proposal_type of the alternative held.
  [[nodiscard]] proposal_type type() const noexcept { return static_cast<proposal_type>(value.index() + 1); }
  // Equality is equality of type and body.
  bool operator==(const proposal&) const = default;
};

// encode writes a PreSharedKeyID; an unknown type is a writer error (invalid_value).
SEALWIRE_API void encode(writer& w, const pre_shared_key_id& v);
// decode reads a PreSharedKeyID.
SEALWIRE_API void decode(reader& r, pre_shared_key_id& v);
// encode writes an Add.
SEALWIRE_API void encode(writer& w, const add& v);
// decode reads an Add.
SEALWIRE_API void decode(reader& r, add& v);
// encode writes an Update.
SEALWIRE_API void encode(writer& w, const update& v);
// decode reads an Update.
SEALWIRE_API void decode(reader& r, update& v);
// encode writes a Remove.
SEALWIRE_API void encode(writer& w, const remove& v);
// decode reads a Remove.
SEALWIRE_API void decode(reader& r, remove& v);
// encode writes a PreSharedKey.
SEALWIRE_API void encode(writer& w, const pre_shared_key& v);
// decode reads a PreSharedKey.
SEALWIRE_API void decode(reader& r, pre_shared_key& v);
// encode writes a ReInit.
SEALWIRE_API void encode(writer& w, const reinit& v);
// decode reads a ReInit.
SEALWIRE_API void decode(reader& r, reinit& v);
// encode writes an ExternalInit.
SEALWIRE_API void encode(writer& w, const external_init& v);
// decode reads an ExternalInit.
SEALWIRE_API void decode(reader& r, external_init& v);
// encode writes a GroupContextExtensions.
SEALWIRE_API void encode(writer& w, const group_context_extensions& v);
// decode reads a GroupContextExtensions.
SEALWIRE_API void decode(reader& r, group_context_extensions& v);
// encode writes a Proposal: its type, then its body.
SEALWIRE_API void encode(writer& w, const proposal& v);
// decode reads a Proposal.
SEALWIRE_API void decode(reader& r, proposal& v);

}  // namespace sealwire::record::group
