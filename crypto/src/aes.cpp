// SPDX-License-Identifier: Apache-2.0
// The AES forward cipher on single blocks (FIPS 197), on the AES-GCM key
// schedule and kernels (aes_gcm.cpp): no second AES implementation.
#include <sealwire/crypto/aes.hpp>

#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/ct.hpp>

#include "detail/gcm.hpp"

#include <cstring>
#include <new>

namespace sealwire::crypto {
namespace {

detail::gcm_key& key_of(detail::state_storage<detail::aes_block_storage>& s) noexcept {
  return *std::launder(static_cast<detail::gcm_key*>(s.get()));
}

}  // namespace

static_assert(sizeof(detail::gcm_key) <= detail::aes_block_storage);

aes_block_cipher::aes_block_cipher() noexcept { ::new (storage_.get()) detail::gcm_key{}; }

aes_block_cipher::~aes_block_cipher() { wipe(); }

aes_block_cipher::aes_block_cipher(aes_block_cipher&& other) noexcept : aes_block_cipher() {
  *this = std::move(other);
}

aes_block_cipher& aes_block_cipher::operator=(aes_block_cipher&& other) noexcept {
  if (this != &other) {
    wipe();
    if (other.keyed_) {
      std::memcpy(&key_of(storage_), &key_of(other.storage_), sizeof(detail::gcm_key));
      keyed_ = true;
    }
    other.wipe();
  }
  return *this;
}

result<void> aes_block_cipher::init(bytes_view key) noexcept {
  wipe();
  if (key.size() != 16 && key.size() != 32) return crypto_errc::invalid_key;
  detail::aes_set_key(key_of(storage_), key);
  keyed_ = true;
  return {};
}

void aes_block_cipher::encrypt_block(std::span<std::uint8_t, block_size> out,
                                     std::span<const std::uint8_t, block_size> in) noexcept {
  SEALWIRE_EXPECTS(keyed_);
  detail::aes_encrypt_block(key_of(storage_), out.data(), in.data());
}

void aes_block_cipher::wipe() noexcept {
  ct::wipe(&key_of(storage_), sizeof(detail::gcm_key));
  keyed_ = false;
}

}  // namespace sealwire::crypto
