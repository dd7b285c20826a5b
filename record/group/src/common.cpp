// SPDX-License-Identifier: Apache-2.0
// Extension (RFC 9420 13) and HPKECiphertext (5.1.3).
#include <sealwire/record/group/common.hpp>

#include "detail/lists.hpp"

namespace sealwire::record::group {

void encode(writer& w, const extension& v) {
  w.u16(static_cast<std::uint16_t>(v.type));
  w.opaque(v.data);
}

void decode(reader& r, extension& v) {
  v.type = static_cast<extension_type>(r.u16());
  v.data = r.opaque();
}

void encode(writer& w, const hpke_ciphertext& v) {
  w.opaque(v.kem_output);
  w.opaque(v.ciphertext);
}

void decode(reader& r, hpke_ciphertext& v) {
  v.kem_output = r.opaque();
  v.ciphertext = r.opaque();
}

void encode_extensions(writer& w, const std::vector<extension>& v) { detail::write_list(w, v); }

void decode_extensions(reader& r, std::vector<extension>& v) { detail::read_list(r, v); }

}  // namespace sealwire::record::group
