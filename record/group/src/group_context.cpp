// SPDX-License-Identifier: Apache-2.0
// GroupContext (RFC 9420 8.1).
#include <sealwire/record/group/group_context.hpp>

namespace sealwire::record::group {

void encode(writer& w, const group_context& v) {
  w.u16(static_cast<std::uint16_t>(v.version));
  w.u16(static_cast<std::uint16_t>(v.cipher_suite));
  w.opaque(v.group_id);
  w.u64(v.epoch);
  w.opaque(v.tree_hash);
  w.opaque(v.confirmed_transcript_hash);
  encode_extensions(w, v.extensions);
}

void decode(reader& r, group_context& v) {
  v.version = static_cast<protocol_version>(r.u16());
  v.cipher_suite = static_cast<cipher_suite>(r.u16());
  v.group_id = r.opaque();
  v.epoch = r.u64();
  v.tree_hash = r.opaque();
  v.confirmed_transcript_hash = r.opaque();
  decode_extensions(r, v.extensions);
}

}  // namespace sealwire::record::group
