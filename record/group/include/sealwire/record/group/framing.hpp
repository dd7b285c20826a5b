// SPDX-License-Identifier: Apache-2.0
// The message framing structures of RFC 9420 6: Sender, FramedContent,
// FramedContentAuthData, AuthenticatedContent, PublicMessage,
// PrivateMessage, PrivateMessageContent and SenderData, and the inputs that
// signatures, MACs, AEADs and transcript hashes cover (FramedContentTBS,
// AuthenticatedContentTBM, SenderDataAAD, PrivateContentAAD, 8.2's
// transcript hash inputs).
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/commit.hpp>
#include <sealwire/record/group/common.hpp>
#include <sealwire/record/group/group_context.hpp>
#include <sealwire/record/group/proposals.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <variant>

namespace sealwire::record::group {

// sender is Sender (RFC 9420 6). `index` is the leaf_index (member) or
// sender_index (external); new_member_proposal and new_member_commit carry
// no index (it is ignored when encoding, 0 when decoding). An unknown
// sender_type is refused (unknown_value).
struct sender {
  sender_type type = sender_type::member;  // sender_type
  std::uint32_t index = 0;                 // leaf_index or sender_index
  // Equality is equality of both fields.
  bool operator==(const sender&) const = default;
};

// content_body is what FramedContent and PrivateMessageContent select by
// content_type: application_data<V>, a Proposal or a Commit (index + 1 is
// the content_type).
using content_body = std::variant<bytes, proposal, commit>;

// type_of returns the content_type of a content body.
[[nodiscard]] inline content_type type_of(const content_body& body) noexcept {
  return static_cast<content_type>(body.index() + 1);
}

// framed_content is FramedContent (RFC 9420 6). An unknown content_type is
// refused (unknown_value).
struct framed_content {
  bytes group_id;            // group_id<V>
  std::uint64_t epoch = 0;   // epoch
  group::sender sender;      // Sender sender
  bytes authenticated_data;  // authenticated_data<V>
  content_body content;      // application_data<V>, Proposal or Commit, by content_type
  // type is the content_type of the content held.
  [[nodiscard]] content_type type() const noexcept { return type_of(content); }
  // Equality is equality of every field.
  bool operator==(const framed_content&) const = default;
};

// framed_content_auth_data is FramedContentAuthData (RFC 9420 6.1). The
// confirmation tag is present exactly when the content is a Commit; an
// encoder given one without the other fails (invalid_value).
struct framed_content_auth_data {
  bytes signature;                        // signature<V>
  std::optional<bytes> confirmation_tag;  // MAC confirmation_tag (commits only)
  // Equality is equality of both fields.
  bool operator==(const framed_content_auth_data&) const = default;
};

// authenticated_content is AuthenticatedContent (RFC 9420 6.1).
struct authenticated_content {
  group::wire_format wire_format = wire_format::mls_public_message;  // wire_format
  framed_content content;                                          // FramedContent content
  framed_content_auth_data auth;                                   // FramedContentAuthData auth
  // Equality is equality of every field.
  bool operator==(const authenticated_content&) const = default;
};

// public_message is PublicMessage (RFC 9420 6.2). The membership tag is
// present exactly when the sender is a member.
struct public_message {
  framed_content content;                // FramedContent content
  framed_content_auth_data auth;         // FramedContentAuthData auth
  std::optional<bytes> membership_tag;   // MAC membership_tag (member senders only)
  // Equality is equality of every field.
  bool operator==(const public_message&) const = default;
};

// private_message is PrivateMessage (RFC 9420 6.3). content_type must be a
// known ContentType (unknown_value otherwise): it selects how the decrypted
// content is parsed.
struct private_message {
  bytes group_id;                                          // group_id<V>
  std::uint64_t epoch = 0;                                 // epoch
  group::content_type content_type = content_type::application;  // content_type
  bytes authenticated_data;                                // authenticated_data<V>
  bytes encrypted_sender_data;                             // encrypted_sender_data<V>
  bytes ciphertext;                                        // ciphertext<V>
  // Equality is equality of every field.
  bool operator==(const private_message&) const = default;
};

// private_message_content is PrivateMessageContent (RFC 9420 6.3.1): the
// plaintext of a PrivateMessage's ciphertext. `padding` zero bytes follow
// the auth data; a non-zero padding byte is refused (invalid_value).
struct private_message_content {
  content_body content;           // application_data<V>, Proposal or Commit
  framed_content_auth_data auth;  // FramedContentAuthData auth
  std::size_t padding = 0;        // the number of zero padding bytes
  // Equality is equality of every field.
  bool operator==(const private_message_content&) const = default;
};

// sender_data is SenderData (RFC 9420 6.3.2).
struct sender_data {
  std::uint32_t leaf_index = 0;            // leaf_index
  std::uint32_t generation = 0;            // generation
  std::array<std::uint8_t, 4> reuse_guard{};  // reuse_guard[4]
  // Equality is equality of every field.
  bool operator==(const sender_data&) const = default;
};

// encode writes a Sender.
SEALWIRE_API void encode(writer& w, const sender& v);
// decode reads a Sender.
SEALWIRE_API void decode(reader& r, sender& v);
// encode writes a FramedContent.
SEALWIRE_API void encode(writer& w, const framed_content& v);
// decode reads a FramedContent.
SEALWIRE_API void decode(reader& r, framed_content& v);
// encode writes a FramedContentAuthData for content of type `type`.
SEALWIRE_API void encode(writer& w, const framed_content_auth_data& v, content_type type);
// decode reads a FramedContentAuthData for content of type `type`.
SEALWIRE_API void decode(reader& r, framed_content_auth_data& v, content_type type);
// encode writes an AuthenticatedContent.
SEALWIRE_API void encode(writer& w, const authenticated_content& v);
// decode reads an AuthenticatedContent.
SEALWIRE_API void decode(reader& r, authenticated_content& v);
// encode writes a PublicMessage.
SEALWIRE_API void encode(writer& w, const public_message& v);
// decode reads a PublicMessage.
SEALWIRE_API void decode(reader& r, public_message& v);
// encode writes a PrivateMessage.
SEALWIRE_API void encode(writer& w, const private_message& v);
// decode reads a PrivateMessage.
SEALWIRE_API void decode(reader& r, private_message& v);
// encode writes a PrivateMessageContent, its padding included.
SEALWIRE_API void encode(writer& w, const private_message_content& v);
// decode reads a PrivateMessageContent of type `type`; every byte after the
// auth data is padding and must be zero.
SEALWIRE_API void decode(reader& r, private_message_content& v, content_type type);
// encode writes a SenderData.
SEALWIRE_API void encode(writer& w, const sender_data& v);
// decode reads a SenderData.
SEALWIRE_API void decode(reader& r, sender_data& v);

// decode_private_message_content decodes a decrypted PrivateMessage
// ciphertext of the PrivateMessage's content_type `type`.
[[nodiscard]] SEALWIRE_API result<private_message_content> decode_private_message_content(
    std::span<const std::uint8_t> in, content_type type, const codec_limits& limits = {});

// encode_framed_content_tbs writes FramedContentTBS (RFC 9420 6.1), what a
// signature covers: version mls10, the wire format, the content and, for
// member and new_member_commit senders, the group context (a missing
// `context` is then a writer error, invalid_value).
SEALWIRE_API void encode_framed_content_tbs(writer& w, wire_format format, const framed_content& content,
                                            const group_context* context);
// encode_authenticated_content_tbm writes AuthenticatedContentTBM (RFC 9420
// 6.2), what a PublicMessage's membership tag covers: FramedContentTBS
// with wire format mls_public_message, then the auth data.
SEALWIRE_API void encode_authenticated_content_tbm(writer& w, const framed_content& content,
                                                   const framed_content_auth_data& auth,
                                                   const group_context* context);
// encode_sender_data_aad writes SenderDataAAD (RFC 9420 6.3.2).
SEALWIRE_API void encode_sender_data_aad(writer& w, std::span<const std::uint8_t> group_id, std::uint64_t epoch,
                                         content_type type);
// encode_private_content_aad writes PrivateContentAAD (RFC 9420 6.3.1).
SEALWIRE_API void encode_private_content_aad(writer& w, std::span<const std::uint8_t> group_id,
                                             std::uint64_t epoch, content_type type,
                                             std::span<const std::uint8_t> authenticated_data);
// encode_confirmed_transcript_hash_input writes ConfirmedTranscriptHashInput
// (RFC 9420 8.2): the wire format, the content and the signature.
SEALWIRE_API void encode_confirmed_transcript_hash_input(writer& w, wire_format format,
                                                         const framed_content& content,
                                                         std::span<const std::uint8_t> signature);
// encode_interim_transcript_hash_input writes InterimTranscriptHashInput
// (RFC 9420 8.2): the confirmation tag as a MAC (opaque<V>).
SEALWIRE_API void encode_interim_transcript_hash_input(writer& w, std::span<const std::uint8_t> confirmation_tag);

}  // namespace sealwire::record::group
