// SPDX-License-Identifier: Apache-2.0
// KeyPackage and KeyPackageTBS (RFC 9420 10).
#include <sealwire/record/group/key_package.hpp>

namespace sealwire::record::group {

void encode_key_package_tbs(writer& w, const key_package& v) {
  w.u16(static_cast<std::uint16_t>(v.version));
  w.u16(static_cast<std::uint16_t>(v.cipher_suite));
  w.opaque(v.init_key);
  encode(w, v.leaf_node);
  encode_extensions(w, v.extensions);
}

void encode(writer& w, const key_package& v) {
  encode_key_package_tbs(w, v);
  w.opaque(v.signature);
}

void decode(reader& r, key_package& v) {
  v.version = static_cast<protocol_version>(r.u16());
  v.cipher_suite = static_cast<cipher_suite>(r.u16());
  v.init_key = r.opaque();
  decode(r, v.leaf_node);
  decode_extensions(r, v.extensions);
  v.signature = r.opaque();
}

}  // namespace sealwire::record::group
