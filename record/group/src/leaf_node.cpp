// SPDX-License-Identifier: Apache-2.0
// Credential (RFC 9420 5.3), Capabilities, Lifetime and LeafNode (7.2).
#include <sealwire/record/group/leaf_node.hpp>

#include "detail/lists.hpp"

namespace sealwire::record::group {

void encode(writer& w, const credential& v) {
  w.u16(static_cast<std::uint16_t>(v.type));
  switch (v.type) {
    case credential_type::basic: w.opaque(v.identity); return;
    case credential_type::x509: detail::write_opaque_list(w, v.certificates); return;
  }
  w.fail(codec_errc::invalid_value);
}

void decode(reader& r, credential& v) {
  v = {};
  v.type = static_cast<credential_type>(r.u16());
  if (!r.ok()) return;
  switch (v.type) {
    case credential_type::basic: v.identity = r.opaque(); return;
    case credential_type::x509: detail::read_opaque_list(r, v.certificates); return;
  }
  // RFC 9420 5.3: the credential's layout is selected by its type, so an
  // unknown type cannot be skipped.
  r.fail(codec_errc::unknown_value);
}

void encode(writer& w, const capabilities& v) {
  detail::write_u16_list(w, v.versions);
  detail::write_u16_list(w, v.cipher_suites);
  detail::write_u16_list(w, v.extensions);
  detail::write_u16_list(w, v.proposals);
  detail::write_u16_list(w, v.credentials);
}

void decode(reader& r, capabilities& v) {
  detail::read_u16_list(r, v.versions);
  detail::read_u16_list(r, v.cipher_suites);
  detail::read_u16_list(r, v.extensions);
  detail::read_u16_list(r, v.proposals);
  detail::read_u16_list(r, v.credentials);
}

void encode(writer& w, const lifetime& v) {
  w.u64(v.not_before);
  w.u64(v.not_after);
}

void decode(reader& r, lifetime& v) {
  v.not_before = r.u64();
  v.not_after = r.u64();
}

namespace {

// The fields LeafNode and LeafNodeTBS share, up to and including extensions.
void encode_leaf_content(writer& w, const leaf_node& v) {
  w.opaque(v.encryption_key);
  w.opaque(v.signature_key);
  encode(w, v.credential);
  encode(w, v.capabilities);
  w.u8(static_cast<std::uint8_t>(v.source));
  switch (v.source) {
    case leaf_node_source::key_package: encode(w, v.life); break;
    case leaf_node_source::update: break;
    case leaf_node_source::commit: w.opaque(v.parent_hash); break;
    default: w.fail(codec_errc::invalid_value); break;
  }
  encode_extensions(w, v.extensions);
}

}  // namespace

void encode(writer& w, const leaf_node& v) {
  encode_leaf_content(w, v);
  w.opaque(v.signature);
}

void decode(reader& r, leaf_node& v) {
  v = {};
  v.encryption_key = r.opaque();
  v.signature_key = r.opaque();
  decode(r, v.credential);
  decode(r, v.capabilities);
  v.source = static_cast<leaf_node_source>(r.u8());
  if (!r.ok()) return;
  switch (v.source) {
    case leaf_node_source::key_package: decode(r, v.life); break;
    case leaf_node_source::update: break;
    case leaf_node_source::commit: v.parent_hash = r.opaque(); break;
    default: r.fail(codec_errc::unknown_value); return;
  }
  decode_extensions(r, v.extensions);
  v.signature = r.opaque();
}

// RFC 9420 7.2: LeafNodeTBS adds the group id and leaf index for leaves
// that are bound to a group (the update and commit sources).
void encode_leaf_node_tbs(writer& w, const leaf_node& v, std::span<const std::uint8_t> group_id,
                          std::uint32_t leaf_index) {
  encode_leaf_content(w, v);
  if (v.source == leaf_node_source::update || v.source == leaf_node_source::commit) {
    w.opaque(group_id);
    w.u32(leaf_index);
  }
}

}  // namespace sealwire::record::group
