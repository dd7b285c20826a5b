// SPDX-License-Identifier: Apache-2.0
// ProposalOrRef and Commit (RFC 9420 12.4), UpdatePathNode and UpdatePath (7.6).
#include <sealwire/record/group/commit.hpp>

#include "detail/lists.hpp"

namespace sealwire::record::group {

void encode(writer& w, const proposal_or_ref& v) {
  w.u8(static_cast<std::uint8_t>(v.type()));
  if (const auto* p = std::get_if<proposal>(&v.value)) {
    encode(w, *p);
  } else {
    w.opaque(std::get<bytes>(v.value));
  }
}

void decode(reader& r, proposal_or_ref& v) {
  const auto type = static_cast<proposal_or_ref_type>(r.u8());
  if (!r.ok()) return;
  switch (type) {
    case proposal_or_ref_type::proposal: decode(r, v.value.emplace<proposal>()); return;
    case proposal_or_ref_type::reference: v.value.emplace<bytes>(r.opaque()); return;
  }
  r.fail(codec_errc::unknown_value);
}

void encode(writer& w, const update_path_node& v) {
  w.opaque(v.encryption_key);
  detail::write_list(w, v.encrypted_path_secret);
}

void decode(reader& r, update_path_node& v) {
  v.encryption_key = r.opaque();
  detail::read_list(r, v.encrypted_path_secret);
}

void encode(writer& w, const update_path& v) {
  encode(w, v.leaf_node);
  detail::write_list(w, v.nodes);
}

void decode(reader& r, update_path& v) {
  decode(r, v.leaf_node);
  detail::read_list(r, v.nodes);
}

void encode(writer& w, const commit& v) {
  detail::write_list(w, v.proposals);
  w.presence(v.path.has_value());
  if (v.path) encode(w, *v.path);
}

void decode(reader& r, commit& v) {
  detail::read_list(r, v.proposals);
  v.path.reset();
  if (r.presence()) decode(r, v.path.emplace());
}

}  // namespace sealwire::record::group
