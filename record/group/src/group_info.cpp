// SPDX-License-Identifier: Apache-2.0
// GroupInfo and GroupInfoTBS (RFC 9420 12.4.3).
#include <sealwire/record/group/group_info.hpp>

namespace sealwire::record::group {

void encode_group_info_tbs(writer& w, const group_info& v) {
  encode(w, v.group_context);
  encode_extensions(w, v.extensions);
  w.opaque(v.confirmation_tag);
  w.u32(v.signer);
}

void encode(writer& w, const group_info& v) {
  encode_group_info_tbs(w, v);
  w.opaque(v.signature);
}

void decode(reader& r, group_info& v) {
  decode(r, v.group_context);
  decode_extensions(r, v.extensions);
  v.confirmation_tag = r.opaque();
  v.signer = r.u32();
  v.signature = r.opaque();
}

}  // namespace sealwire::record::group
