// SPDX-License-Identifier: Apache-2.0
// HPKE (RFC 9180): the KDF and AEAD tables (7.2, 7.3), the labelled
// derivations (4), and the names of every id.
#include <sealwire/hpke/suite.hpp>

#include "detail/kem.hpp"
#include "detail/tables.hpp"

namespace sealwire::hpke {
namespace detail {
namespace {

constexpr std::string_view version_label = "HPKE-v1";  // RFC 9180 4

constexpr kdf_desc kdfs[] = {
    {kdf_id::hkdf_sha256, crypto::hash_algorithm::sha2_256, 32},
    {kdf_id::hkdf_sha384, crypto::hash_algorithm::sha2_384, 48},
    {kdf_id::hkdf_sha512, crypto::hash_algorithm::sha2_512, 64},
};

constexpr aead_desc aeads[] = {
    {aead_id::aes128_gcm, 16, 12, 16, crypto::aead_algorithm::aes128_gcm},
    {aead_id::aes256_gcm, 32, 12, 16, crypto::aead_algorithm::aes256_gcm},
    {aead_id::chacha20_poly1305, 32, 12, 16, crypto::aead_algorithm::chacha20_poly1305},
    {aead_id::export_only, 0, 0, 0, crypto::aead_algorithm::chacha20_poly1305},
};

}  // namespace

const kdf_desc* find_kdf(kdf_id id) noexcept {
  for (const auto& k : kdfs)
    if (k.id == id) return &k;
  return nullptr;
}

const aead_desc* find_aead(aead_id id) noexcept {
  for (const auto& a : aeads)
    if (a.id == id) return &a;
  return nullptr;
}

const kdf_desc& kdf_of(kdf_id id) noexcept {
  const kdf_desc* k = find_kdf(id);
  SEALWIRE_EXPECTS(k != nullptr);
  return *k;
}

hpke_suite_id::hpke_suite_id(const suite& s) noexcept {
  const unsigned ids[3] = {static_cast<unsigned>(s.kem), static_cast<unsigned>(s.kdf), static_cast<unsigned>(s.aead)};
  b[0] = 'H';
  b[1] = 'P';
  b[2] = 'K';
  b[3] = 'E';
  for (std::size_t i = 0; i < 3; ++i) {
    b[4 + 2 * i] = static_cast<std::uint8_t>(ids[i] >> 8);
    b[5 + 2 * i] = static_cast<std::uint8_t>(ids[i]);
  }
}

void labeled_extract(const kdf_desc& kdf, bytes_view suite_id, std::span<std::uint8_t> prk, bytes_view salt,
                     std::string_view label, bytes_view ikm) noexcept {
  crypto::hkdf_extract(kdf.hash, prk.first(kdf.nh), salt, {bytes_of(version_label), suite_id, bytes_of(label), ikm});
}

result<void> labeled_expand(const kdf_desc& kdf, bytes_view suite_id, std::span<std::uint8_t> out, bytes_view prk,
                            std::string_view label, bytes_view info) noexcept {
  if (out.size() > 0xffff) return hpke_errc::export_too_long;
  const std::uint8_t length[2] = {static_cast<std::uint8_t>(out.size() >> 8), static_cast<std::uint8_t>(out.size())};
  if (!crypto::hkdf_expand(kdf.hash, out, prk,
                           {bytes_view(length), bytes_of(version_label), suite_id, bytes_of(label), info})) {
    return hpke_errc::export_too_long;
  }
  return {};
}

}  // namespace detail

// ---- names ----

namespace {

constexpr naming::entry<mode> mode_names[] = {
    {mode::base, "base"}, {mode::psk, "psk"}, {mode::auth, "auth"}, {mode::auth_psk, "auth_psk"}};
constexpr naming::entry<kem_id> kem_names[] = {{kem_id::x25519, "x25519"},
                                               {kem_id::x448, "x448"},
                                               {kem_id::p256, "p256"},
                                               {kem_id::p384, "p384"},
                                               {kem_id::p521, "p521"},
                                               {kem_id::ml_kem_512, "mlkem512"},
                                               {kem_id::ml_kem_768, "mlkem768"},
                                               {kem_id::ml_kem_1024, "mlkem1024"},
                                               {kem_id::xwing, "xwing"}};
constexpr naming::entry<kdf_id> kdf_names[] = {
    {kdf_id::hkdf_sha256, "hkdf-sha256"}, {kdf_id::hkdf_sha384, "hkdf-sha384"}, {kdf_id::hkdf_sha512, "hkdf-sha512"}};
constexpr naming::entry<aead_id> aead_names[] = {{aead_id::aes128_gcm, "aes128gcm"},
                                                 {aead_id::aes256_gcm, "aes256gcm"},
                                                 {aead_id::chacha20_poly1305, "chacha20poly1305"},
                                                 {aead_id::export_only, "export-only"}};

}  // namespace

std::string_view to_string(mode m) noexcept { return naming::name_of(m, mode_names); }
std::string_view to_string(kem_id id) noexcept { return naming::name_of(id, kem_names); }
std::string_view to_string(kdf_id id) noexcept { return naming::name_of(id, kdf_names); }
std::string_view to_string(aead_id id) noexcept { return naming::name_of(id, aead_names); }

std::string to_string(const suite& s) {
  std::string out(to_string(s.kem));
  out += ',';
  out += to_string(s.kdf);
  out += ',';
  out += to_string(s.aead);
  return out;
}

result<crypto::hash_algorithm> kdf_hash(kdf_id kdf) noexcept {
  const detail::kdf_desc* k = detail::find_kdf(kdf);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  return k->hash;
}

result<void> check_suite(const suite& s) noexcept {
  if (detail::find_kem(s.kem) == nullptr || detail::find_kdf(s.kdf) == nullptr || detail::find_aead(s.aead) == nullptr)
    return hpke_errc::unsupported_suite;
  return {};
}

result<kem_sizes> kem_info(kem_id kem) noexcept {
  const detail::kem_desc* k = detail::find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  return k->sizes;
}

bool kem_supports_auth(kem_id kem) noexcept {
  const detail::kem_desc* k = detail::find_kem(kem);
  return k != nullptr && k->pq == nullptr;
}

}  // namespace sealwire::hpke

namespace sealwire {

template <>
result<hpke::mode> parse<hpke::mode>(std::string_view text) noexcept {
  return naming::parse_in(text, hpke::mode_names, true);
}
template <>
result<hpke::kem_id> parse<hpke::kem_id>(std::string_view text) noexcept {
  return naming::parse_in(text, hpke::kem_names, true);
}
template <>
result<hpke::kdf_id> parse<hpke::kdf_id>(std::string_view text) noexcept {
  return naming::parse_in(text, hpke::kdf_names, true);
}
template <>
result<hpke::aead_id> parse<hpke::aead_id>(std::string_view text) noexcept {
  return naming::parse_in(text, hpke::aead_names, true);
}

template <>
result<hpke::suite> parse<hpke::suite>(std::string_view text) noexcept {
  const auto first = text.find(',');
  if (first == std::string_view::npos) return crypto_errc::unknown_algorithm;
  const auto second = text.find(',', first + 1);
  if (second == std::string_view::npos || text.find(',', second + 1) != std::string_view::npos)
    return crypto_errc::unknown_algorithm;
  auto kem = parse<hpke::kem_id>(text.substr(0, first));
  auto kdf = parse<hpke::kdf_id>(text.substr(first + 1, second - first - 1));
  auto aead = parse<hpke::aead_id>(text.substr(second + 1));
  if (!kem || !kdf || !aead) return crypto_errc::unknown_algorithm;
  return hpke::suite{*kem, *kdf, *aead};
}

}  // namespace sealwire
