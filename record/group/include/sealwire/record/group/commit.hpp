// SPDX-License-Identifier: Apache-2.0
// Commit (RFC 9420 12.4) with its ProposalOrRef list and the UpdatePath
// (7.6) that carries a committer's new path secrets.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>
#include <sealwire/record/group/leaf_node.hpp>
#include <sealwire/record/group/proposals.hpp>

#include <optional>
#include <variant>
#include <vector>

namespace sealwire::record::group {

// proposal_or_ref is ProposalOrRef (RFC 9420 12.4): a proposal inline, or a
// ProposalRef (a hash reference, 5.2) to one sent before. An unknown
// ProposalOrRefType is refused (unknown_value).
struct proposal_or_ref {
  // value is the proposal (proposal_or_ref_type::proposal) or the reference (reference).
  std::variant<group::proposal, bytes> value;
  // type is the ProposalOrRefType of the alternative held.
  [[nodiscard]] proposal_or_ref_type type() const noexcept {
    return static_cast<proposal_or_ref_type>(value.index() + 1);
  }
  // Equality is equality of type and value.
  bool operator==(const proposal_or_ref&) const = default;
};

// update_path_node is UpdatePathNode (RFC 9420 7.6).
struct update_path_node {
  bytes encryption_key;                                // HPKEPublicKey encryption_key
  std::vector<hpke_ciphertext> encrypted_path_secret;  // HPKECiphertext encrypted_path_secret<V>
  // Equality is equality of every field.
  bool operator==(const update_path_node&) const = default;
};

// update_path is UpdatePath (RFC 9420 7.6).
struct update_path {
  group::leaf_node leaf_node;           // LeafNode leaf_node
  std::vector<update_path_node> nodes;  // UpdatePathNode nodes<V>
  // Equality is equality of every field.
  bool operator==(const update_path&) const = default;
};

// commit is Commit (RFC 9420 12.4).
struct commit {
  std::vector<proposal_or_ref> proposals;  // ProposalOrRef proposals<V>
  std::optional<update_path> path;         // optional<UpdatePath> path
  // Equality is equality of every field.
  bool operator==(const commit&) const = default;
};

// encode writes a ProposalOrRef.
SEALWIRE_API void encode(writer& w, const proposal_or_ref& v);
// decode reads a ProposalOrRef.
SEALWIRE_API void decode(reader& r, proposal_or_ref& v);
// encode writes an UpdatePathNode.
SEALWIRE_API void encode(writer& w, const update_path_node& v);
// decode reads an UpdatePathNode.
SEALWIRE_API void decode(reader& r, update_path_node& v);
// encode writes an UpdatePath.
SEALWIRE_API void encode(writer& w, const update_path& v);
// decode reads an UpdatePath.
SEALWIRE_API void decode(reader& r, update_path& v);
// encode writes a Commit.
SEALWIRE_API void encode(writer& w, const commit& v);
// decode reads a Commit.
SEALWIRE_API void decode(reader& r, commit& v);

}  // namespace sealwire::record::group
