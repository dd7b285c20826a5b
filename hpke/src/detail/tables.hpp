// SPDX-License-Identifier: Apache-2.0
// Internal: the KDF and AEAD tables of RFC 9180 7.2 and 7.3, and the
// labelled derivations every part of HPKE uses (section 4).
#pragma once

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/kdf.hpp>
#include <sealwire/hpke/suite.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::hpke::detail {

// kdf_desc is one KDF: its hash and Nh.
struct kdf_desc {
  kdf_id id;
  crypto::hash_algorithm hash;
  std::size_t nh;
};

// aead_desc is one AEAD: its sizes and sealwire's algorithm.
struct aead_desc {
  aead_id id;
  std::size_t nk, nn, nt;
  crypto::aead_algorithm alg;  // unused for export-only
};

[[nodiscard]] const kdf_desc* find_kdf(kdf_id id) noexcept;
[[nodiscard]] const aead_desc* find_aead(aead_id id) noexcept;
// kdf_of is for ids already checked (a suite that passed check_suite, or a
// KEM's own KDF): a missing entry is a bug, not input.
[[nodiscard]] const kdf_desc& kdf_of(kdf_id id) noexcept;

// suite_id = "KEM" || I2OSP(kem_id, 2) for the KEM's own derivations (4.1).
struct kem_suite_id {
  std::uint8_t b[5];
  explicit kem_suite_id(kem_id id) noexcept
      : b{'K', 'E', 'M', static_cast<std::uint8_t>(static_cast<unsigned>(id) >> 8), static_cast<std::uint8_t>(id)} {}
  [[nodiscard]] bytes_view view() const noexcept { return b; }
};

// suite_id = "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2) (5.1).
struct hpke_suite_id {
  std::uint8_t b[10];
  explicit hpke_suite_id(const suite& s) noexcept;
  [[nodiscard]] bytes_view view() const noexcept { return b; }
};

// LabeledExtract and LabeledExpand (RFC 9180 4): the label and suite id go in
// as extra pieces of the HKDF inputs, so nothing is concatenated in memory.
void labeled_extract(const kdf_desc& kdf, bytes_view suite_id, std::span<std::uint8_t> prk, bytes_view salt,
                     std::string_view label, bytes_view ikm) noexcept;
[[nodiscard]] result<void> labeled_expand(const kdf_desc& kdf, bytes_view suite_id, std::span<std::uint8_t> out,
                                          bytes_view prk, std::string_view label, bytes_view info) noexcept;

}  // namespace sealwire::hpke::detail
