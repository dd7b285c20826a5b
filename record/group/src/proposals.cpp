// SPDX-License-Identifier: Apache-2.0
// PreSharedKeyID (RFC 9420 8.4), the seven proposals and Proposal (12.1).
#include <sealwire/record/group/proposals.hpp>

#include <type_traits>

namespace sealwire::record::group {

void encode(writer& w, const pre_shared_key_id& v) {
  w.u8(static_cast<std::uint8_t>(v.type));
  switch (v.type) {
    case psk_type::external: w.opaque(v.psk_id); break;
    case psk_type::resumption:
      w.u8(static_cast<std::uint8_t>(v.usage));
      w.opaque(v.psk_group_id);
      w.u64(v.psk_epoch);
      break;
    default: w.fail(codec_errc::invalid_value); return;
  }
  w.opaque(v.psk_nonce);
}

void decode(reader& r, pre_shared_key_id& v) {
  v = {};
  v.type = static_cast<psk_type>(r.u8());
  if (!r.ok()) return;
  switch (v.type) {
    case psk_type::external: v.psk_id = r.opaque(); break;
    case psk_type::resumption:
      v.usage = static_cast<resumption_psk_usage>(r.u8());
      v.psk_group_id = r.opaque();
      v.psk_epoch = r.u64();
      break;
    default: r.fail(codec_errc::unknown_value); return;
  }
  v.psk_nonce = r.opaque();
}

void encode(writer& w, const add& v) { encode(w, v.key_package); }
void decode(reader& r, add& v) { decode(r, v.key_package); }
void encode(writer& w, const update& v) { encode(w, v.leaf_node); }
void decode(reader& r, update& v) { decode(r, v.leaf_node); }
void encode(writer& w, const remove& v) { w.u32(v.removed); }
void decode(reader& r, remove& v) { v.removed = r.u32(); }
void encode(writer& w, const pre_shared_key& v) { encode(w, v.psk); }
void decode(reader& r, pre_shared_key& v) { decode(r, v.psk); }

void encode(writer& w, const reinit& v) {
  w.opaque(v.group_id);
  w.u16(static_cast<std::uint16_t>(v.version));
  w.u16(static_cast<std::uint16_t>(v.cipher_suite));
  encode_extensions(w, v.extensions);
}

void decode(reader& r, reinit& v) {
  v.group_id = r.opaque();
  v.version = static_cast<protocol_version>(r.u16());
  v.cipher_suite = static_cast<cipher_suite>(r.u16());
  decode_extensions(r, v.extensions);
}

void encode(writer& w, const external_init& v) { w.opaque(v.kem_output); }
void decode(reader& r, external_init& v) { v.kem_output = r.opaque(); }
void encode(writer& w, const group_context_extensions& v) { encode_extensions(w, v.extensions); }
void decode(reader& r, group_context_extensions& v) { decode_extensions(r, v.extensions); }

void encode(writer& w, const proposal& v) {
  w.u16(static_cast<std::uint16_t>(v.type()));
  std::visit([&](const auto& body) { encode(w, body); }, v.value);
}

namespace {

// emplace_and_decode makes alternative I of the proposal variant current and decodes it.
template <std::size_t I>
void emplace_and_decode(reader& r, proposal& v) {
  decode(r, v.value.template emplace<I>());
}

}  // namespace

void decode(reader& r, proposal& v) {
  const std::uint16_t type = r.u16();
  if (!r.ok()) return;
  // RFC 9420 12.1: the body's layout is selected by proposal_type, with no
  // length to skip an unknown one by.
  switch (static_cast<proposal_type>(type)) {
    case proposal_type::add: emplace_and_decode<0>(r, v); return;
    case proposal_type::update: emplace_and_decode<1>(r, v); return;
    case proposal_type::remove: emplace_and_decode<2>(r, v); return;
    case proposal_type::psk: emplace_and_decode<3>(r, v); return;
    case proposal_type::reinit: emplace_and_decode<4>(r, v); return;
    case proposal_type::external_init: emplace_and_decode<5>(r, v); return;
    case proposal_type::group_context_extensions: emplace_and_decode<6>(r, v); return;
  }
  r.fail(codec_errc::unknown_value);
}

}  // namespace sealwire::record::group
