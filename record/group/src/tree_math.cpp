// SPDX-License-Identifier: Apache-2.0
// RFC 9420 appendix C: tree arithmetic on node indices.
#include <sealwire/record/group/tree_math.hpp>

#include <sealwire/crypto/contract.hpp>

#include <bit>

namespace sealwire::record::group::tree_math {

std::uint32_t level(std::uint32_t x) noexcept {
  // The level of a node is the number of trailing ones of its index.
  return static_cast<std::uint32_t>(std::countr_one(x));
}

std::uint32_t node_width(std::uint32_t n) noexcept {
  SEALWIRE_EXPECTS(n <= max_leaves);
  return n == 0 ? 0 : 2 * (n - 1) + 1;
}

std::uint32_t root(std::uint32_t n) noexcept {
  SEALWIRE_EXPECTS(n >= 1 && n <= max_leaves);
  // The root sits at (1 << floor(log2(width))) - 1.
  const std::uint32_t w = node_width(n);
  return (std::bit_floor(w)) - 1;
}

std::optional<std::uint32_t> left(std::uint32_t x) noexcept {
  const std::uint32_t k = level(x);
  if (k == 0) return std::nullopt;
  return x ^ (std::uint32_t{1} << (k - 1));
}

std::optional<std::uint32_t> right(std::uint32_t x) noexcept {
  const std::uint32_t k = level(x);
  if (k == 0) return std::nullopt;
  return x ^ (std::uint32_t{3} << (k - 1));
}

std::optional<std::uint32_t> parent(std::uint32_t x, std::uint32_t n) noexcept {
  if (!std::has_single_bit(n) || n > max_leaves || x >= node_width(n) || x == root(n)) return std::nullopt;
  // Set the bit above the node's level, and clear the one above that when
  // x is its parent's right child (appendix C `parent`).
  const std::uint32_t k = level(x);
  const std::uint64_t b = (std::uint64_t{x} >> (k + 1)) & 1;
  return static_cast<std::uint32_t>((std::uint64_t{x} | (std::uint64_t{1} << k)) ^ (b << (k + 1)));
}

std::optional<std::uint32_t> sibling(std::uint32_t x, std::uint32_t n) noexcept {
  const auto p = parent(x, n);
  if (!p) return std::nullopt;
  return x < *p ? right(*p) : left(*p);
}

}  // namespace sealwire::record::group::tree_math
