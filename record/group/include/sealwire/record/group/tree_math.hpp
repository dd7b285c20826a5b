// SPDX-License-Identifier: Apache-2.0
// Array-based binary tree arithmetic of RFC 9420 appendix C: node indices of a
// left-balanced tree with leaves at even indices, as the secret tree (section
// 9) and the ratchet tree address their nodes.
#pragma once

#include <sealwire/crypto/export.hpp>

#include <cstdint>
#include <optional>

namespace sealwire::record::group::tree_math {

// max_leaves is the largest leaf count these functions accept: node indices
// (2 * leaves - 1 of them) must fit in 32 bits.
inline constexpr std::uint32_t max_leaves = std::uint32_t{1} << 31;

// level is the node's height: 0 for a leaf, the number of trailing one bits
// of x otherwise (appendix C `level`).
[[nodiscard]] SEALWIRE_API std::uint32_t level(std::uint32_t x) noexcept;

// node_width is the number of nodes of a tree with n leaves: 2 * (n - 1) + 1,
// 0 for no leaves. n above max_leaves is a contract failure.
[[nodiscard]] SEALWIRE_API std::uint32_t node_width(std::uint32_t n) noexcept;

// root is the root's node index in a tree with n leaves (n >= 1; 0 or above
// max_leaves is a contract failure).
[[nodiscard]] SEALWIRE_API std::uint32_t root(std::uint32_t n) noexcept;

// left is the left child of an intermediate node; nullopt for a leaf.
[[nodiscard]] SEALWIRE_API std::optional<std::uint32_t> left(std::uint32_t x) noexcept;

// right is the right child of an intermediate node; nullopt for a leaf.
[[nodiscard]] SEALWIRE_API std::optional<std::uint32_t> right(std::uint32_t x) noexcept;

// parent is the parent of node x in a tree with n leaves; nullopt for the
// root, for an x outside the tree, or when n is not a power of two (RFC
// 9420 trees are always full, 7.8, which the formula relies on).
[[nodiscard]] SEALWIRE_API std::optional<std::uint32_t> parent(std::uint32_t x, std::uint32_t n) noexcept;

// sibling is the other child of x's parent; nullopt for the root or an x
// outside the tree.
[[nodiscard]] SEALWIRE_API std::optional<std::uint32_t> sibling(std::uint32_t x, std::uint32_t n) noexcept;

// leaf_node is the node index of leaf i (2 * i).
[[nodiscard]] constexpr std::uint32_t leaf_node(std::uint32_t leaf) noexcept { return leaf * 2; }

}  // namespace sealwire::record::group::tree_math
