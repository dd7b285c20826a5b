// SPDX-License-Identifier: Apache-2.0
// Ed448 (RFC 8032 5.2): key expansion (5.2.5), signing (5.2.6) and
// verification (5.2.7) over the Edwards448 group, with SHAKE256 and dom4.
#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ed448.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/sha3.hpp>

#include "detail/ed448_group.hpp"
#include "detail/ed448_scalar.hpp"

#include <cstring>
#include <utility>

namespace sealwire::crypto {
namespace {

using detail::ed448_group::point;
using detail::ed448_scalar::scalar;

// start_dom4 absorbs dom4(0, context) = "SigEd448" || 0 || len(context) ||
// context (RFC 8032 5.2; the 0 marks pure Ed448).
void start_dom4(shake256& h, std::span<const std::uint8_t> context) noexcept {
  static constexpr std::uint8_t prefix[8] = {'S', 'i', 'g', 'E', 'd', '4', '4', '8'};
  const std::uint8_t flags[2] = {0, static_cast<std::uint8_t>(context.size())};
  h.update(prefix);
  h.update(flags);
  h.update(context);
}

}  // namespace

result<ed448::signing_key> ed448::signing_key::from_seed(std::span<const std::uint8_t> seed) noexcept {
  if (seed.size() != seed_size) return crypto_errc::invalid_key;
  signing_key key;
  // RFC 8032 5.2.5: h = SHAKE256(seed, 114); the low 57 bytes, pruned,
  // are the scalar s and the high 57 the prefix.
  std::uint8_t h[114];
  shake256::hash(h, seed);
  h[0] &= 0xfc;
  h[56] = 0;
  h[55] |= 0x80;
  scalar s;
  detail::ed448_scalar::reduce_bytes(s, h, 57);  // [s]B = [s mod L]B
  detail::ed448_scalar::store(key.expanded_.data(), s);
  std::memcpy(key.expanded_.data() + 57, h + 57, 57);
  point a;
  detail::ed448_group::base_mul(a, s);
  detail::ed448_group::encode(key.public_key_.data(), a);
  ct::wipe_object(h);
  ct::wipe_object(s);
  ct::wipe_object(a);
  return key;
}

result<ed448::signing_key> ed448::signing_key::generate() noexcept {
  std::uint8_t seed[seed_size];
  if (auto r = random_bytes(seed); !r) {
    ct::wipe_object(seed);
    return r.error();
  }
  auto key = from_seed(seed);
  ct::wipe_object(seed);
  return key;
}

void ed448::signing_key::sign(std::span<std::uint8_t, signature_size> out, std::span<const std::uint8_t> message,
                              std::span<const std::uint8_t> context) const noexcept {
  SEALWIRE_EXPECTS(context.size() <= max_context_size);
  const std::uint8_t* s_bytes = expanded_.data();
  const std::uint8_t* prefix = expanded_.data() + 57;
  // Step 2: r = SHAKE256(dom4(0, context) || prefix || M, 114) mod L.
  std::uint8_t digest[114];
  shake256 h;
  start_dom4(h, context);
  h.update(std::span<const std::uint8_t>(prefix, 57));
  h.update(message);
  h.squeeze(digest);
  scalar r;
  detail::ed448_scalar::reduce_bytes(r, digest, sizeof digest);
  // Step 3: R = [r]B.
  point big_r;
  detail::ed448_group::base_mul(big_r, r);
  detail::ed448_group::encode(out.data(), big_r);
  // Step 4: k = SHAKE256(dom4(0, context) || R || A || M, 114) mod L.
  h.reset();
  start_dom4(h, context);
  h.update(std::span<const std::uint8_t>(out.data(), 57));
  h.update(public_key_);
  h.update(message);
  h.squeeze(digest);
  scalar k, s, big_s;
  detail::ed448_scalar::reduce_bytes(k, digest, sizeof digest);
  detail::ed448_scalar::reduce_bytes(s, s_bytes, 57);
  // Step 5: S = (r + k s) mod L.
  detail::ed448_scalar::mul_add(big_s, r, k, s);
  detail::ed448_scalar::store(out.data() + 57, big_s);
  h.wipe();
  ct::wipe_object(digest);
  ct::wipe_object(r);
  ct::wipe_object(s);
  ct::wipe_object(big_r);
  ct::wipe_object(big_s);
}

result<void> ed448::verify(std::span<const std::uint8_t> public_key, std::span<const std::uint8_t> message,
                           std::span<const std::uint8_t> signature,
                           std::span<const std::uint8_t> context) noexcept {
  if (context.size() > max_context_size) return crypto_errc::invalid_argument;
  point a, r;
  if (public_key.size() != public_key_size || !detail::ed448_group::decode(a, public_key.data())) {
    return crypto_errc::invalid_public_key;
  }
  if (signature.size() != signature_size) return crypto_errc::invalid_signature;
  // RFC 8032 5.2.7 step 1: R decodes to a point and 0 <= S < L.
  scalar s, k;
  if (!detail::ed448_scalar::load_canonical(s, signature.data() + 57)) return crypto_errc::invalid_signature;
  if (!detail::ed448_group::decode(r, signature.data())) return crypto_errc::invalid_signature;
  // Step 2: k = SHAKE256(dom4(0, context) || R || A || M, 114) mod L.
  std::uint8_t digest[114];
  shake256 h;
  start_dom4(h, context);
  h.update(signature.first(57));
  h.update(public_key);
  h.update(message);
  h.squeeze(digest);
  detail::ed448_scalar::reduce_bytes(k, digest, sizeof digest);
  // Step 3: the group equation.
  if (!detail::ed448_group::verify_equation(s, k, a, r)) return crypto_errc::invalid_signature;
  return {};
}

std::string_view ed448::provider() noexcept { return "portable"; }

}  // namespace sealwire::crypto
