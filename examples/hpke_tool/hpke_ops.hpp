// SPDX-License-Identifier: Apache-2.0
// sealwire-hpke's calls into the HPKE contexts and key loading, in one
// place: every part of the tool (commands, batch, vectors) seals, opens and
// loads keys through these.
#pragma once

#include <sealwire/hpke/hpke.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::tool {

// seal_message seals pt with aad as the context's next message into out
// (ct || tag) and returns the bytes written.
[[nodiscard]] inline result<std::size_t> seal_message(hpke::sender_context& ctx, std::span<std::uint8_t> out,
                                                      std::span<const std::uint8_t> pt,
                                                      std::span<const std::uint8_t> aad) noexcept {
  return ctx.seal(out, pt, associated_data(aad));
}

// open_message opens ct (ct || tag) with aad as the context's next message
// into out and returns the plaintext length.
[[nodiscard]] inline result<std::size_t> open_message(hpke::recipient_context& ctx, std::span<std::uint8_t> out,
                                                      std::span<const std::uint8_t> ct,
                                                      std::span<const std::uint8_t> aad) noexcept {
  return ctx.open(out, ct, associated_data(aad));
}

// load_public_key and load_private_key deserialize a key of the given KEM.
[[nodiscard]] inline result<hpke::public_key> load_public_key(hpke::kem_id kem,
                                                              std::span<const std::uint8_t> bytes) noexcept {
  return hpke::public_key::from(kem, bytes);
}
[[nodiscard]] inline result<hpke::private_key> load_private_key(hpke::kem_id kem,
                                                                std::span<const std::uint8_t> bytes) noexcept {
  return hpke::private_key::from(kem, bytes);
}

}  // namespace sealwire::tool
