// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the MLS codec (record/group). Decodes the input as one of the
// RFC 9420 structures and, when decoding succeeds, encodes the value again:
// the codec is strict (minimal lengths, no trailing bytes, presence octets
// 0/1, zero padding), so every accepted input has exactly one encoding and
// the re-encoding must equal the input byte for byte. A decoder that reads
// out of bounds or an encoder that disagrees is a finding.
//
// Input: a selector byte, then the encoding. The selector's value modulo
// kinds picks the structure; for PrivateMessageContent, selector / kinds
// picks the content type (0 to 3, 0 being unknown).
#include <sealwire/record/group/commit.hpp>
#include <sealwire/record/group/framing.hpp>
#include <sealwire/record/group/group_context.hpp>
#include <sealwire/record/group/group_info.hpp>
#include <sealwire/record/group/key_package.hpp>
#include <sealwire/record/group/leaf_node.hpp>
#include <sealwire/record/group/message.hpp>
#include <sealwire/record/group/proposals.hpp>
#include <sealwire/record/group/ratchet_tree.hpp>
#include <sealwire/record/group/welcome.hpp>

#include "group_seeds.hpp"
#include "harness.hpp"

#include <algorithm>

using namespace sealwire;
namespace g = sealwire::record::group;

namespace {

template <class T>
void round_trip(std::span<const std::uint8_t> in) {
  auto v = g::deserialize<T>(in);
  if (!v) return;
  const auto out = g::serialize(*v);
  if (!out) fuzz::fatal("a decoded MLS structure does not encode");
  if (!std::equal(out->begin(), out->end(), in.begin(), in.end()))
    fuzz::fatal("an MLS structure re-encodes to different bytes");
  if constexpr (std::equality_comparable<T>) {
    const auto again = g::deserialize<T>(*out);
    if (!again || !(*again == *v)) fuzz::fatal("an MLS structure decodes differently the second time");
  }
}

void content_round_trip(std::span<const std::uint8_t> in, g::content_type type) {
  const auto v = g::decode_private_message_content(in, type);
  if (!v) return;
  const auto out = g::serialize(*v);
  if (!out) fuzz::fatal("a decoded PrivateMessageContent does not encode");
  if (!std::equal(out->begin(), out->end(), in.begin(), in.end()))
    fuzz::fatal("a PrivateMessageContent re-encodes to different bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::span<const std::uint8_t> in(data + 1, size - 1);
  const unsigned kinds = static_cast<unsigned>(fuzz::group_kind::count);
  const auto kind = static_cast<fuzz::group_kind>(data[0] % kinds);
  using k = fuzz::group_kind;
  switch (kind) {
    case k::mls_message: round_trip<g::mls_message>(in); break;
    case k::ratchet_tree: round_trip<g::ratchet_tree>(in); break;
    case k::group_secrets: round_trip<g::group_secrets>(in); break;
    case k::add: round_trip<g::add>(in); break;
    case k::update: round_trip<g::update>(in); break;
    case k::remove: round_trip<g::remove>(in); break;
    case k::pre_shared_key: round_trip<g::pre_shared_key>(in); break;
    case k::reinit: round_trip<g::reinit>(in); break;
    case k::external_init: round_trip<g::external_init>(in); break;
    case k::group_context_extensions: round_trip<g::group_context_extensions>(in); break;
    case k::commit: round_trip<g::commit>(in); break;
    case k::key_package: round_trip<g::key_package>(in); break;
    case k::leaf_node: round_trip<g::leaf_node>(in); break;
    case k::group_context: round_trip<g::group_context>(in); break;
    case k::group_info: round_trip<g::group_info>(in); break;
    case k::welcome: round_trip<g::welcome>(in); break;
    case k::authenticated_content: round_trip<g::authenticated_content>(in); break;
    case k::sender_data: round_trip<g::sender_data>(in); break;
    case k::private_message_content:
      content_round_trip(in, static_cast<g::content_type>((data[0] / kinds) % 4));
      break;
    case k::count: break;
  }
  return 0;
}
