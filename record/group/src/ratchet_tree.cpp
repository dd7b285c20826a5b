// SPDX-License-Identifier: Apache-2.0
// ParentNode, Node (RFC 9420 7.1) and the ratchet_tree extension's array of
// optional nodes (12.4.3.3).
#include <sealwire/record/group/ratchet_tree.hpp>

#include "detail/lists.hpp"

namespace sealwire::record::group {

void encode(writer& w, const parent_node& v) {
  w.opaque(v.encryption_key);
  w.opaque(v.parent_hash);
  w.vector([&] {
    for (const auto leaf : v.unmerged_leaves) w.u32(leaf);
  });
}

void decode(reader& r, parent_node& v) {
  v.encryption_key = r.opaque();
  v.parent_hash = r.opaque();
  v.unmerged_leaves.clear();
  r.vector([&](reader& sub) { v.unmerged_leaves.push_back(sub.u32()); });
}

void encode(writer& w, const node& v) {
  w.u8(static_cast<std::uint8_t>(v.type()));
  std::visit([&](const auto& n) { encode(w, n); }, v.value);
}

void decode(reader& r, node& v) {
  const auto type = static_cast<node_type>(r.u8());
  if (!r.ok()) return;
  switch (type) {
    case node_type::leaf: decode(r, v.value.emplace<leaf_node>()); return;
    case node_type::parent: decode(r, v.value.emplace<parent_node>()); return;
  }
  r.fail(codec_errc::unknown_value);
}

void encode(writer& w, const ratchet_tree& v) {
  w.vector([&] {
    for (const auto& n : v.nodes) {
      w.presence(n.has_value());
      if (n) encode(w, *n);
    }
  });
}

void decode(reader& r, ratchet_tree& v) {
  v.nodes.clear();
  r.vector([&](reader& sub) {
    auto& n = v.nodes.emplace_back();
    if (sub.presence()) decode(sub, n.emplace());
  });
}

}  // namespace sealwire::record::group
