// SPDX-License-Identifier: Apache-2.0
// HPKE's single-shot APIs (RFC 9180 6.1): one setup, one message; in vectors
// (enc || ciphertext) and in caller-sized spans.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/hpke/single_shot.hpp>

#include "detail/tables.hpp"

#include <new>

namespace sealwire::hpke {
namespace {

// tag_size_of is the suite's Nt; export_only for the export-only AEAD.
result<std::size_t> tag_size_of(const suite& s) noexcept {
  const detail::aead_desc* a = detail::find_aead(s.aead);
  if (a == nullptr) return hpke_errc::unsupported_suite;
  if (a->id == aead_id::export_only) return hpke_errc::export_only;
  return a->nt;
}

// seal_parts seals into enc and ct, sized here.
result<void> seal_parts(std::vector<std::uint8_t>& enc, std::vector<std::uint8_t>& ct, const public_key& recipient,
                        bytes_view plaintext, const message_options& o) {
  auto nt = tag_size_of(o.suite);
  if (!nt) return nt.error();
  sender_options so;
  so.info = o.info;
  auto setup = setup_sender(o.suite, recipient, so);
  if (!setup) return setup.error();
  try {
    ct.resize(plaintext.size() + *nt);
    enc.assign(setup->enc.bytes().begin(), setup->enc.bytes().end());
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  auto n = setup->context.seal(ct, plaintext, o.aad);
  if (!n) return n.error();
  return {};
}

}  // namespace

result<sealed_message> seal_split(const public_key& recipient, bytes_view plaintext, const message_options& options) {
  sealed_message m;
  if (auto r = seal_parts(m.enc, m.ciphertext, recipient, plaintext, options); !r) return r.error();
  return m;
}

result<std::vector<std::uint8_t>> seal(const public_key& recipient, bytes_view plaintext,
                                       const message_options& options) {
  auto parts = seal_split(recipient, plaintext, options);
  if (!parts) return parts.error();
  std::vector<std::uint8_t> out;
  try {
    out.reserve(parts->enc.size() + parts->ciphertext.size());
    out.insert(out.end(), parts->enc.begin(), parts->enc.end());
    out.insert(out.end(), parts->ciphertext.begin(), parts->ciphertext.end());
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  return out;
}

result<std::vector<std::uint8_t>> open_split(const private_key& recipient, bytes_view enc, bytes_view ciphertext,
                                             const message_options& options) {
  auto nt = tag_size_of(options.suite);
  if (!nt) return nt.error();
  recipient_options ro;
  ro.info = options.info;
  auto ctx = setup_recipient(options.suite, enc, recipient, ro);
  if (!ctx) return ctx.error();
  if (ciphertext.size() < *nt) return hpke_errc::open_failed;
  std::vector<std::uint8_t> out;
  try {
    out.resize(ciphertext.size() - *nt);
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  auto n = ctx->open(out, ciphertext, options.aad);
  if (!n) return n.error();  // open zeroed out
  return out;
}

result<std::vector<std::uint8_t>> open(const private_key& recipient, bytes_view sealed,
                                       const message_options& options) {
  auto sizes = kem_info(options.suite.kem);
  if (!sizes) return sizes.error();
  if (sealed.size() < sizes->enc) return hpke_errc::invalid_encapsulation;
  return open_split(recipient, sealed.first(sizes->enc), sealed.subspan(sizes->enc), options);
}

result<std::size_t> seal(std::span<std::uint8_t> out, public_key& enc, const suite& s, const public_key& recipient,
                         const sender_options& options, bytes_view pt, associated_data ad) noexcept {
  auto setup = setup_sender(s, recipient, options);
  if (!setup) return setup.error();
  auto n = setup->context.seal(out, pt, ad);
  if (n) enc = setup->enc;
  return n;
}

result<std::size_t> open(std::span<std::uint8_t> out, const suite& s, bytes_view enc, const private_key& recipient,
                         const recipient_options& options, bytes_view ct, associated_data ad) noexcept {
  auto ctx = setup_recipient(s, enc, recipient, options);
  if (!ctx) return ctx.error();
  return ctx->open(out, ct, ad);
}

}  // namespace sealwire::hpke
