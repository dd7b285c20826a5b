// SPDX-License-Identifier: Apache-2.0
// Internal: the KEM operations by themselves (RFC 9180 4.1), for tests that
// check shared_secret against the official vectors.
#pragma once

#include <sealwire/hpke/hpke.hpp>

namespace sealwire::hpke::detail {

// encapsulate is Encap (skS == nullptr) or AuthEncap; ikm_e empty = random.
// Writes Nsecret bytes to shared and returns Nsecret.
[[nodiscard]] result<std::size_t> encapsulate(kem_id kem, std::span<std::uint8_t, 64> shared, public_key& enc,
                                              const public_key& pkR, const private_key* skS,
                                              std::span<const std::uint8_t> ikm_e) noexcept;

// decapsulate is Decap (pkS == nullptr) or AuthDecap.
[[nodiscard]] result<std::size_t> decapsulate(kem_id kem, std::span<std::uint8_t, 64> shared,
                                              std::span<const std::uint8_t> enc, const private_key& skR,
                                              const public_key* pkS) noexcept;

// context_test_access reads a context's key schedule outputs and moves its
// sequence number (to test the message limit).
struct context_test_access {
  static std::span<const std::uint8_t> key(const context& c, std::size_t n) { return c.key_.span().first(n); }
  static std::span<const std::uint8_t> base_nonce(const context& c) { return c.base_nonce_.span(); }
  static std::span<const std::uint8_t> exporter_secret(const context& c, std::size_t n) {
    return c.exporter_secret_.span().first(n);
  }
  static void set_sequence(context& c, std::uint64_t low, std::uint32_t high) { c.seq_ = {low, high}; }
};

}  // namespace sealwire::hpke::detail
