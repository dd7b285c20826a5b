// SPDX-License-Identifier: Apache-2.0
// X-Wing (draft-connolly-cfrg-xwing-kem-06 and later, section 5): key
// expansion, derandomized encapsulation, decapsulation and the combiner.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/sha3.hpp>
#include <sealwire/crypto/x25519.hpp>
#include <sealwire/crypto/xwing.hpp>

#include <algorithm>
#include <cstring>

namespace sealwire::crypto {
namespace {

constexpr std::size_t mlkem_ct = ml_kem_768::ciphertext_size;        // 1088
constexpr std::size_t mlkem_ek = ml_kem_768::encapsulation_key_size;  // 1184

// The label "\.//^\" (draft 5: XWingLabel), last in the combiner's input.
constexpr std::uint8_t label[6] = {0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c};

// combiner is SHA3-256(ss_M || ss_X || ct_X || pk_X || XWingLabel) (draft 5.3).
void combiner(std::uint8_t out[32], const std::uint8_t ss_m[32], const std::uint8_t ss_x[32],
              const std::uint8_t ct_x[32], const std::uint8_t pk_x[32]) noexcept {
  sha3_256 h;
  h.update(std::span<const std::uint8_t>(ss_m, 32));
  h.update(std::span<const std::uint8_t>(ss_x, 32));
  h.update(std::span<const std::uint8_t>(ct_x, 32));
  h.update(std::span<const std::uint8_t>(pk_x, 32));
  h.update(label);
  h.finish(std::span<std::uint8_t, 32>(out, 32));
  h.wipe();
}

// x25519_raw is X25519(k, u) as the draft uses it: the all-zero output of a
// low-order u is kept (it is what RFC 7748 computes), not an error.
void x25519_raw(std::uint8_t out[32], const std::uint8_t k[32], const std::uint8_t u[32]) noexcept {
  (void)x25519::shared_secret(std::span<std::uint8_t, 32>(out, 32), std::span<const std::uint8_t, 32>(k, 32),
                              std::span<const std::uint8_t>(u, 32));
}

}  // namespace

result<xwing::decapsulation_key> xwing::decapsulation_key::from_seed(std::span<const std::uint8_t> seed) noexcept {
  if (seed.size() != seed_size) return crypto_errc::invalid_key;
  // expandDecapsulationKey (draft 5.2): SHAKE256(sk, 96) = d || z || sk_X.
  secret_array<96> expanded;
  shake256::hash(expanded.span(), seed);
  auto m = ml_kem_768::decapsulation_key::from_seed(std::span<const std::uint8_t>(expanded.data(), 64));
  if (!m) return m.error();
  decapsulation_key key(std::move(*m));
  std::copy(seed.begin(), seed.end(), key.seed_.data());
  std::memcpy(key.sk_x_.data(), expanded.data() + 64, 32);
  const auto pk_m = key.mlkem_.public_key().bytes();
  std::copy(pk_m.begin(), pk_m.end(), key.pk_.begin());
  x25519::public_key(std::span<std::uint8_t, 32>(key.pk_.data() + mlkem_ek, 32), key.sk_x_.span());
  return key;
}

result<xwing::decapsulation_key> xwing::decapsulation_key::generate() noexcept {
  secret_array<seed_size> seed;
  if (auto r = random_bytes(seed.span()); !r) return r.error();
  return from_seed(seed.span());
}

result<void> xwing::decapsulation_key::decapsulate(std::span<std::uint8_t, shared_secret_size> shared_secret,
                                                   std::span<const std::uint8_t> ciphertext) const noexcept {
  if (ciphertext.size() != ciphertext_size) {
    ct::wipe(shared_secret);
    return crypto_errc::invalid_argument;
  }
  // Decapsulate (draft 5.4).
  std::uint8_t ss_m[32], ss_x[32];
  const std::uint8_t* ct_x = ciphertext.data() + mlkem_ct;
  (void)mlkem_.decapsulate(std::span<std::uint8_t, 32>(ss_m), ciphertext.first(mlkem_ct));  // length checked above
  x25519_raw(ss_x, sk_x_.data(), ct_x);
  combiner(shared_secret.data(), ss_m, ss_x, ct_x, pk_.data() + mlkem_ek);
  ct::wipe(ss_m, sizeof ss_m);
  ct::wipe(ss_x, sizeof ss_x);
  return {};
}

result<void> xwing::encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                                std::span<std::uint8_t, shared_secret_size> shared_secret,
                                std::span<const std::uint8_t> encapsulation_key,
                                std::span<const std::uint8_t, encapsulation_seed_size> eseed) noexcept {
  if (encapsulation_key.size() != encapsulation_key_size) {
    ct::wipe(ciphertext);
    ct::wipe(shared_secret);
    return crypto_errc::invalid_public_key;
  }
  // EncapsulateDerand (draft 5.3): m = eseed[0:32], ek_X = eseed[32:64].
  const std::uint8_t* pk_x = encapsulation_key.data() + mlkem_ek;
  std::uint8_t ss_m[32], ss_x[32];
  const auto r = ml_kem_768::encapsulate(ciphertext.template first<mlkem_ct>(), std::span<std::uint8_t, 32>(ss_m),
                                         encapsulation_key.first(mlkem_ek), eseed.template first<32>());
  if (!r) {
    ct::wipe(ciphertext);
    ct::wipe(shared_secret);
    return r;
  }
  const std::span<const std::uint8_t, 32> ek_x = eseed.template last<32>();
  std::uint8_t* ct_x = ciphertext.data() + mlkem_ct;
  x25519::public_key(std::span<std::uint8_t, 32>(ct_x, 32), ek_x);
  x25519_raw(ss_x, ek_x.data(), pk_x);
  combiner(shared_secret.data(), ss_m, ss_x, ct_x, pk_x);
  ct::wipe(ss_m, sizeof ss_m);
  ct::wipe(ss_x, sizeof ss_x);
  return {};
}

result<void> xwing::encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                                std::span<std::uint8_t, shared_secret_size> shared_secret,
                                std::span<const std::uint8_t> encapsulation_key) noexcept {
  secret_array<encapsulation_seed_size> eseed;
  if (auto r = random_bytes(eseed.span()); !r) {
    ct::wipe(ciphertext);
    ct::wipe(shared_secret);
    return r;
  }
  return encapsulate(ciphertext, shared_secret, encapsulation_key, eseed.span());
}

std::string_view xwing::provider() noexcept { return ml_kem_768::provider(); }

}  // namespace sealwire::crypto
