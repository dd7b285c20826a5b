// SPDX-License-Identifier: Apache-2.0
// The ratchet tree as the ratchet_tree extension carries it (RFC 9420
// 12.4.3.3): `optional<Node> ratchet_tree<V>`, with ParentNode and Node (7.1).
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>
#include <sealwire/record/group/leaf_node.hpp>

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace sealwire::record::group {

// parent_node is ParentNode (RFC 9420 7.1).
struct parent_node {
  bytes encryption_key;                      // HPKEPublicKey encryption_key
  bytes parent_hash;                         // parent_hash<V>
  std::vector<std::uint32_t> unmerged_leaves;  // uint32 unmerged_leaves<V>
  // Equality is equality of every field.
  bool operator==(const parent_node&) const = default;
};

// node is Node (RFC 9420 7.1): a leaf or a parent (node_type is index + 1).
// An unknown node_type is refused (unknown_value).
struct node {
  // value is the leaf (node_type::leaf) or the parent (node_type::parent).
  std::variant<leaf_node, parent_node> value;
  // type is the node_type of the alternative held.
  [[nodiscard]] node_type type() const noexcept { return static_cast<node_type>(value.index() + 1); }
  // Equality is equality of type and node.
  bool operator==(const node&) const = default;
};

// ratchet_tree is the tree in array form, blank nodes empty (RFC 9420
// 12.4.3.3). The codec checks the encoding only: the tree's shape (leaves
// at even indices, no trailing blank) is the group logic's check (7.8, 12.4.3.3).
struct ratchet_tree {
  std::vector<std::optional<node>> nodes;  // optional<Node> ratchet_tree<V>
  // Equality is equality of every node.
  bool operator==(const ratchet_tree&) const = default;
};

// encode writes a ParentNode.
SEALWIRE_API void encode(writer& w, const parent_node& v);
// decode reads a ParentNode.
SEALWIRE_API void decode(reader& r, parent_node& v);
// encode writes a Node.
SEALWIRE_API void encode(writer& w, const node& v);
// decode reads a Node.
SEALWIRE_API void decode(reader& r, node& v);
// encode writes the tree as `optional<Node> ratchet_tree<V>`.
SEALWIRE_API void encode(writer& w, const ratchet_tree& v);
// decode reads `optional<Node> ratchet_tree<V>`.
SEALWIRE_API void decode(reader& r, ratchet_tree& v);

}  // namespace sealwire::record::group
