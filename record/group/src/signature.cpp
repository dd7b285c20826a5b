// SPDX-License-Identifier: Apache-2.0
// RFC 9420 5.1.2: signature keys and verification by scheme.
#include <sealwire/record/group/signature.hpp>

#include <sealwire/crypto/secret.hpp>

#include <array>
#include <cstring>

namespace sealwire::record::group {
namespace {

template <class Ecdsa>
result<typename Ecdsa::signing_key> ecdsa_from_bytes(bytes_view priv) noexcept {
  if (priv.empty() || priv.size() > Ecdsa::private_key_size) return crypto_errc::invalid_key;
  // Left-pad a scalar written without its leading zero bytes.
  crypto::secret_array<Ecdsa::private_key_size> d;
  std::memcpy(d.data() + (Ecdsa::private_key_size - priv.size()), priv.data(), priv.size());
  return Ecdsa::signing_key::from_private_key(d.span());
}

template <class Ecdsa>
result<std::vector<std::uint8_t>> ecdsa_sign(const typename Ecdsa::signing_key& key, bytes_view message) {
  std::array<std::uint8_t, Ecdsa::max_der_signature_size> der{};
  auto n = key.sign_der(der, message);
  if (!n) return n.error();
  return std::vector<std::uint8_t>(der.begin(), der.begin() + static_cast<std::ptrdiff_t>(*n));
}

}  // namespace

result<signature_private_key> signature_private_key::from_bytes(signature_scheme scheme, bytes_view priv) noexcept {
  switch (scheme) {
    case signature_scheme::ed25519: {
      auto k = crypto::ed25519::signing_key::from_seed(priv);
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
    case signature_scheme::ed448: {
      auto k = crypto::ed448::signing_key::from_seed(priv);
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
    case signature_scheme::ecdsa_secp256r1_sha256: {
      auto k = ecdsa_from_bytes<crypto::ecdsa_p256>(priv);
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
    case signature_scheme::ecdsa_secp384r1_sha384: {
      auto k = ecdsa_from_bytes<crypto::ecdsa_p384>(priv);
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
    case signature_scheme::ecdsa_secp521r1_sha512: {
      auto k = ecdsa_from_bytes<crypto::ecdsa_p521>(priv);
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
  }
  return crypto_errc::unknown_algorithm;
}

result<signature_private_key> signature_private_key::generate(signature_scheme scheme) noexcept {
  switch (scheme) {
    case signature_scheme::ed25519: {
      auto k = crypto::ed25519::signing_key::generate();
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
    case signature_scheme::ed448: {
      auto k = crypto::ed448::signing_key::generate();
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
    case signature_scheme::ecdsa_secp256r1_sha256: {
      auto k = crypto::ecdsa_p256::signing_key::generate();
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
    case signature_scheme::ecdsa_secp384r1_sha384: {
      auto k = crypto::ecdsa_p384::signing_key::generate();
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
    case signature_scheme::ecdsa_secp521r1_sha512: {
      auto k = crypto::ecdsa_p521::signing_key::generate();
      if (!k) return k.error();
      return signature_private_key(scheme, std::move(*k));
    }
  }
  return crypto_errc::unknown_algorithm;
}

bytes_view signature_private_key::public_key() const noexcept {
  return std::visit(
      [](const auto& k) -> bytes_view {
        if constexpr (std::is_same_v<std::decay_t<decltype(k)>, std::monostate>) {
          return {};
        } else {
          return k.public_key();
        }
      },
      key_);
}

result<std::vector<std::uint8_t>> signature_private_key::sign(bytes_view message) const {
  switch (key_.index()) {
    case 1: {
      std::vector<std::uint8_t> sig(crypto::ed25519::signature_size);
      std::get<1>(key_).sign(std::span<std::uint8_t, crypto::ed25519::signature_size>(sig), message);
      return sig;
    }
    case 2: {
      std::vector<std::uint8_t> sig(crypto::ed448::signature_size);
      std::get<2>(key_).sign(std::span<std::uint8_t, crypto::ed448::signature_size>(sig), message);
      return sig;
    }
    case 3:
      return ecdsa_sign<crypto::ecdsa_p256>(std::get<3>(key_), message);
    case 4:
      return ecdsa_sign<crypto::ecdsa_p384>(std::get<4>(key_), message);
    case 5:
      return ecdsa_sign<crypto::ecdsa_p521>(std::get<5>(key_), message);
    default:
      return crypto_errc::not_keyed;
  }
}

result<void> verify_signature(signature_scheme scheme, bytes_view public_key, bytes_view message,
                              bytes_view signature) noexcept {
  switch (scheme) {
    case signature_scheme::ed25519:
      return crypto::ed25519::verify(public_key, message, signature);
    case signature_scheme::ed448:
      return crypto::ed448::verify(public_key, message, signature);
    case signature_scheme::ecdsa_secp256r1_sha256:
      return crypto::ecdsa_p256::verify_der(public_key, message, signature);
    case signature_scheme::ecdsa_secp384r1_sha384:
      return crypto::ecdsa_p384::verify_der(public_key, message, signature);
    case signature_scheme::ecdsa_secp521r1_sha512:
      return crypto::ecdsa_p521::verify_der(public_key, message, signature);
  }
  return crypto_errc::unknown_algorithm;
}

}  // namespace sealwire::record::group
