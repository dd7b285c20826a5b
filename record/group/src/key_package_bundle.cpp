// SPDX-License-Identifier: Apache-2.0
// RFC 9420 10 and 7.3: making, signing and validating KeyPackages and leaves.
#include <sealwire/record/group/key_package_bundle.hpp>

#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>

#include <algorithm>
#include <chrono>

namespace sealwire::record::group {
namespace {

constexpr std::string_view leaf_label = "LeafNodeTBS";
constexpr std::string_view key_package_label = "KeyPackageTBS";

std::uint64_t clock_now(std::optional<std::uint64_t> now) noexcept {
  if (now) return *now;
  const auto since = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(since).count());
}

bytes to_bytes(bytes_view v) { return bytes(v.begin(), v.end()); }

}  // namespace

result<void> sign_leaf_node(leaf_node& leaf, const signature_private_key& key, bytes_view group_id,
                            std::uint32_t leaf_index) {
  writer tbs;
  encode_leaf_node_tbs(tbs, leaf, group_id, leaf_index);
  if (!tbs.ok()) return tbs.error();
  auto sig = sign_with_label(key, leaf_label, tbs.data());
  if (!sig) return sig.error();
  leaf.signature = std::move(*sig);
  return {};
}

result<void> verify_leaf_node(const suite_algorithms& suite, const leaf_node& leaf, bytes_view group_id,
                              std::uint32_t leaf_index) {
  if (leaf.credential.type != credential_type::basic) return group_errc::invalid_key_package;
  if (!hpke::public_key::from(suite.hpke().kem, leaf.encryption_key)) return group_errc::invalid_key_package;
  writer tbs;
  encode_leaf_node_tbs(tbs, leaf, group_id, leaf_index);
  if (!tbs.ok()) return group_errc::invalid_key_package;
  if (!verify_with_label(suite.signature(), leaf.signature_key, leaf_label, tbs.data(), leaf.signature)) {
    return group_errc::invalid_key_package;
  }
  return {};
}

result<key_package_bundle> make_key_package(const suite_algorithms& suite, bytes_view identity,
                                            signature_private_key signature_key,
                                            const key_package_options& options) {
  if (signature_key.scheme() != suite.signature()) return group_errc::invalid_argument;
  auto init = hpke::generate_key_pair(suite.hpke().kem);
  if (!init) return init.error();
  auto leaf = hpke::generate_key_pair(suite.hpke().kem);
  if (!leaf) return leaf.error();
  const std::uint64_t now = clock_now(options.now);

  key_package kp;
  kp.version = protocol_version::mls10;
  kp.cipher_suite = static_cast<cipher_suite>(suite.id());
  kp.init_key = to_bytes(init->pub.bytes());
  leaf_node& ln = kp.leaf_node;
  ln.encryption_key = to_bytes(leaf->pub.bytes());
  ln.signature_key = to_bytes(signature_key.public_key());
  ln.credential.type = credential_type::basic;
  ln.credential.identity = to_bytes(identity);
  ln.capabilities.versions = {protocol_version::mls10};
  ln.capabilities.cipher_suites = {kp.cipher_suite};
  ln.capabilities.credentials = {credential_type::basic};
  ln.source = leaf_node_source::key_package;
  ln.life.not_before = now >= 3600 ? now - 3600 : 0;
  ln.life.not_after = now + options.validity;
  if (auto s = sign_leaf_node(ln, signature_key, {}, 0); !s) return s.error();
  // signature = SignWithLabel(., "KeyPackageTBS", KeyPackageTBS) (RFC 9420 10).
  writer tbs;
  encode_key_package_tbs(tbs, kp);
  if (!tbs.ok()) return tbs.error();
  auto sig = sign_with_label(signature_key, key_package_label, tbs.data());
  if (!sig) return sig.error();
  kp.signature = std::move(*sig);
  return key_package_bundle{std::move(kp), std::move(init->priv), std::move(leaf->priv), std::move(signature_key)};
}

result<void> validate_key_package(const suite_algorithms& suite, const key_package& kp,
                                  std::optional<std::uint64_t> now) {
  const leaf_node& ln = kp.leaf_node;
  if (kp.version != protocol_version::mls10 || kp.cipher_suite != static_cast<cipher_suite>(suite.id()) ||
      ln.source != leaf_node_source::key_package) {
    return group_errc::invalid_key_package;
  }
  // The init key must differ from the leaf's encryption key (RFC 9420 10.1).
  if (!hpke::public_key::from(suite.hpke().kem, kp.init_key) || std::ranges::equal(kp.init_key, ln.encryption_key)) {
    return group_errc::invalid_key_package;
  }
  const std::uint64_t t = clock_now(now);
  if (t < ln.life.not_before || t > ln.life.not_after) return group_errc::invalid_key_package;
  if (auto v = verify_leaf_node(suite, ln, {}, 0); !v) return v.error();
  writer tbs;
  encode_key_package_tbs(tbs, kp);
  if (!tbs.ok()) return group_errc::invalid_key_package;
  if (!verify_with_label(suite.signature(), ln.signature_key, key_package_label, tbs.data(), kp.signature)) {
    return group_errc::invalid_key_package;
  }
  return {};
}

}  // namespace sealwire::record::group
