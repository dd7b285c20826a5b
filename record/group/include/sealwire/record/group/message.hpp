// SPDX-License-Identifier: Apache-2.0
// MLSMessage (RFC 9420 6): the envelope of every MLS message, selecting one
// of the five wire formats.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/common.hpp>
#include <sealwire/record/group/framing.hpp>
#include <sealwire/record/group/group_info.hpp>
#include <sealwire/record/group/key_package.hpp>
#include <sealwire/record/group/welcome.hpp>

#include <variant>

namespace sealwire::record::group {

// mls_message is MLSMessage (RFC 9420 6) for version mls10: the wire format
// is the alternative held (index + 1). Decoding refuses any other version
// (unknown_value: the body's layout is only defined for mls10) and an
// unknown wire format (unknown_value).
struct mls_message {
  // body is the message, in WireFormat order.
  std::variant<public_message, private_message, group::welcome, group::group_info, group::key_package> body;
  // format is the wire_format of the body held.
  [[nodiscard]] group::wire_format format() const noexcept {
    return static_cast<group::wire_format>(body.index() + 1);
  }
  // Equality is equality of format and body.
  bool operator==(const mls_message&) const = default;
};

// encode writes an MLSMessage: version mls10, the wire format, the body.
SEALWIRE_API void encode(writer& w, const mls_message& v);
// decode reads an MLSMessage.
SEALWIRE_API void decode(reader& r, mls_message& v);

}  // namespace sealwire::record::group
