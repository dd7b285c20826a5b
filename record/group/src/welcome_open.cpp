// SPDX-License-Identifier: Apache-2.0
// RFC 9420 12.4.3.1: opening a Welcome as the new member.
#include <sealwire/record/group/welcome_open.hpp>

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/key_schedule.hpp>

#include <algorithm>
#include <array>

namespace sealwire::record::group {

result<bytes> key_package_ref(const suite_algorithms& suite, const key_package& kp) {
  auto encoded = serialize(kp);
  if (!encoded) return encoded.error();
  bytes ref(suite.hash_size());
  auto n = ref_hash(suite, ref, "MLS 1.0 KeyPackage Reference", *encoded);
  if (!n) return n.error();
  return ref;
}

result<group_secrets> decrypt_group_secrets(const suite_algorithms& suite, const welcome& w, bytes_view ref,
                                            const hpke::private_key& init_key) {
  const auto it = std::ranges::find_if(w.secrets, [&](const encrypted_group_secrets& e) {
    return std::ranges::equal(e.new_member, ref);
  });
  if (it == w.secrets.end()) return group_errc::unknown_sender;
  auto plain = decrypt_with_label(suite, init_key, "Welcome", w.encrypted_group_info,
                                  it->encrypted_group_secrets.kem_output, it->encrypted_group_secrets.ciphertext);
  if (!plain) return plain.error();
  crypto::secret_bytes secret(*plain);
  crypto::ct::wipe(*plain);
  return deserialize<group_secrets>(secret.span());
}

result<group_info> decrypt_group_info(const suite_algorithms& suite, const welcome& w, bytes_view joiner_secret,
                                      bytes_view psk_secret) {
  const std::size_t nh = suite.hash_size();
  if (joiner_secret.size() != nh || (!psk_secret.empty() && psk_secret.size() != nh)) {
    return group_errc::invalid_argument;
  }
  // welcome_secret = DeriveSecret(Extract(joiner_secret, psk_secret), "welcome") (RFC 9420 8).
  const std::array<std::uint8_t, max_hash_size> zero{};
  crypto::secret_array<max_hash_size> prk;
  suite.extract(prk.span(), joiner_secret, psk_secret.empty() ? bytes_view(zero).first(nh) : psk_secret);
  crypto::secret_array<max_hash_size> welcome_secret;
  if (auto r = derive_secret(suite, welcome_secret.span(), prk.span().first(nh), "welcome"); !r) return r.error();
  crypto::secret_array<max_aead_key_size> key;
  crypto::secret_array<aead_nonce_size> nonce;
  if (auto r = derive_welcome_key_nonce(suite, key.span().first(suite.key_size()), nonce.span(),
                                        welcome_secret.span().first(nh));
      !r) {
    return r.error();
  }
  if (w.encrypted_group_info.size() < crypto::aead_tag_size) return group_errc::authentication_failed;
  crypto::secret_bytes plain(w.encrypted_group_info.size() - crypto::aead_tag_size);
  if (!crypto::aead_open(suite.aead(), plain.span(), w.encrypted_group_info, associated_data{}, nonce.span(),
                         key.span().first(suite.key_size()))) {
    return group_errc::authentication_failed;
  }
  return deserialize<group_info>(plain.span());
}

result<void> verify_group_info(const suite_algorithms& suite, const group_info& info, bytes_view signer_public_key) {
  writer tbs;
  encode_group_info_tbs(tbs, info);
  if (!tbs.ok()) return tbs.error();
  if (!verify_with_label(suite.signature(), signer_public_key, "GroupInfoTBS", tbs.data(), info.signature)) {
    return group_errc::invalid_signature;
  }
  return {};
}

}  // namespace sealwire::record::group
