// SPDX-License-Identifier: Apache-2.0
// GroupContext (RFC 9420 8.1): the group's state summary that key
// derivation, signatures and Welcome messages bind to.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>

#include <cstdint>
#include <vector>

namespace sealwire::record::group {

// group_context is GroupContext (RFC 9420 8.1). The version is carried as it is.
struct group_context {
  protocol_version version = protocol_version::mls10;  // version
  group::cipher_suite cipher_suite{};                  // cipher_suite
  bytes group_id;                                      // group_id<V>
  std::uint64_t epoch = 0;                             // epoch
  bytes tree_hash;                                     // tree_hash<V>
  bytes confirmed_transcript_hash;                     // confirmed_transcript_hash<V>
  std::vector<extension> extensions;                   // Extension extensions<V>
  // Equality is equality of every field.
  bool operator==(const group_context&) const = default;
};

// encode writes a GroupContext.
SEALWIRE_API void encode(writer& w, const group_context& v);
// decode reads a GroupContext.
SEALWIRE_API void decode(reader& r, group_context& v);

}  // namespace sealwire::record::group
