// SPDX-License-Identifier: Apache-2.0
// GroupInfo (RFC 9420 12.4.3): what a joiner learns of the group, signed by
// a member, and the GroupInfoTBS the signature covers.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>
#include <sealwire/record/group/group_context.hpp>

#include <cstdint>
#include <vector>

namespace sealwire::record::group {

// group_info is GroupInfo (RFC 9420 12.4.3).
struct group_info {
  group::group_context group_context;  // GroupContext group_context
  std::vector<extension> extensions;   // Extension extensions<V>
  bytes confirmation_tag;              // MAC confirmation_tag
  std::uint32_t signer = 0;            // the signer's leaf index
  bytes signature;                     // signature<V>
  // Equality is equality of every field.
  bool operator==(const group_info&) const = default;
};

// encode writes a GroupInfo.
SEALWIRE_API void encode(writer& w, const group_info& v);
// decode reads a GroupInfo.
SEALWIRE_API void decode(reader& r, group_info& v);
// encode_group_info_tbs writes GroupInfoTBS: the group info without its signature.
SEALWIRE_API void encode_group_info_tbs(writer& w, const group_info& v);

}  // namespace sealwire::record::group
