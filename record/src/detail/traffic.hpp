// SPDX-License-Identifier: Apache-2.0
// Internal: one direction's traffic protection (docs/protocol.md 3): the
// record AEAD's properties, keys and IVs from a traffic secret, the key
// update ratchet, per-record nonces, the record header and the key limits.
#pragma once

#include <sealwire/record/connection.hpp>

#include <cstddef>
#include <cstdint>

namespace sealwire::record::detail {

// Outer record types (docs/protocol.md 3).
inline constexpr std::uint8_t type_handshake = 1;
inline constexpr std::uint8_t type_protected = 2;
// Inner content types, inside the protected record (docs/protocol.md 3.1).
inline constexpr std::uint8_t inner_application_data = 2;
inline constexpr std::uint8_t inner_key_update = 3;
inline constexpr std::uint8_t inner_close = 4;

crypto::aead_algorithm algorithm_of(record_aead a) noexcept;
bool known_aead(unsigned id) noexcept;
std::string_view aead_name(record_aead a) noexcept;
const char* role_name(role r) noexcept;

// setup_direction fills in the sizes and algorithms of a direction for the
// handshake's choices (before its traffic secret is set).
void setup_direction(direction_keys& d, record_aead aead, hpke::kdf_id kdf, std::size_t nh) noexcept;
// derive_keys sets key and IV from the direction's traffic secret, seq = 0
// (docs/protocol.md 3.6).
void derive_keys(direction_keys& d) noexcept;
// ratchet moves the direction to its next traffic secret and derives its keys.
void ratchet(direction_keys& d) noexcept;
// wipe_direction wipes the direction's secret, key and IV.
void wipe_direction(direction_keys& d) noexcept;
// make_nonce writes iv XOR seq (nonce_size bytes).
void make_nonce(const direction_keys& d, std::uint8_t* nonce) noexcept;
// aead_blocks_limit is the AEAD's limit of records + 16-byte blocks per key
// (docs/protocol.md 3.5); key_blocks_limit is that, lowered by the limits'
// key_blocks_limit when set.
std::uint64_t aead_blocks_limit(crypto::aead_algorithm alg) noexcept;
std::uint64_t key_blocks_limit(const limits& l, crypto::aead_algorithm alg) noexcept;

void put_header(std::uint8_t* h, std::uint8_t type, std::size_t len) noexcept;

}  // namespace sealwire::record::detail
