// SPDX-License-Identifier: Apache-2.0
// The members of a group session by leaf index: the leaves of RFC 9420's
// ratchet tree (7.1, 7.7) whose parent nodes are all blank, since the group
// session agrees epochs without TreeKEM; its tree hash (7.8) and its form
// in the ratchet_tree extension (12.4.3.3).
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/record/group/cipher_suite.hpp>
#include <sealwire/record/group/leaf_node.hpp>
#include <sealwire/record/group/ratchet_tree.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace sealwire::record::group {

// roster holds one optional LeafNode per leaf; the leaf count is always a
// power of two (the tree is full, RFC 9420 7.1). A small value type.
class SEALWIRE_API roster {
 public:
  // An empty roster (no leaves).
  roster() = default;
  // A one-leaf roster holding first (a group's creator, RFC 9420 11).
  explicit roster(leaf_node first);

  // leaf_count is the tree's leaf count (a power of two, or 0 when empty).
  [[nodiscard]] std::uint32_t leaf_count() const noexcept { return static_cast<std::uint32_t>(leaves_.size()); }
  // member_count is the number of non-blank leaves.
  [[nodiscard]] std::size_t member_count() const noexcept;
  // occupied reports whether leaf i holds a member.
  [[nodiscard]] bool occupied(std::uint32_t i) const noexcept { return i < leaves_.size() && leaves_[i].has_value(); }
  // leaf is leaf i's node; only for an occupied leaf (a contract failure otherwise).
  [[nodiscard]] const leaf_node& leaf(std::uint32_t i) const noexcept { return *leaves_[i]; }

  // add puts leaf in the leftmost blank leaf, doubling the tree when none is
  // blank (RFC 9420 7.7), and returns its index. Error: invalid_argument
  // when the tree cannot grow (2^31 leaves).
  [[nodiscard]] result<std::uint32_t> add(leaf_node leaf);
  // remove blanks leaf i and truncates the tree while its right half is
  // blank (RFC 9420 7.7). Removing a blank leaf changes nothing.
  void remove(std::uint32_t i);
  // replace sets occupied leaf i's node (a member's new leaf).
  void replace(std::uint32_t i, leaf_node leaf);
  // find returns the index of a leaf equal to `leaf`, if any.
  [[nodiscard]] std::optional<std::uint32_t> find(const leaf_node& leaf) const noexcept;
  // holds_key reports whether any member's encryption or signature key is `key`
  // (RFC 9420 7.3: keys are unique within a tree).
  [[nodiscard]] bool holds_key(bytes_view key) const noexcept;

  // tree_hash is the root's tree hash (RFC 9420 7.8) with every parent
  // node blank. Errors: the codec's (too_large).
  [[nodiscard]] result<bytes> tree_hash(const suite_algorithms& suite) const;
  // to_ratchet_tree is the array form of the tree (leaf i at node 2i,
  // parents blank, trailing blank nodes dropped; RFC 9420 12.4.3.3).
  [[nodiscard]] ratchet_tree to_ratchet_tree() const;
  // from_ratchet_tree reads the array form back. Error: invalid_tree for a
  // tree with a parent node (the group session runs no TreeKEM), a leaf or
  // parent in the wrong place, a trailing blank or no leaf.
  [[nodiscard]] static result<roster> from_ratchet_tree(const ratchet_tree& tree);

  // signature_keys lists each leaf's signature key (empty for blank leaves),
  // as group_framing::create takes them.
  [[nodiscard]] std::vector<bytes> signature_keys() const;

  // Rosters are equal when their leaves are.
  bool operator==(const roster&) const = default;

 private:
  std::vector<std::optional<leaf_node>> leaves_;
};

}  // namespace sealwire::record::group
