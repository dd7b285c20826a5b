// SPDX-License-Identifier: Apache-2.0
// RFC 9420 6's framing structures and the byte strings that its signatures
// (6.1), membership tags (6.2), AEADs (6.3) and transcript hashes (8.2) cover.
#include <sealwire/record/group/framing.hpp>

#include <algorithm>

namespace sealwire::record::group {
namespace {

bool known(content_type t) noexcept {
  return t == content_type::application || t == content_type::proposal || t == content_type::commit;
}

// The content_type-selected body of FramedContent and PrivateMessageContent.
void encode_body(writer& w, const content_body& body) {
  switch (body.index()) {
    case 0: w.opaque(std::get<0>(body)); return;
    case 1: encode(w, std::get<1>(body)); return;
    default: encode(w, std::get<2>(body)); return;
  }
}

void decode_body(reader& r, content_body& body, content_type type) {
  switch (type) {
    case content_type::application: body.emplace<0>(r.opaque()); return;
    case content_type::proposal: decode(r, body.emplace<1>()); return;
    case content_type::commit: decode(r, body.emplace<2>()); return;
  }
  r.fail(codec_errc::unknown_value);
}

// Whether a sender's content is bound to the group context in
// FramedContentTBS, and carries a membership tag in a PublicMessage (6.1, 6.2).
bool signs_group_context(sender_type t) noexcept {
  return t == sender_type::member || t == sender_type::new_member_commit;
}

}  // namespace

void encode(writer& w, const sender& v) {
  w.u8(static_cast<std::uint8_t>(v.type));
  switch (v.type) {
    case sender_type::member:
    case sender_type::external: w.u32(v.index); return;
    case sender_type::new_member_proposal:
    case sender_type::new_member_commit: return;
  }
  w.fail(codec_errc::invalid_value);
}

void decode(reader& r, sender& v) {
  v = {};
  v.type = static_cast<sender_type>(r.u8());
  if (!r.ok()) return;
  switch (v.type) {
    case sender_type::member:
    case sender_type::external: v.index = r.u32(); return;
    case sender_type::new_member_proposal:
    case sender_type::new_member_commit: return;
  }
  r.fail(codec_errc::unknown_value);
}

void encode(writer& w, const framed_content& v) {
  w.opaque(v.group_id);
  w.u64(v.epoch);
  encode(w, v.sender);
  w.opaque(v.authenticated_data);
  w.u8(static_cast<std::uint8_t>(v.type()));
  encode_body(w, v.content);
}

void decode(reader& r, framed_content& v) {
  v.group_id = r.opaque();
  v.epoch = r.u64();
  decode(r, v.sender);
  v.authenticated_data = r.opaque();
  const auto type = static_cast<content_type>(r.u8());
  if (!r.ok()) return;
  decode_body(r, v.content, type);
}

// RFC 9420 6.1: the confirmation tag is there for commits and only for them.
void encode(writer& w, const framed_content_auth_data& v, content_type type) {
  w.opaque(v.signature);
  if ((type == content_type::commit) != v.confirmation_tag.has_value()) {
    w.fail(codec_errc::invalid_value);
    return;
  }
  if (v.confirmation_tag) w.opaque(*v.confirmation_tag);
}

void decode(reader& r, framed_content_auth_data& v, content_type type) {
  v.signature = r.opaque();
  v.confirmation_tag.reset();
  if (type == content_type::commit) v.confirmation_tag = r.opaque();
}

void encode(writer& w, const authenticated_content& v) {
  w.u16(static_cast<std::uint16_t>(v.wire_format));
  encode(w, v.content);
  encode(w, v.auth, v.content.type());
}

void decode(reader& r, authenticated_content& v) {
  v.wire_format = static_cast<wire_format>(r.u16());
  decode(r, v.content);
  decode(r, v.auth, v.content.type());
}

void encode(writer& w, const public_message& v) {
  encode(w, v.content);
  encode(w, v.auth, v.content.type());
  if ((v.content.sender.type == sender_type::member) != v.membership_tag.has_value()) {
    w.fail(codec_errc::invalid_value);
    return;
  }
  if (v.membership_tag) w.opaque(*v.membership_tag);
}

void decode(reader& r, public_message& v) {
  decode(r, v.content);
  decode(r, v.auth, v.content.type());
  v.membership_tag.reset();
  if (r.ok() && v.content.sender.type == sender_type::member) v.membership_tag = r.opaque();
}

void encode(writer& w, const private_message& v) {
  if (!known(v.content_type)) {
    w.fail(codec_errc::invalid_value);
    return;
  }
  w.opaque(v.group_id);
  w.u64(v.epoch);
  w.u8(static_cast<std::uint8_t>(v.content_type));
  w.opaque(v.authenticated_data);
  w.opaque(v.encrypted_sender_data);
  w.opaque(v.ciphertext);
}

void decode(reader& r, private_message& v) {
  v.group_id = r.opaque();
  v.epoch = r.u64();
  v.content_type = static_cast<content_type>(r.u8());
  if (r.ok() && !known(v.content_type)) r.fail(codec_errc::unknown_value);
  v.authenticated_data = r.opaque();
  v.encrypted_sender_data = r.opaque();
  v.ciphertext = r.opaque();
}

void encode(writer& w, const private_message_content& v) {
  encode_body(w, v.content);
  encode(w, v.auth, type_of(v.content));
  // RFC 9420 6.3.1: padding is zero bytes, as many as the sender chose.
  constexpr std::uint8_t zeros[64] = {};
  for (std::size_t left = v.padding; left > 0;) {
    const std::size_t n = std::min(left, sizeof zeros);
    w.fixed({zeros, n});
    left -= n;
  }
}

void decode(reader& r, private_message_content& v, content_type type) {
  decode_body(r, v.content, type);
  decode(r, v.auth, type);
  if (!r.ok()) return;
  // RFC 9420 6.3.1: everything after the auth data is padding, which must
  // be all zeros (a non-zero byte makes the message malformed).
  const auto padding = r.rest();
  v.padding = padding.size();
  if (std::any_of(padding.begin(), padding.end(), [](std::uint8_t b) { return b != 0; })) {
    r.fail(codec_errc::invalid_value);
  }
}

void encode(writer& w, const sender_data& v) {
  w.u32(v.leaf_index);
  w.u32(v.generation);
  w.fixed(v.reuse_guard);
}

void decode(reader& r, sender_data& v) {
  v.leaf_index = r.u32();
  v.generation = r.u32();
  r.fixed(v.reuse_guard);
}

result<private_message_content> decode_private_message_content(std::span<const std::uint8_t> in, content_type type,
                                                               const codec_limits& limits) {
  reader r(in, limits);
  private_message_content v;
  decode(r, v, type);
  r.finish();
  if (!r.ok()) return r.error();
  return v;
}

void encode_framed_content_tbs(writer& w, wire_format format, const framed_content& content,
                               const group_context* context) {
  w.u16(static_cast<std::uint16_t>(protocol_version::mls10));
  w.u16(static_cast<std::uint16_t>(format));
  encode(w, content);
  if (signs_group_context(content.sender.type)) {
    if (context == nullptr) {
      w.fail(codec_errc::invalid_value);
      return;
    }
    encode(w, *context);
  }
}

void encode_authenticated_content_tbm(writer& w, const framed_content& content, const framed_content_auth_data& auth,
                                      const group_context* context) {
  encode_framed_content_tbs(w, wire_format::mls_public_message, content, context);
  encode(w, auth, content.type());
}

void encode_sender_data_aad(writer& w, std::span<const std::uint8_t> group_id, std::uint64_t epoch,
                            content_type type) {
  w.opaque(group_id);
  w.u64(epoch);
  w.u8(static_cast<std::uint8_t>(type));
}

void encode_private_content_aad(writer& w, std::span<const std::uint8_t> group_id, std::uint64_t epoch,
                                content_type type, std::span<const std::uint8_t> authenticated_data) {
  encode_sender_data_aad(w, group_id, epoch, type);
  w.opaque(authenticated_data);
}

void encode_confirmed_transcript_hash_input(writer& w, wire_format format, const framed_content& content,
                                            std::span<const std::uint8_t> signature) {
  w.u16(static_cast<std::uint16_t>(format));
  encode(w, content);
  w.opaque(signature);
}

void encode_interim_transcript_hash_input(writer& w, std::span<const std::uint8_t> confirmation_tag) {
  w.opaque(confirmation_tag);
}

}  // namespace sealwire::record::group
