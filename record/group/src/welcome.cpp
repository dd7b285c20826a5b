// SPDX-License-Identifier: Apache-2.0
// Welcome, EncryptedGroupSecrets, GroupSecrets and PathSecret (RFC 9420 12.4.3.1).
#include <sealwire/record/group/welcome.hpp>

#include "detail/lists.hpp"

namespace sealwire::record::group {

void encode(writer& w, const path_secret& v) { w.opaque(v.secret.span()); }

void decode(reader& r, path_secret& v) { v.secret = r.opaque_secret(); }

void encode(writer& w, const group_secrets& v) {
  w.opaque(v.joiner_secret.span());
  w.presence(v.path_secret.has_value());
  if (v.path_secret) encode(w, *v.path_secret);
  detail::write_list(w, v.psks);
}

void decode(reader& r, group_secrets& v) {
  v.joiner_secret = r.opaque_secret();
  v.path_secret.reset();
  if (r.presence()) decode(r, v.path_secret.emplace());
  detail::read_list(r, v.psks);
}

void encode(writer& w, const encrypted_group_secrets& v) {
  w.opaque(v.new_member);
  encode(w, v.encrypted_group_secrets);
}

void decode(reader& r, encrypted_group_secrets& v) {
  v.new_member = r.opaque();
  decode(r, v.encrypted_group_secrets);
}

void encode(writer& w, const welcome& v) {
  w.u16(static_cast<std::uint16_t>(v.cipher_suite));
  detail::write_list(w, v.secrets);
  w.opaque(v.encrypted_group_info);
}

void decode(reader& r, welcome& v) {
  v.cipher_suite = static_cast<cipher_suite>(r.u16());
  detail::read_list(r, v.secrets);
  v.encrypted_group_info = r.opaque();
}

}  // namespace sealwire::record::group
