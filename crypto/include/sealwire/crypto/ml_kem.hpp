// SPDX-License-Identifier: Apache-2.0
// ML-KEM (FIPS 203): the module-lattice key-encapsulation mechanism in its
// three parameter sets ML-KEM-512, ML-KEM-768 and ML-KEM-1024. Keys come from
// the 64-byte seed d || z (the form HPKE serializes); Decaps rejects
// implicitly (a wrong ciphertext yields a pseudorandom secret, never an error).
//
//   auto dk = sealwire::crypto::ml_kem_768::decapsulation_key::generate().value();
//   std::uint8_t ct[ml_kem_768::ciphertext_size], ss[32], ss2[32];
//   ml_kem_768::encapsulate(ct, ss, dk.public_key().bytes()).value();
//   dk.decapsulate(ss2, ct).value();   // ss2 == ss
#pragma once

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {
namespace detail {

// ml_kem_poly is one polynomial of R_q, 256 coefficients (FIPS 203 2.4); the
// key objects below hold them expanded so that Encaps and Decaps skip the
// matrix expansion.
struct ml_kem_poly {
  std::int16_t c[256];
};

// The implementation behind ml_kem<K>, with the rank k as a run-time value.
// The key objects hold the arrays; these functions never fail on their own.

// ml_kem_load_public checks ek (FIPS 203 7.2 modulus check; its length is
// the caller's) and expands it: H(ek), the matrix A-hat and t-hat. False when
// a coefficient is not below q.
[[nodiscard]] SEALWIRE_API bool ml_kem_load_public(unsigned k, const std::uint8_t* ek, std::uint8_t h[32],
                                                   ml_kem_poly* a, ml_kem_poly* t_hat) noexcept;
// ml_kem_keygen is ML-KEM.KeyGen_internal(d, z) (Algorithm 16) into the
// expanded form.
SEALWIRE_API void ml_kem_keygen(unsigned k, const std::uint8_t d[32], std::uint8_t* ek, std::uint8_t h[32],
                                ml_kem_poly* a, ml_kem_poly* t_hat, ml_kem_poly* s_hat) noexcept;
// ml_kem_encaps is ML-KEM.Encaps_internal(ek, m) (Algorithm 17).
SEALWIRE_API void ml_kem_encaps(unsigned k, std::uint8_t* ct, std::uint8_t ss[32], const std::uint8_t h[32],
                                const ml_kem_poly* a, const ml_kem_poly* t_hat, const std::uint8_t m[32]) noexcept;
// ml_kem_decaps is ML-KEM.Decaps_internal (Algorithm 18) with implicit
// rejection; ct has the parameter set's ciphertext length.
SEALWIRE_API void ml_kem_decaps(unsigned k, std::uint8_t ss[32], const std::uint8_t* ct, const ml_kem_poly* s_hat,
                                const std::uint8_t z[32], const std::uint8_t h[32], const ml_kem_poly* a,
                                const ml_kem_poly* t_hat) noexcept;
// ml_kem_load_expanded reads s-hat from an expanded decapsulation key whose
// length the caller checked and runs the hash check of FIPS 203 7.3
// (H(ek) equals the stored hash); false when it fails.
[[nodiscard]] SEALWIRE_API bool ml_kem_check_expanded(unsigned k, const std::uint8_t* dk,
                                                      ml_kem_poly* s_hat) noexcept;
// ml_kem_write_expanded writes dk_PKE || ek || H(ek) || z (Algorithm 16 line 3).
SEALWIRE_API void ml_kem_write_expanded(unsigned k, std::uint8_t* out, const ml_kem_poly* s_hat,
                                        const std::uint8_t* ek, const std::uint8_t h[32],
                                        const std::uint8_t z[32]) noexcept;
// ml_kem_provider names the arithmetic that runs.
[[nodiscard]] SEALWIRE_API std::string_view ml_kem_provider() noexcept;

}  // namespace detail

// ml_kem<K> is ML-KEM with module rank K: 2 (ML-KEM-512), 3 (ML-KEM-768) or
// 4 (ML-KEM-1024), FIPS 203 section 8. Use the aliases below.
template <std::size_t K>
struct ml_kem {
  static_assert(K >= 2 && K <= 4, "ML-KEM-512, -768 or -1024");

  // seed_size is the private key's length: the seed d || z (FIPS 203 7.1).
  static constexpr std::size_t seed_size = 64;
  // message_size is the length of Encaps's randomness m.
  static constexpr std::size_t message_size = 32;
  // shared_secret_size is the length of the shared secret K.
  static constexpr std::size_t shared_secret_size = 32;
  // encapsulation_key_size is 384 K + 32 (800, 1184, 1568).
  static constexpr std::size_t encapsulation_key_size = 384 * K + 32;
  // decapsulation_key_size is the expanded decapsulation key's length,
  // 768 K + 96 (1632, 2400, 3168).
  static constexpr std::size_t decapsulation_key_size = 768 * K + 96;
  // ciphertext_size is 32 (du K + dv) (768, 1088, 1568).
  static constexpr std::size_t ciphertext_size = K == 4 ? 32 * (11 * 4 + 5) : 32 * (10 * K + 4);

  // encapsulation_key is a checked encapsulation key (FIPS 203 7.2) with its
  // matrix expanded, for any number of Encaps calls. Copyable: it is public.
  class encapsulation_key {
   public:
    // from_bytes checks ek: its length, and that every coefficient of its
    // ByteDecode_12 is below q (7.2). Error: invalid_public_key.
    [[nodiscard]] static result<encapsulation_key> from_bytes(std::span<const std::uint8_t> ek) noexcept {
      if (ek.size() != encapsulation_key_size) return crypto_errc::invalid_public_key;
      encapsulation_key key;
      std::copy(ek.begin(), ek.end(), key.ek_.begin());
      if (!detail::ml_kem_load_public(K, key.ek_.data(), key.h_.data(), key.a_.data(), key.t_.data()))
        return crypto_errc::invalid_public_key;
      return key;
    }

    // bytes is the encoded encapsulation key.
    [[nodiscard]] std::span<const std::uint8_t, encapsulation_key_size> bytes() const noexcept {
      return std::span<const std::uint8_t, encapsulation_key_size>(ek_);
    }

    // encapsulate is the deterministic ML-KEM.Encaps_internal(ek, m)
    // (Algorithm 17): for tests and protocols that derive m. Constant time
    // in m.
    void encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                     std::span<std::uint8_t, shared_secret_size> shared_secret,
                     std::span<const std::uint8_t, message_size> m) const noexcept {
      detail::ml_kem_encaps(K, ciphertext.data(), shared_secret.data(), h_.data(), a_.data(), t_.data(), m.data());
    }

    // encapsulate draws m from the CSPRNG (crypto/random.hpp) and
    // encapsulates. Error: the random source's (rng_failure); both outputs
    // are then zeroed.
    [[nodiscard]] result<void> encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                                           std::span<std::uint8_t, shared_secret_size> shared_secret) const noexcept;

   private:
    friend struct ml_kem;
    encapsulation_key() noexcept = default;
    std::array<std::uint8_t, encapsulation_key_size> ek_{};
    std::array<std::uint8_t, 32> h_{};  // H(ek) = SHA3-256(ek)
    std::array<detail::ml_kem_poly, K * K> a_{};  // A-hat, row-major
    std::array<detail::ml_kem_poly, K> t_{};      // t-hat
  };

  // decapsulation_key is a private key. It keeps the 64-byte seed it came
  // from (when it came from one) and the expanded key; movable, not
  // copyable; the secrets are wiped on destruction and when moved from.
  class decapsulation_key {
   public:
    // from_seed runs ML-KEM.KeyGen_internal(d, z) on seed = d || z
    // (Algorithm 16, 7.1). Error: invalid_key unless seed is 64 bytes.
    [[nodiscard]] static result<decapsulation_key> from_seed(std::span<const std::uint8_t> seed) noexcept {
      if (seed.size() != seed_size) return crypto_errc::invalid_key;
      decapsulation_key key;
      std::copy(seed.begin(), seed.end(), key.seed_.data());
      key.has_seed_ = true;
      key.expand();
      return key;
    }

    // generate draws a seed from the CSPRNG and expands it. Error: the
    // random source's (rng_failure).
    [[nodiscard]] static result<decapsulation_key> generate() noexcept;

    // from_expanded loads an expanded decapsulation key
    // dk_PKE || ek || H(ek) || z (FIPS 203 7.1's 768 K + 96-byte form), with
    // the checks of 7.3 (length; H(ek) equals the stored hash) and the
    // encapsulation-key check of 7.2 on the embedded ek. Error: invalid_key.
    // The key has no seed (has_seed() is false).
    [[nodiscard]] static result<decapsulation_key> from_expanded(std::span<const std::uint8_t> dk) noexcept {
      if (dk.size() != decapsulation_key_size) return crypto_errc::invalid_key;
      decapsulation_key key;
      const std::uint8_t* ek = dk.data() + 384 * K;
      std::copy(ek, ek + encapsulation_key_size, key.ek_.ek_.begin());
      if (!detail::ml_kem_load_public(K, key.ek_.ek_.data(), key.ek_.h_.data(), key.ek_.a_.data(),
                                      key.ek_.t_.data()) ||
          !detail::ml_kem_check_expanded(K, dk.data(), key.s_.data()))
        return crypto_errc::invalid_key;
      std::copy(dk.end() - 32, dk.end(), key.z_.data());
      return key;
    }

    ~decapsulation_key() { ct::wipe_object(s_); }
    // Moving takes the key; the moved-from object's secret vector is wiped.
    decapsulation_key(decapsulation_key&& other) noexcept
        : ek_(other.ek_), seed_(std::move(other.seed_)), z_(std::move(other.z_)), s_(other.s_),
          has_seed_(other.has_seed_) {
      ct::wipe_object(other.s_);
    }
    // Move assignment, as the move constructor.
    decapsulation_key& operator=(decapsulation_key&& other) noexcept {
      if (this != &other) {
        ek_ = other.ek_;
        seed_ = std::move(other.seed_);
        z_ = std::move(other.z_);
        s_ = other.s_;
        has_seed_ = other.has_seed_;
        ct::wipe_object(other.s_);
      }
      return *this;
    }
    decapsulation_key(const decapsulation_key&) = delete;
    decapsulation_key& operator=(const decapsulation_key&) = delete;

    // public_key is the matching encapsulation key (expanded, ready to use;
    // public_key().bytes() is its encoding).
    [[nodiscard]] const encapsulation_key& public_key() const noexcept { return ek_; }
    // has_seed reports whether the key came from a seed (from_seed, generate).
    [[nodiscard]] bool has_seed() const noexcept { return has_seed_; }
    // seed is the 64-byte seed d || z; all zero when has_seed() is false.
    [[nodiscard]] std::span<const std::uint8_t, seed_size> seed() const noexcept { return seed_.span(); }

    // write_expanded writes the expanded form dk_PKE || ek || H(ek) || z.
    void write_expanded(std::span<std::uint8_t, decapsulation_key_size> out) const noexcept {
      detail::ml_kem_write_expanded(K, out.data(), s_.data(), ek_.ek_.data(), ek_.h_.data(), z_.data());
    }

    // decapsulate is ML-KEM.Decaps (Algorithm 18) with implicit rejection:
    // a ciphertext that does not re-encrypt to itself yields J(z || c), in
    // constant time, not an error. Error: invalid_argument when ciphertext
    // is not ciphertext_size bytes (the check of 7.3), shared_secret zeroed.
    [[nodiscard]] result<void> decapsulate(std::span<std::uint8_t, shared_secret_size> shared_secret,
                                           std::span<const std::uint8_t> ciphertext) const noexcept {
      if (ciphertext.size() != ciphertext_size) {
        ct::wipe(shared_secret);
        return crypto_errc::invalid_argument;
      }
      detail::ml_kem_decaps(K, shared_secret.data(), ciphertext.data(), s_.data(), z_.data(), ek_.h_.data(),
                            ek_.a_.data(), ek_.t_.data());
      return {};
    }

   private:
    decapsulation_key() noexcept = default;
    void expand() noexcept {
      detail::ml_kem_keygen(K, seed_.data(), ek_.ek_.data(), ek_.h_.data(), ek_.a_.data(), ek_.t_.data(),
                            s_.data());
      std::copy(seed_.data() + 32, seed_.data() + 64, z_.data());
    }

    encapsulation_key ek_;
    secret_array<seed_size> seed_;
    secret_array<32> z_;
    std::array<detail::ml_kem_poly, K> s_{};  // s-hat, secret
    bool has_seed_ = false;
  };

  // encapsulate checks the encoded encapsulation key (7.2) and runs the
  // deterministic Encaps_internal with m. Error: invalid_public_key (outputs
  // zeroed).
  [[nodiscard]] static result<void> encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                                                std::span<std::uint8_t, shared_secret_size> shared_secret,
                                                std::span<const std::uint8_t> ek,
                                                std::span<const std::uint8_t, message_size> m) noexcept {
    auto key = encapsulation_key::from_bytes(ek);
    if (!key) {
      ct::wipe(ciphertext);
      ct::wipe(shared_secret);
      return key.error();
    }
    key->encapsulate(ciphertext, shared_secret, m);
    return {};
  }

  // encapsulate checks ek and encapsulates with m from the CSPRNG. Errors:
  // invalid_public_key, the random source's; outputs zeroed on error.
  [[nodiscard]] static result<void> encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                                                std::span<std::uint8_t, shared_secret_size> shared_secret,
                                                std::span<const std::uint8_t> ek) noexcept {
    auto key = encapsulation_key::from_bytes(ek);
    if (!key) {
      ct::wipe(ciphertext);
      ct::wipe(shared_secret);
      return key.error();
    }
    return key->encapsulate(ciphertext, shared_secret);
  }

  // check_encapsulation_key runs the checks of 7.2 (length, modulus).
  // Error: invalid_public_key.
  [[nodiscard]] static result<void> check_encapsulation_key(std::span<const std::uint8_t> ek) noexcept {
    auto key = encapsulation_key::from_bytes(ek);
    if (!key) return key.error();
    return {};
  }

  // provider names the arithmetic that runs ("portable" or "avx2").
  [[nodiscard]] static std::string_view provider() noexcept { return detail::ml_kem_provider(); }
};

// ml_kem_512 is ML-KEM-512 (security category 1).
using ml_kem_512 = ml_kem<2>;
// ml_kem_768 is ML-KEM-768 (category 3), the one X-Wing uses.
using ml_kem_768 = ml_kem<3>;
// ml_kem_1024 is ML-KEM-1024 (category 5).
using ml_kem_1024 = ml_kem<4>;

namespace detail {
// ml_kem_random fills out from the CSPRNG (random_bytes): Encaps's m, a seed.
[[nodiscard]] SEALWIRE_API result<void> ml_kem_random(std::span<std::uint8_t> out) noexcept;
}  // namespace detail

template <std::size_t K>
result<void> ml_kem<K>::encapsulation_key::encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                                                       std::span<std::uint8_t, shared_secret_size> shared_secret)
    const noexcept {
  secret_array<message_size> m;
  if (auto r = detail::ml_kem_random(m.span()); !r) {
    ct::wipe(ciphertext);
    ct::wipe(shared_secret);
    return r;
  }
  encapsulate(ciphertext, shared_secret, m.span());
  return {};
}

template <std::size_t K>
result<typename ml_kem<K>::decapsulation_key> ml_kem<K>::decapsulation_key::generate() noexcept {
  secret_array<seed_size> seed;
  if (auto r = detail::ml_kem_random(seed.span()); !r) return r.error();
  return from_seed(seed.span());
}

}  // namespace sealwire::crypto
