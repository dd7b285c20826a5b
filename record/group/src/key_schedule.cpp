// SPDX-License-Identifier: Apache-2.0
// RFC 9420 section 8: the key schedule, MLS-Exporter and the external key pair.
#include <sealwire/record/group/key_schedule.hpp>

#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>

#include <array>

namespace sealwire::record::group {
namespace {

// or_zero is secret, or Nh zero bytes when it is empty (RFC 9420 8: "0").
bytes_view or_zero(bytes_view secret, const std::array<std::uint8_t, max_hash_size>& zero, std::size_t nh) noexcept {
  return secret.empty() ? bytes_view(zero).first(nh) : secret;
}

result<void> derive_into(const suite_algorithms& suite, crypto::secret_bytes& out, bytes_view secret,
                         std::string_view label) {
  out = crypto::secret_bytes(suite.hash_size());
  return derive_secret(suite, out.span(), secret, label);
}

}  // namespace

result<epoch_secrets> derive_epoch_secrets(const suite_algorithms& suite, bytes_view init_secret,
                                           bytes_view commit_secret, bytes_view psk_secret,
                                           bytes_view group_context) {
  const std::size_t nh = suite.hash_size();
  if (init_secret.size() != nh || (!commit_secret.empty() && commit_secret.size() != nh)) {
    return group_errc::invalid_argument;
  }
  const std::array<std::uint8_t, max_hash_size> zero{};
  // KDF.Extract takes init_secret as its salt and commit_secret as its IKM;
  // joiner_secret = ExpandWithLabel(., "joiner", GroupContext_[n], KDF.Nh) (RFC 9420 8).
  crypto::secret_array<max_hash_size> prk;
  suite.extract(prk.span(), init_secret, or_zero(commit_secret, zero, nh));
  crypto::secret_bytes joiner(nh);
  if (auto r = expand_with_label(suite, joiner.span(), prk.span().first(nh), "joiner", group_context); !r) {
    return r.error();
  }
  return derive_epoch_secrets_from_joiner(suite, joiner.span(), psk_secret, group_context);
}

result<epoch_secrets> derive_epoch_secrets_from_joiner(const suite_algorithms& suite, bytes_view joiner_secret,
                                                       bytes_view psk_secret, bytes_view group_context) {
  const std::size_t nh = suite.hash_size();
  if (joiner_secret.size() != nh || (!psk_secret.empty() && psk_secret.size() != nh)) {
    return group_errc::invalid_argument;
  }
  const std::array<std::uint8_t, max_hash_size> zero{};
  epoch_secrets s;
  s.joiner_secret = crypto::secret_bytes(joiner_secret);
  // Extract(salt = joiner_secret, ikm = psk_secret) feeds welcome_secret
  // and epoch_secret (RFC 9420 8).
  crypto::secret_array<max_hash_size> prk;
  suite.extract(prk.span(), joiner_secret, or_zero(psk_secret, zero, nh));
  const bytes_view member = prk.span().first(nh);
  if (auto r = derive_into(suite, s.welcome_secret, member, "welcome"); !r) return r.error();
  s.epoch_secret = crypto::secret_bytes(nh);
  if (auto r = expand_with_label(suite, s.epoch_secret.span(), member, "epoch", group_context); !r) return r.error();
  // The epoch-derived secrets (RFC 9420 8, table 4).
  const bytes_view epoch = s.epoch_secret.span();
  struct row {
    crypto::secret_bytes* out;
    std::string_view label;
  };
  const row rows[] = {
      {&s.sender_data_secret, "sender data"}, {&s.encryption_secret, "encryption"},
      {&s.exporter_secret, "exporter"},       {&s.external_secret, "external"},
      {&s.confirmation_key, "confirm"},       {&s.membership_key, "membership"},
      {&s.resumption_psk, "resumption"},      {&s.epoch_authenticator, "authentication"},
      {&s.init_secret, "init"},
  };
  for (const row& r : rows) {
    if (auto d = derive_into(suite, *r.out, epoch, r.label); !d) return d.error();
  }
  return s;
}

result<void> derive_welcome_key_nonce(const suite_algorithms& suite, std::span<std::uint8_t> key,
                                      std::span<std::uint8_t> nonce, bytes_view welcome_secret) {
  if (key.size() != suite.key_size() || nonce.size() != suite.nonce_size()) return group_errc::invalid_argument;
  if (auto r = expand_with_label(suite, key, welcome_secret, "key", {}); !r) return r;
  return expand_with_label(suite, nonce, welcome_secret, "nonce", {});
}

result<void> mls_exporter(const suite_algorithms& suite, std::span<std::uint8_t> out, bytes_view exporter_secret,
                          std::string_view label, bytes_view context) {
  const std::size_t nh = suite.hash_size();
  crypto::secret_array<max_hash_size> derived;
  if (auto r = derive_secret(suite, derived.span(), exporter_secret, label); !r) return r;
  std::array<std::uint8_t, max_hash_size> context_hash{};
  suite.digest(context_hash, {context});
  return expand_with_label(suite, out, derived.span().first(nh), "exported", bytes_view(context_hash).first(nh));
}

result<hpke::key_pair> external_key_pair(const suite_algorithms& suite, bytes_view external_secret) noexcept {
  return hpke::derive_key_pair(suite.hpke().kem, external_secret);
}

}  // namespace sealwire::record::group
