// SPDX-License-Identifier: Apache-2.0
// The symmetric box: XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha) with a
// random 24-byte nonce, framed as nonce || ciphertext || tag.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/box.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>

#include <cstring>
#include <new>

namespace sealwire::box {
namespace {

constexpr auto algorithm = crypto::aead_algorithm::xchacha20_poly1305;

// sized makes the output vector, or reports that memory ran out.
result<std::vector<std::uint8_t>> sized(std::size_t n) {
  try {
    return std::vector<std::uint8_t>(n);
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
}

}  // namespace

result<key> key::generate() noexcept {
  key k;
  if (auto r = crypto::random_bytes(k.k_.span()); !r) return r.error();
  return k;
}

result<key> key::from_bytes(bytes_view raw) noexcept {
  if (raw.size() != key_size) return crypto_errc::invalid_key;
  key k;
  std::memcpy(k.k_.data(), raw.data(), key_size);
  return k;
}

result<std::size_t> seal_into(std::span<std::uint8_t> out, const key& k, bytes_view plaintext,
                              associated_data ad) noexcept {
  const std::size_t n = sealed_size(plaintext.size());
  if (out.size() < n) return crypto_errc::buffer_too_small;
  const auto nonce = out.first<nonce_size>();
  if (auto r = crypto::random_bytes(nonce); !r) return r.error();
  auto sealed = crypto::aead_seal(algorithm, out.subspan(nonce_size, n - nonce_size), plaintext, ad, nonce, k.bytes());
  if (!sealed) {
    crypto::ct::wipe(out.first(n));
    return sealed.error();
  }
  return n;
}

result<std::size_t> open_into(std::span<std::uint8_t> out, const key& k, bytes_view sealed,
                              associated_data ad) noexcept {
  if (sealed.size() < overhead) return crypto_errc::authentication_failed;
  const std::size_t n = opened_size(sealed.size());
  if (out.size() < n) return crypto_errc::buffer_too_small;
  // aead_open verifies before it decrypts and zeroes out on failure.
  return crypto::aead_open(algorithm, out.first(n), sealed.subspan(nonce_size), ad, sealed.first(nonce_size),
                           k.bytes());
}

result<std::vector<std::uint8_t>> seal(const key& k, bytes_view plaintext, associated_data ad) {
  auto out = sized(sealed_size(plaintext.size()));
  if (!out) return out;
  if (auto r = seal_into(*out, k, plaintext, ad); !r) return r.error();
  return out;
}

result<std::vector<std::uint8_t>> open(const key& k, bytes_view sealed, associated_data ad) {
  if (sealed.size() < overhead) return crypto_errc::authentication_failed;
  auto out = sized(opened_size(sealed.size()));
  if (!out) return out;
  if (auto r = open_into(*out, k, sealed, ad); !r) return r.error();
  return out;
}

}  // namespace sealwire::box
