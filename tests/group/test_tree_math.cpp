// SPDX-License-Identifier: Apache-2.0
// RFC 9420 appendix C tree math against tree-math.json (every node of every
// tree), and its edges: leaves have no children, the root no parent, indices
// outside the tree and trees that are not full are refused.
#include <sealwire/record/group/tree_math.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>

namespace sealwire::record::group {
namespace {

std::optional<std::uint32_t> expected(const nlohmann::json& v) {
  if (v.is_null()) return std::nullopt;
  return v.get<std::uint32_t>();
}

TEST(GroupTreeMath, OfficialVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "mls/tree-math.json");
  const auto cases = test::load_json(path);
  ASSERT_EQ(cases.size(), 10U);
  std::size_t nodes_checked = 0;
  for (const auto& c : cases) {
    const auto n = c["n_leaves"].get<std::uint32_t>();
    SCOPED_TRACE(n);
    EXPECT_EQ(tree_math::node_width(n), c["n_nodes"].get<std::uint32_t>());
    EXPECT_EQ(tree_math::root(n), c["root"].get<std::uint32_t>());
    const auto width = tree_math::node_width(n);
    ASSERT_EQ(c["left"].size(), width);
    ASSERT_EQ(c["right"].size(), width);
    ASSERT_EQ(c["parent"].size(), width);
    ASSERT_EQ(c["sibling"].size(), width);
    for (std::uint32_t x = 0; x < width; ++x) {
      EXPECT_EQ(tree_math::left(x), expected(c["left"][x])) << x;
      EXPECT_EQ(tree_math::right(x), expected(c["right"][x])) << x;
      EXPECT_EQ(tree_math::parent(x, n), expected(c["parent"][x])) << x;
      EXPECT_EQ(tree_math::sibling(x, n), expected(c["sibling"][x])) << x;
      ++nodes_checked;
    }
  }
  EXPECT_EQ(nodes_checked, 1023U + 511 + 255 + 127 + 63 + 31 + 15 + 7 + 3 + 1);
}

TEST(GroupTreeMath, Edges) {
  EXPECT_EQ(tree_math::node_width(0), 0U);
  EXPECT_EQ(tree_math::level(0), 0U);
  EXPECT_EQ(tree_math::level(7), 3U);
  EXPECT_EQ(tree_math::leaf_node(5), 10U);
  // Outside the tree: no parent, no sibling.
  EXPECT_EQ(tree_math::parent(7, 4), std::nullopt);
  EXPECT_EQ(tree_math::sibling(100, 4), std::nullopt);
  // Not a full tree (RFC 9420 7.8): refused rather than answered wrongly.
  EXPECT_EQ(tree_math::parent(0, 3), std::nullopt);
  EXPECT_EQ(tree_math::parent(0, 0), std::nullopt);
  // The largest tree still has its arithmetic in range.
  EXPECT_EQ(tree_math::root(tree_math::max_leaves), (std::uint32_t{1} << 31) - 1);
  EXPECT_EQ(tree_math::parent(0, tree_math::max_leaves), 1U);
  EXPECT_EQ(tree_math::parent((std::uint32_t{1} << 30) - 1, tree_math::max_leaves), (std::uint32_t{1} << 31) - 1);
}

}  // namespace
}  // namespace sealwire::record::group
