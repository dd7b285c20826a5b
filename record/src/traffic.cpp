// SPDX-License-Identifier: Apache-2.0
// One direction's traffic keys: derivation from the traffic secret, the key
// update ratchet (docs/protocol.md 3.6), nonces (3.1) and key limits (3.5).
#include "detail/traffic.hpp"

#include <sealwire/crypto/ct.hpp>

#include "detail/kdf.hpp"

#include <algorithm>
#include <cstring>

namespace sealwire::record::detail {

crypto::aead_algorithm algorithm_of(record_aead a) noexcept {
  switch (a) {
    case record_aead::aes128_gcm: return crypto::aead_algorithm::aes128_gcm;
    case record_aead::aes256_gcm: return crypto::aead_algorithm::aes256_gcm;
    case record_aead::xchacha20_poly1305: return crypto::aead_algorithm::xchacha20_poly1305;
    case record_aead::chacha20_poly1305: break;
  }
  return crypto::aead_algorithm::chacha20_poly1305;
}

bool known_aead(unsigned id) noexcept {
  return id == static_cast<unsigned>(record_aead::chacha20_poly1305) ||
         id == static_cast<unsigned>(record_aead::xchacha20_poly1305) ||
         id == static_cast<unsigned>(record_aead::aes128_gcm) || id == static_cast<unsigned>(record_aead::aes256_gcm);
}

std::string_view aead_name(record_aead a) noexcept { return crypto::properties(algorithm_of(a)).name; }

const char* role_name(role r) noexcept { return r == role::client ? "client" : "server"; }

void setup_direction(direction_keys& d, record_aead aead, hpke::kdf_id kdf, std::size_t nh) noexcept {
  const auto& p = crypto::properties(algorithm_of(aead));
  d.nh = nh;
  d.kdf = kdf;
  d.alg = algorithm_of(aead);
  d.nonce_size = p.nonce_size;
  d.key_size = p.key_size;
}

// The key is set up once here (AES round keys and GHASH powers, or the
// ChaCha key) for every record until the next update.
void derive_keys(direction_keys& d) noexcept {
  const bytes_view secret = d.secret.span().first(d.nh);
  crypto::secret_array<32> key;
  expand_label(d.kdf, key.span().first(d.key_size), secret, "key", {});
  static_cast<void>(d.key.init(d.alg, key.span().first(d.key_size)));  // sizes from the AEAD's own properties
  expand_label(d.kdf, d.iv.span().first(d.nonce_size), secret, "iv", {});
  d.seq = 0;
  d.blocks = 0;
}

void ratchet(direction_keys& d) noexcept {
  crypto::secret_array<64> next;
  expand_label(d.kdf, next.span().first(d.nh), d.secret.span().first(d.nh), "traffic upd", {});
  d.secret = std::move(next);
  derive_keys(d);
}

void wipe_direction(direction_keys& d) noexcept {
  crypto::ct::wipe(d.secret.span().data(), d.secret.span().size());
  crypto::ct::wipe(d.iv.span().data(), d.iv.span().size());
  d.key.wipe();
}

void make_nonce(const direction_keys& d, std::uint8_t* nonce) noexcept {
  std::memcpy(nonce, d.iv.span().data(), d.nonce_size);
  std::uint8_t* tail = nonce + d.nonce_size - 8;
  for (int i = 0; i < 8; ++i) tail[i] ^= static_cast<std::uint8_t>(d.seq >> (56 - 8 * i));
  // Derived from a traffic secret, but an AEAD nonce need not be secret: the
  // stream cipher's block counter may branch on it (docs/security.md).
  crypto::ct::declassify(nonce, d.nonce_size);
}

// draft-irtf-cfrg-aead-limits 5.1: for AES-GCM the confidentiality
// advantage is at most (s + q + 1)^2 / 2^129 for q records of s blocks in
// total; s + q <= 2^35 keeps it near 2^-59, under 2^-57, whatever the record
// size. ChaCha20-Poly1305 (5.2) has no confidentiality limit that binds
// before the sequence number; 2^46 (1 PiB) is a margin, not a bound.
std::uint64_t aead_blocks_limit(crypto::aead_algorithm alg) noexcept {
  return crypto::is_aes_gcm(alg) ? std::uint64_t{1} << 35 : std::uint64_t{1} << 46;
}

std::uint64_t key_blocks_limit(const limits& l, crypto::aead_algorithm alg) noexcept {
  const std::uint64_t aead = aead_blocks_limit(alg);
  return l.key_blocks_limit == 0 ? aead : std::min(l.key_blocks_limit, aead);
}

void put_header(std::uint8_t* h, std::uint8_t type, std::size_t len) noexcept {
  h[0] = type;
  h[1] = static_cast<std::uint8_t>(len >> 16);
  h[2] = static_cast<std::uint8_t>(len >> 8);
  h[3] = static_cast<std::uint8_t>(len);
}

}  // namespace sealwire::record::detail
