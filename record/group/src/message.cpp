// SPDX-License-Identifier: Apache-2.0
// MLSMessage (RFC 9420 6).
#include <sealwire/record/group/message.hpp>

namespace sealwire::record::group {

void encode(writer& w, const mls_message& v) {
  w.u16(static_cast<std::uint16_t>(protocol_version::mls10));
  w.u16(static_cast<std::uint16_t>(v.format()));
  std::visit([&](const auto& body) { encode(w, body); }, v.body);
}

void decode(reader& r, mls_message& v) {
  const auto version = static_cast<protocol_version>(r.u16());
  const auto format = static_cast<wire_format>(r.u16());
  if (!r.ok()) return;
  // The body's layout is defined for mls10 only.
  if (version != protocol_version::mls10) {
    r.fail(codec_errc::unknown_value);
    return;
  }
  switch (format) {
    case wire_format::mls_public_message: decode(r, v.body.emplace<public_message>()); return;
    case wire_format::mls_private_message: decode(r, v.body.emplace<private_message>()); return;
    case wire_format::mls_welcome: decode(r, v.body.emplace<welcome>()); return;
    case wire_format::mls_group_info: decode(r, v.body.emplace<group_info>()); return;
    case wire_format::mls_key_package: decode(r, v.body.emplace<key_package>()); return;
  }
  r.fail(codec_errc::unknown_value);
}

}  // namespace sealwire::record::group
