// SPDX-License-Identifier: Apache-2.0
// A datagram direction's keys: epoch secrets, AEAD keys and IVs, and the
// header protection mask (docs/protocol.md 9.1 and 9.3).
#include "detail/keys.hpp"

#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/ct.hpp>

#include "detail/kdf.hpp"  // record/src: ExpandLabel with the "sealwire v2 " prefix

#include <cstring>

namespace sealwire::record::datagram::detail {
namespace {

std::uint32_t load_le32(const std::uint8_t* p) noexcept {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

}  // namespace

bool make_suite(suite& s, record_aead aead, hpke::kdf_id kdf) noexcept {
  switch (aead) {
    case record_aead::aes128_gcm: s.alg = crypto::aead_algorithm::aes128_gcm; break;
    case record_aead::aes256_gcm: s.alg = crypto::aead_algorithm::aes256_gcm; break;
    case record_aead::chacha20_poly1305: s.alg = crypto::aead_algorithm::chacha20_poly1305; break;
    case record_aead::xchacha20_poly1305: s.alg = crypto::aead_algorithm::xchacha20_poly1305; break;
    default: return false;
  }
  if (kdf != hpke::kdf_id::hkdf_sha256 && kdf != hpke::kdf_id::hkdf_sha384 && kdf != hpke::kdf_id::hkdf_sha512) {
    return false;
  }
  const auto& p = crypto::properties(s.alg);
  s.aead = aead;
  s.kdf = kdf;
  s.nh = record::detail::hash_size(kdf);
  s.nk = p.key_size;
  s.nn = p.nonce_size;
  // 9.1: ChaCha20 takes a 32-byte key; AES-ECB the AEAD's own AES key size.
  s.nhp = crypto::is_aes_gcm(s.alg) ? p.key_size : 32;
  return true;
}

void epoch_keys::wipe() noexcept {
  crypto::ct::wipe(secret.span().data(), secret.span().size());
  crypto::ct::wipe(iv.span().data(), iv.span().size());
  key.wipe();
  live = false;
}

void set_epoch(const suite& s, epoch_keys& k, std::uint64_t epoch, bytes_view secret) noexcept {
  std::memcpy(k.secret.span().data(), secret.data(), s.nh);
  crypto::secret_array<32> key;
  record::detail::expand_label(s.kdf, key.span().first(s.nk), secret, "dg key", {});
  static_cast<void>(k.key.init(s.alg, key.span().first(s.nk)));  // sizes from the AEAD's own properties
  record::detail::expand_label(s.kdf, k.iv.span().first(s.nn), secret, "dg iv", {});
  k.epoch = epoch;
  k.live = true;
}

void next_epoch(const suite& s, const epoch_keys& k, epoch_keys& next) noexcept {
  crypto::secret_array<64> secret;
  record::detail::expand_label(s.kdf, secret.span().first(s.nh), k.secret.span().first(s.nh), "dg upd", {});
  set_epoch(s, next, k.epoch + 1, secret.span().first(s.nh));
}

void make_nonce(const suite& s, const epoch_keys& k, std::uint64_t seq, std::uint8_t* nonce) noexcept {
  std::memcpy(nonce, k.iv.span().data(), s.nn);
  std::uint8_t* tail = nonce + s.nn - 8;
  for (int i = 0; i < 8; ++i) tail[i] ^= static_cast<std::uint8_t>(seq >> (56 - 8 * i));
  // A nonce is public (the sequence number is on the wire, under header
  // protection only against observers): the cipher may branch on it.
  crypto::ct::declassify(nonce, s.nn);
}

void header_protection::init(const suite& s, bytes_view dg0) noexcept {
  crypto::secret_array<32> hp;
  record::detail::expand_label(s.kdf, hp.span().first(s.nhp), dg0.first(s.nh), "dg hp", {});
  init_key(s, hp.span().first(s.nhp));
}

void header_protection::init_key(const suite& s, bytes_view hp) noexcept {
  wipe();
  aes_ = crypto::is_aes_gcm(s.alg);
  if (aes_) {
    static_cast<void>(aes_cipher_.init(hp));  // 16 or 32 bytes by the suite
  } else {
    std::memcpy(chacha_key_.span().data(), hp.data(), 32);
  }
}

void header_protection::mask(std::span<std::uint8_t, 5> out, std::span<const std::uint8_t, 16> sample) noexcept {
  if (aes_) {
    // RFC 9001 5.4.3: mask = AES-ECB(hp_key, sample).
    std::uint8_t block[16];
    aes_cipher_.encrypt_block(block, sample);
    std::memcpy(out.data(), block, 5);
    crypto::ct::wipe(block, sizeof block);
    return;
  }
  // RFC 9001 5.4.4: counter = sample[0..4) little-endian, nonce = sample[4..16),
  // mask = ChaCha20(hp_key, counter, nonce, {0,0,0,0,0}): the first 5 bytes
  // of one ChaCha20 block (RFC 8439 2.3). That block's input words 12..15
  // are the sample read as four little-endian words, exactly HChaCha20's
  // input (draft-irtf-cfrg-xchacha 2.2), and HChaCha20 returns words 0..3 of
  // the same 20 rounds without the feed-forward; keystream words 0 and 1 are
  // those plus the constant words "expa" and "nd 3". One block, no cipher
  // context, no keystream buffer to set up or wipe per record.
  std::uint8_t h[32];
  crypto::hchacha20(h, chacha_key_.span(), sample);
  const std::uint32_t w0 = load_le32(h) + 0x61707865u;
  const std::uint32_t w1 = load_le32(h + 4) + 0x3320646eu;
  for (std::size_t i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(w0 >> (8 * i));
  out[4] = static_cast<std::uint8_t>(w1);
  crypto::ct::wipe(h, sizeof h);
}

void header_protection::wipe() noexcept {
  aes_cipher_.wipe();
  crypto::ct::wipe(chacha_key_.span().data(), chacha_key_.span().size());
}

// draft-irtf-cfrg-aead-limits 5.1 / 5.2, as the stream (docs/protocol.md 3.5).
std::uint64_t aead_blocks_limit(crypto::aead_algorithm alg) noexcept {
  return crypto::is_aes_gcm(alg) ? std::uint64_t{1} << 35 : std::uint64_t{1} << 46;
}

// RFC 9147 4.5.3: 2^36 records failing authentication per key, for AES-GCM
// and for ChaCha20-Poly1305 alike.
std::uint64_t aead_integrity_limit(crypto::aead_algorithm) noexcept { return std::uint64_t{1} << 36; }

}  // namespace sealwire::record::datagram::detail
