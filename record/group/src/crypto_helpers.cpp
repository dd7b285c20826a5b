// SPDX-License-Identifier: Apache-2.0
// RFC 9420 section 5: the labeled helpers, their label structures encoded
// by the codec.
#include <sealwire/record/group/crypto_helpers.hpp>

#include <sealwire/hpke/single_shot.hpp>
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/group_error.hpp>

#include <array>
#include <limits>

namespace sealwire::record::group {
namespace {

constexpr std::string_view label_prefix = "MLS 1.0 ";

// write_label writes opaque label<V> = "MLS 1.0 " + label.
void write_label(writer& w, std::string_view label) {
  w.varint(label_prefix.size() + label.size());
  w.fixed(bytes_of(label_prefix));
  w.fixed(bytes_of(label));
}

// encode_labeled writes struct { opaque label<V>; opaque content<V>; }, the
// shape of SignContent and EncryptContext (RFC 9420 5.1.2, 5.1.3).
void encode_labeled(writer& w, std::string_view label, bytes_view content) {
  write_label(w, label);
  w.opaque(content);
}

}  // namespace

result<std::size_t> ref_hash(const suite_algorithms& suite, std::span<std::uint8_t> out, std::string_view label,
                             bytes_view value) {
  // RefHashInput { opaque label<V>; opaque value<V>; } (RFC 9420 5.2).
  writer w;
  w.opaque(bytes_of(label));
  w.opaque(value);
  if (!w.ok()) return w.error();
  return suite.digest(out, {w.data()});
}

result<void> expand_with_label(const suite_algorithms& suite, std::span<std::uint8_t> out, bytes_view secret,
                               std::string_view label, bytes_view context) {
  if (out.size() > std::numeric_limits<std::uint16_t>::max()) return group_errc::invalid_argument;
  // KDFLabel { uint16 length; opaque label<V>; opaque context<V>; } (RFC 9420 5.1).
  writer w;
  w.u16(static_cast<std::uint16_t>(out.size()));
  encode_labeled(w, label, context);
  if (!w.ok()) return w.error();
  return suite.expand(out, secret, w.data());
}

result<void> derive_secret(const suite_algorithms& suite, std::span<std::uint8_t> out, bytes_view secret,
                           std::string_view label) {
  return expand_with_label(suite, out.first(suite.hash_size()), secret, label, {});
}

result<void> derive_tree_secret(const suite_algorithms& suite, std::span<std::uint8_t> out, bytes_view secret,
                                std::string_view label, std::uint32_t generation) {
  const std::array<std::uint8_t, 4> context{static_cast<std::uint8_t>(generation >> 24),
                                            static_cast<std::uint8_t>(generation >> 16),
                                            static_cast<std::uint8_t>(generation >> 8),
                                            static_cast<std::uint8_t>(generation)};
  return expand_with_label(suite, out, secret, label, context);
}

result<std::vector<std::uint8_t>> sign_with_label(const signature_private_key& key, std::string_view label,
                                                  bytes_view content) {
  writer w;
  encode_labeled(w, label, content);
  if (!w.ok()) return w.error();
  return key.sign(w.data());
}

result<void> verify_with_label(signature_scheme scheme, bytes_view public_key, std::string_view label,
                               bytes_view content, bytes_view signature) {
  writer w;
  encode_labeled(w, label, content);
  if (!w.ok()) return w.error();
  return verify_signature(scheme, public_key, w.data(), signature);
}

result<labeled_ciphertext> encrypt_with_label(const suite_algorithms& suite, const hpke::public_key& public_key,
                                              std::string_view label, bytes_view context, bytes_view plaintext,
                                              bytes_view ikm_e) {
  writer w;
  encode_labeled(w, label, context);
  if (!w.ok()) return w.error();
  hpke::sender_options options;
  options.info = w.data();
  options.ikm_e = ikm_e;
  labeled_ciphertext out;
  out.ciphertext.resize(plaintext.size() + crypto::aead_tag_size);
  hpke::public_key enc;
  auto n = hpke::seal(out.ciphertext, enc, suite.hpke(), public_key, options, plaintext, associated_data{});
  if (!n) return n.error();
  out.ciphertext.resize(*n);
  out.kem_output.assign(enc.bytes().begin(), enc.bytes().end());
  return out;
}

result<std::vector<std::uint8_t>> decrypt_with_label(const suite_algorithms& suite, const hpke::private_key& private_key,
                                                     std::string_view label, bytes_view context,
                                                     bytes_view kem_output, bytes_view ciphertext) {
  if (ciphertext.size() < crypto::aead_tag_size) return hpke_errc::open_failed;
  writer w;
  encode_labeled(w, label, context);
  if (!w.ok()) return w.error();
  hpke::recipient_options options;
  options.info = w.data();
  std::vector<std::uint8_t> plaintext(ciphertext.size() - crypto::aead_tag_size);
  auto n = hpke::open(plaintext, suite.hpke(), kem_output, private_key, options, ciphertext, associated_data{});
  if (!n) return n.error();
  plaintext.resize(*n);
  return plaintext;
}

}  // namespace sealwire::record::group
