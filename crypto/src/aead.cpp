// SPDX-License-Identifier: Apache-2.0
// The ChaCha20-Poly1305 family: RFC 8439 2.8 (ChaCha20-Poly1305),
// draft-irtf-cfrg-xchacha 2.3 (XChaCha20-Poly1305), NaCl's secretbox
// (XSalsa20-Poly1305) and draft-agl-tls-chacha20poly1305 (the original,
// 64-bit-nonce ChaCha20-Poly1305), one-shot and incremental; and AES-GCM
// (NIST SP 800-38D) through the same engine (the GCM code is in aes_gcm.cpp).
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/aes_gcm.hpp>
#include <sealwire/crypto/chacha.hpp>

#include "detail/bytes.hpp"
#include "detail/gcm.hpp"
#include "detail/kernels.hpp"

#include <algorithm>
#include <cstring>

namespace sealwire::crypto {
namespace {

// RFC 8439 2.8: the counter starts at 1 and is 32 bits, so at most
// 2^32 - 1 blocks of text per nonce.
constexpr std::uint64_t ietf_max_text = ((1ULL << 32) - 1) * 64;

// SP 800-38D 5.2.1.1: len(P) <= 2^39 - 256 bits, i.e. 2^32 - 2 blocks.
constexpr std::uint64_t gcm_max_text = (1ULL << 36) - 32;

constexpr aead_properties props[] = {
    {"ChaCha20-Poly1305", 32, 12, 16, ietf_max_text, false, true},
    {"XChaCha20-Poly1305", 32, 24, 16, ietf_max_text, false, true},
    {"XSalsa20-Poly1305", 32, 24, 16, ~0ULL, true, false},
    // The 64-bit counter starts at 1: 2^64 - 1 blocks, more than a u64 counts.
    {"ChaCha20-Poly1305-original", 32, 8, 16, ~0ULL, false, true},
    {"AES-128-GCM", 16, 12, 16, gcm_max_text, false, true},
    {"AES-256-GCM", 32, 12, 16, gcm_max_text, false, true},
};

// Work in chunks that stay in L1 between the cipher and the MAC.
constexpr std::size_t chunk = 4096;

// The trailing-tag opener joins the held-back bytes and pieces up to this
// size into one AES-GCM call (see aead_opener::update).
constexpr std::size_t small_piece = 512;

// same_or_disjoint: the bytes written [out, out + out_n) and the bytes read
// [in, in + in_n) either start at the same place or do not overlap.
bool same_or_disjoint(const void* out, std::size_t out_n, const void* in, std::size_t in_n) noexcept {
  const auto o = reinterpret_cast<std::uintptr_t>(out);
  const auto i = reinterpret_cast<std::uintptr_t>(in);
  return out_n == 0 || in_n == 0 || o == i || o + out_n <= i || i + in_n <= o;
}

bool same_or_disjoint(const void* out, const void* in, std::size_t n) noexcept {
  return same_or_disjoint(out, n, in, n);
}

}  // namespace

const aead_properties& properties(aead_algorithm alg) noexcept { return props[static_cast<std::size_t>(alg)]; }

// ---- the shared core -----------------------------------------------------

namespace detail {

aead_core::aead_core(aead_core&& other) noexcept
    : cipher(other.cipher),
      mac(std::move(other.mac)),
      aad_len(other.aad_len),
      text_len(other.text_len),
      max_text(other.max_text),
      alg(other.alg),
      phase(other.phase),
      format(other.format) {
  if (is_aes_gcm(alg)) std::memcpy(&gcm, &other.gcm, sizeof gcm);
  other.wipe();
}

aead_core& aead_core::operator=(aead_core&& other) noexcept {
  if (this != &other) {
    if (is_aes_gcm(alg) && !is_aes_gcm(other.alg)) gcm_wipe(gcm);  // the GCM keys this one held
    cipher = other.cipher;
    mac = std::move(other.mac);
    if (is_aes_gcm(other.alg)) std::memcpy(&gcm, &other.gcm, sizeof gcm);
    aad_len = other.aad_len;
    text_len = other.text_len;
    max_text = other.max_text;
    alg = other.alg;
    phase = other.phase;
    format = other.format;
    other.wipe();
  }
  return *this;
}

void aead_core::wipe() noexcept {
  if (is_aes_gcm(alg)) {
    gcm_wipe(gcm);
  } else {
    stream_wipe(cipher);
    mac.wipe();
  }
  aad_len = text_len = max_text = 0;
  phase = aead_phase::idle;
}

result<void> aead_core::init(aead_algorithm a, std::span<const std::uint8_t> key,
                             std::span<const std::uint8_t> nonce) noexcept {
  const aead_properties& p = properties(a);
  if (key.size() != p.key_size) return crypto_errc::invalid_key;
  if (nonce.size() != p.nonce_size) return crypto_errc::invalid_nonce;
  if (is_aes_gcm(a)) return init_gcm(a, key, nonce);
  // A previous AES-GCM message's keys (an idle core holds none).
  if (is_aes_gcm(alg) && phase != aead_phase::idle) wipe();
  // The cipher setup below wipes the stream state; mac.init replaces the MAC key.
  aad_len = text_len = 0;
  alg = a;
  max_text = p.max_message_size;
  format = a == aead_algorithm::xsalsa20_poly1305          ? aead_mac_format::secretbox
           : a == aead_algorithm::chacha20_poly1305_original ? aead_mac_format::original
                                                             : aead_mac_format::rfc8439;

  result<void> r;
  switch (a) {
    case aead_algorithm::chacha20_poly1305:
    case aead_algorithm::chacha20_poly1305_original:
      r = chacha_setup(cipher, key, nonce, 20);
      break;
    case aead_algorithm::xchacha20_poly1305: {
      // draft-irtf-cfrg-xchacha 2.3: HChaCha20 subkey, then ChaCha20-Poly1305
      // with the nonce 0^32 || nonce[16..24).
      std::uint8_t subkey[32];
      std::uint8_t inner_nonce[12] = {};
      hchacha20(subkey, key.first<32>(), nonce.first<16>());
      std::memcpy(inner_nonce + 4, nonce.data() + 16, 8);
      r = chacha_setup(cipher, subkey, inner_nonce, 20);
      ct::wipe(subkey, sizeof subkey);
      break;
    }
    case aead_algorithm::xsalsa20_poly1305:
      r = salsa_setup(cipher, key, nonce, 20);
      break;
    case aead_algorithm::aes128_gcm:
    case aead_algorithm::aes256_gcm:
      break;  // handled above
  }
  if (!r) return r;

  // The Poly1305 key is the first 32 bytes of keystream block 0 (RFC 8439
  // 2.6; secretbox likewise). ChaCha20-Poly1305 encrypts from block 1;
  // secretbox uses the rest of block 0 for the first 32 bytes of text.
  std::uint8_t otk[32] = {};
  static_cast<void>(stream_xor(cipher, otk, otk, sizeof otk));
  mac.init(otk);
  ct::wipe(otk, sizeof otk);
  if (format != aead_mac_format::secretbox) cipher.ks_pos = cipher.ks_len;  // text starts at block 1
  phase = aead_phase::aad;
  return {};
}

result<void> aead_core::init_gcm(aead_algorithm a, std::span<const std::uint8_t> key,
                                 std::span<const std::uint8_t> iv) noexcept {
  const aead_properties& p = properties(a);
  if (!is_aes_gcm(a) || key.size() != p.key_size) return crypto_errc::invalid_key;
  // SP 800-38D 5.2.1.1: 1 <= len(IV) <= 2^64 - 1 bits.
  if (iv.empty() || iv.size() > (std::size_t{1} << 61) - 1) return crypto_errc::invalid_nonce;
  // A previous ChaCha-family message's stream cipher and MAC (an idle core holds none).
  if (!is_aes_gcm(alg) && phase != aead_phase::idle) wipe();
  aad_len = text_len = 0;
  alg = a;
  max_text = p.max_message_size;
  format = aead_mac_format::rfc8439;  // unused by GCM
  gcm_init(gcm, key, iv);
  phase = aead_phase::aad;
  return {};
}

void aead_core::add_aad(std::span<const std::uint8_t> aad) noexcept {
  SEALWIRE_EXPECTS(phase == aead_phase::aad);
  SEALWIRE_EXPECTS(format != aead_mac_format::secretbox || aad.empty());
  if (is_aes_gcm(alg)) {
    gcm_hash(gcm, aad.data(), aad.size());
  } else {
    mac.update(aad);
  }
  aad_len += aad.size();
}

void aead_core::begin_text() noexcept {
  if (phase == aead_phase::aad) {
    if (is_aes_gcm(alg)) {
      gcm_pad(gcm);  // SP 800-38D 7.1 step 5: A || 0^v
    } else if (format == aead_mac_format::rfc8439) {
      mac.pad16();
    } else if (format == aead_mac_format::original) {
      std::uint8_t len[8];
      store64_le(len, aad_len);
      mac.update(len);
    }
    phase = aead_phase::text;
  }
}

void aead_core::crypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  // Callers check the message limit first, so the counter cannot run out.
  if (is_aes_gcm(alg)) {
    gcm_crypt(gcm, out, in, n);
  } else {
    static_cast<void>(stream_xor(cipher, out, in, n));
  }
}

// first_chunk ends the first chunk on a keystream block boundary (secretbox's
// text starts 32 bytes into block 0), so every later chunk is whole blocks
// for the wide kernels rather than 63 and a half.
static std::size_t first_chunk(const stream_state& cipher, std::size_t n) noexcept {
  return std::min<std::size_t>(n, chunk + static_cast<std::size_t>(cipher.ks_len - cipher.ks_pos));
}

void aead_core::encrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  if (is_aes_gcm(alg)) return gcm_encrypt(gcm, out, in, n);  // stitched in the kernels
  for (std::size_t c = first_chunk(cipher, n); n != 0; c = std::min(n, chunk)) {
    crypt(out, in, c);
    mac.update({out, c});
    out += c;
    in += c;
    n -= c;
  }
}

void aead_core::decrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  if (is_aes_gcm(alg)) return gcm_decrypt(gcm, out, in, n);
  for (std::size_t c = first_chunk(cipher, n); n != 0; c = std::min(n, chunk)) {
    mac.update({in, c});  // before the (possibly in-place) decryption overwrites it
    crypt(out, in, c);
    out += c;
    in += c;
    n -= c;
  }
}

void aead_core::authenticate(std::span<const std::uint8_t> ct) noexcept {
  if (is_aes_gcm(alg)) {
    gcm_hash(gcm, ct.data(), ct.size());
  } else {
    mac.update(ct);
  }
}

std::string_view aead_core::provider() const noexcept {
  return is_aes_gcm(alg) ? gcm_provider() : stream_provider(cipher.family);
}

void aead_core::compute_tag(std::span<std::uint8_t, aead_tag_size> tag) noexcept {
  begin_text();
  if (is_aes_gcm(alg)) {
    gcm_tag(gcm, aad_len, text_len, tag);
    phase = aead_phase::done;
    return;
  }
  if (format == aead_mac_format::rfc8439) {
    // RFC 8439 2.8: pad the ciphertext, then the two lengths as 64-bit LE.
    mac.pad16();
    std::uint8_t lengths[16];
    store64_le(lengths, aad_len);
    store64_le(lengths + 8, text_len);
    mac.update(lengths);
  } else if (format == aead_mac_format::original) {
    std::uint8_t len[8];
    store64_le(len, text_len);
    mac.update(len);
  }
  mac.finish(tag);
  phase = aead_phase::done;
}

}  // namespace detail

// ---- sealer --------------------------------------------------------------

result<void> aead_sealer::init(aead_algorithm alg, std::span<const std::uint8_t> key,
                               std::span<const std::uint8_t> nonce) noexcept {
  return core_.init(alg, key, nonce);
}

void aead_sealer::aad(std::span<const std::uint8_t> data) noexcept { core_.add_aad(data); }

result<std::size_t> aead_sealer::update(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept {
  SEALWIRE_EXPECTS(core_.phase == detail::aead_phase::aad || core_.phase == detail::aead_phase::text);
  if (out.size() < in.size()) return crypto_errc::buffer_too_small;
  SEALWIRE_EXPECTS(same_or_disjoint(out.data(), in.data(), in.size()));
  SEALWIRE_EXPECTS(in.size() <= core_.max_text - core_.text_len);
  core_.begin_text();
  core_.encrypt(out.data(), in.data(), in.size());
  core_.text_len += in.size();
  return in.size();
}

void aead_sealer::finish(std::span<std::uint8_t, aead_tag_size> tag) noexcept {
  SEALWIRE_EXPECTS(core_.phase == detail::aead_phase::aad || core_.phase == detail::aead_phase::text);
  core_.compute_tag(tag);
  core_.wipe();
}

std::string_view aead_sealer::cipher_provider() const noexcept { return core_.provider(); }

// ---- opener --------------------------------------------------------------

aead_opener::aead_opener(aead_opener&& other) noexcept
    : core_(std::move(other.core_)), held_len_(other.held_len_), position_(other.position_), failure_(other.failure_) {
  std::memcpy(held_, other.held_, sizeof held_);
  ct::wipe(other.held_, sizeof other.held_);
  other.held_len_ = 0;
}

aead_opener& aead_opener::operator=(aead_opener&& other) noexcept {
  if (this != &other) {
    core_ = std::move(other.core_);
    std::memcpy(held_, other.held_, sizeof held_);
    held_len_ = other.held_len_;
    position_ = other.position_;
    failure_ = other.failure_;
    ct::wipe(other.held_, sizeof other.held_);
    other.held_len_ = 0;
  }
  return *this;
}

result<void> aead_opener::init(aead_algorithm alg, std::span<const std::uint8_t> key,
                               std::span<const std::uint8_t> nonce, tag_position position) noexcept {
  ct::wipe(held_, sizeof held_);
  held_len_ = 0;
  position_ = position;
  failure_ = {};
  return core_.init(alg, key, nonce);
}

void aead_opener::aad(std::span<const std::uint8_t> data) noexcept { core_.add_aad(data); }

std::size_t aead_opener::output_size(std::size_t in_size) const noexcept {
  if (position_ == tag_position::detached) return in_size;
  const std::size_t total = held_len_ + in_size;
  return total > aead_tag_size ? total - aead_tag_size : 0;
}

result<std::size_t> aead_opener::fail(crypto_errc e) noexcept {
  core_.wipe();
  ct::wipe(held_, sizeof held_);
  held_len_ = 0;
  core_.phase = detail::aead_phase::failed;
  failure_ = e;
  return e;
}

result<std::size_t> aead_opener::update(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept {
  if (core_.phase == detail::aead_phase::failed) return failure_;
  SEALWIRE_EXPECTS(core_.phase == detail::aead_phase::aad || core_.phase == detail::aead_phase::text);
  const std::size_t release = output_size(in.size());
  if (out.size() < release) return crypto_errc::buffer_too_small;
  if (release > core_.max_text - core_.text_len) return fail(crypto_errc::message_too_long);
  core_.begin_text();

  if (position_ == tag_position::detached) {
    SEALWIRE_EXPECTS(same_or_disjoint(out.data(), in.data(), in.size()));
    core_.decrypt(out.data(), in.data(), in.size());
    core_.text_len += in.size();
    return in.size();
  }

  // Trailing tag: the stream so far is held_ followed by in. Release all but
  // its last 16 bytes: first from held_, then straight from in.
  const std::size_t from_held = std::min<std::size_t>(held_len_, release);
  const std::size_t from_in = release - from_held;
  const bool in_place = release != 0 && !in.empty() && out.data() == in.data();
  SEALWIRE_EXPECTS(same_or_disjoint(out.data(), release, in.data(), in.size()));

  if (!in_place && in.size() >= aead_tag_size) {
    // The common case: every held byte is released and in's last 16 bytes
    // become the new held-back bytes; in is not modified, so copy them last.
    if (is_aes_gcm(core_.alg) && from_in <= small_piece) {
      // Small pieces: one call over a contiguous copy. Each AES-GCM call
      // finishes its partial block with a fresh keystream block and a GHASH
      // block; for 100-byte pieces the second call cost more than the copy.
      std::uint8_t joined[aead_tag_size + small_piece];
      std::memcpy(joined, held_, from_held);
      std::memcpy(joined + from_held, in.data(), from_in);
      core_.decrypt(out.data(), joined, release);
    } else {
      core_.decrypt(out.data(), held_, from_held);
      core_.decrypt(out.data() + from_held, in.data(), from_in);
    }
    std::memcpy(held_, in.data() + in.size() - aead_tag_size, aead_tag_size);
    held_len_ = aead_tag_size;
    core_.text_len += release;
    return release;
  }

  // The new held-back bytes, saved before an in-place decryption overwrites in.
  std::uint8_t next_held[aead_tag_size];
  std::size_t next_len;
  if (in.size() >= aead_tag_size) {
    std::memcpy(next_held, in.data() + in.size() - aead_tag_size, aead_tag_size);
    next_len = aead_tag_size;
  } else {
    next_len = held_len_ - from_held;
    detail::copy_small(next_held, held_ + from_held, next_len);
    detail::copy_small(next_held + next_len, in.data(), in.size());
    next_len += in.size();
  }

  if (!in_place) {
    core_.decrypt(out.data(), held_, from_held);
    core_.decrypt(out.data() + from_held, in.data(), from_in);
  } else {
    // In place, the output runs from_held bytes ahead of the input: decrypt
    // the held bytes aside, the input in place, then shift it into position.
    std::uint8_t front[aead_tag_size];
    core_.decrypt(front, held_, from_held);
    core_.decrypt(out.data(), in.data(), from_in);
    if (from_held != 0) {
      std::memmove(out.data() + from_held, out.data(), from_in);
      std::memcpy(out.data(), front, from_held);
    }
    ct::wipe(front, sizeof front);
  }
  core_.text_len += release;
  std::memcpy(held_, next_held, next_len);
  held_len_ = static_cast<std::uint8_t>(next_len);
  ct::wipe(next_held, sizeof next_held);
  return release;
}

result<void> aead_opener::verify(std::span<const std::uint8_t> tag) noexcept {
  std::uint8_t computed[aead_tag_size];
  core_.compute_tag(computed);
  const bool ok = ct::equal(computed, tag);
  ct::wipe(computed, sizeof computed);
  if (!ok) return fail(crypto_errc::authentication_failed).error();
  core_.wipe();
  core_.phase = detail::aead_phase::done;
  return {};
}

result<void> aead_opener::finish(std::span<const std::uint8_t> tag) noexcept {
  if (core_.phase == detail::aead_phase::failed) return failure_;
  SEALWIRE_EXPECTS(position_ == tag_position::detached);
  SEALWIRE_EXPECTS(core_.phase == detail::aead_phase::aad || core_.phase == detail::aead_phase::text);
  return verify(tag);
}

result<void> aead_opener::finish() noexcept {
  if (core_.phase == detail::aead_phase::failed) return failure_;
  SEALWIRE_EXPECTS(position_ == tag_position::trailing);
  SEALWIRE_EXPECTS(core_.phase == detail::aead_phase::aad || core_.phase == detail::aead_phase::text);
  if (held_len_ < aead_tag_size) return fail(crypto_errc::authentication_failed).error();
  std::uint8_t tag[aead_tag_size];
  std::memcpy(tag, held_, sizeof tag);
  result<void> r = verify(tag);
  ct::wipe(held_, sizeof held_);
  held_len_ = 0;
  return r;
}

std::string_view aead_opener::cipher_provider() const noexcept { return core_.provider(); }

// ---- one-shot ------------------------------------------------------------

namespace {

// seal_keyed and open_keyed run a keyed core over a whole message.
result<void> seal_keyed(detail::aead_core& core, std::span<std::uint8_t> ct, std::span<std::uint8_t, aead_tag_size> tag,
                        std::span<const std::uint8_t> pt, std::span<const std::uint8_t> aad) noexcept {
  SEALWIRE_EXPECTS(same_or_disjoint(ct.data(), pt.data(), pt.size()));
  SEALWIRE_EXPECTS(pt.size() <= core.max_text);
  core.add_aad(aad);
  core.begin_text();
  core.encrypt(ct.data(), pt.data(), pt.size());
  core.text_len = pt.size();
  core.compute_tag(tag);
  return {};
}

result<void> open_keyed(detail::aead_core& core, std::span<std::uint8_t> out, std::span<const std::uint8_t> ct,
                        std::span<const std::uint8_t> tag, std::span<const std::uint8_t> aad) noexcept {
  SEALWIRE_EXPECTS(same_or_disjoint(out.data(), ct.data(), ct.size()));
  core.add_aad(aad);
  core.begin_text();
  // Nothing is released unless the tag is right. The ChaCha family verifies
  // first and decrypts after. AES-GCM decrypts into out while it hashes (its
  // kernels run AES and GHASH side by side: one pass costs the larger of the
  // two, two passes their sum) and wipes out before returning a failure.
  const bool gcm = is_aes_gcm(core.alg);
  if (gcm) {
    core.decrypt(out.data(), ct.data(), ct.size());
  } else {
    core.authenticate(ct);
  }
  core.text_len = ct.size();
  std::uint8_t computed[aead_tag_size];
  core.compute_tag(computed);
  const bool ok = ct::equal(computed, tag);
  ct::wipe(computed, sizeof computed);
  if (!ok) {
    ct::wipe(out.first(ct.size()));
    return crypto_errc::authentication_failed;
  }
  if (!gcm) core.crypt(out.data(), ct.data(), ct.size());
  return {};
}

}  // namespace

result<void> aead_seal_detached(aead_algorithm alg, std::span<std::uint8_t> ct, std::span<std::uint8_t, aead_tag_size> tag,
                                std::span<const std::uint8_t> pt, std::span<const std::uint8_t> aad,
                                std::span<const std::uint8_t> nonce, std::span<const std::uint8_t> key) noexcept {
  if (!properties(alg).supports_aad && !aad.empty()) return crypto_errc::invalid_argument;
  if (ct.size() < pt.size()) return crypto_errc::buffer_too_small;
  detail::aead_core core;
  if (auto r = core.init(alg, key, nonce); !r) return r;
  return seal_keyed(core, ct, tag, pt, aad);
}

result<std::size_t> aead_seal(aead_algorithm alg, std::span<std::uint8_t> out, std::span<const std::uint8_t> pt,
                              std::span<const std::uint8_t> aad, std::span<const std::uint8_t> nonce,
                              std::span<const std::uint8_t> key) noexcept {
  if (out.size() < pt.size() || out.size() - pt.size() < aead_tag_size) return crypto_errc::buffer_too_small;
  const bool tag_first = properties(alg).tag_first;
  std::span<std::uint8_t> ct = out.subspan(tag_first ? aead_tag_size : 0, pt.size());
  std::uint8_t tag[aead_tag_size];
  if (auto r = aead_seal_detached(alg, ct, tag, pt, aad, nonce, key); !r) return r.error();
  std::memcpy(out.data() + (tag_first ? 0 : pt.size()), tag, aead_tag_size);
  return pt.size() + aead_tag_size;
}

result<void> aead_open_detached(aead_algorithm alg, std::span<std::uint8_t> out, std::span<const std::uint8_t> ct,
                                std::span<const std::uint8_t> tag, std::span<const std::uint8_t> aad,
                                std::span<const std::uint8_t> nonce, std::span<const std::uint8_t> key) noexcept {
  const aead_properties& p = properties(alg);
  if (!p.supports_aad && !aad.empty()) return crypto_errc::invalid_argument;
  if (out.size() < ct.size()) return crypto_errc::buffer_too_small;
  if (ct.size() > p.max_message_size) return crypto_errc::message_too_long;
  detail::aead_core core;
  if (auto r = core.init(alg, key, nonce); !r) return r;
  return open_keyed(core, out, ct, tag, aad);
}

result<std::size_t> aead_open(aead_algorithm alg, std::span<std::uint8_t> out, std::span<const std::uint8_t> input,
                              std::span<const std::uint8_t> aad, std::span<const std::uint8_t> nonce,
                              std::span<const std::uint8_t> key) noexcept {
  if (input.size() < aead_tag_size) return crypto_errc::authentication_failed;
  const std::size_t n = input.size() - aead_tag_size;
  const bool tag_first = properties(alg).tag_first;
  const auto ct = input.subspan(tag_first ? aead_tag_size : 0, n);
  const auto tag = input.subspan(tag_first ? 0 : n, aead_tag_size);
  if (auto r = aead_open_detached(alg, out, ct, tag, aad, nonce, key); !r) return r.error();
  return n;
}

// ---- AES-GCM with any IV length -------------------------------------------

namespace {

result<aead_algorithm> gcm_by_key(std::span<const std::uint8_t> key) noexcept {
  if (key.size() == 16) return aead_algorithm::aes128_gcm;
  if (key.size() == 32) return aead_algorithm::aes256_gcm;
  return crypto_errc::invalid_key;
}

}  // namespace

result<void> aes_gcm_seal_detached(std::span<std::uint8_t> ct, std::span<std::uint8_t, aead_tag_size> tag,
                                   std::span<const std::uint8_t> pt, std::span<const std::uint8_t> aad,
                                   std::span<const std::uint8_t> iv, std::span<const std::uint8_t> key) noexcept {
  const auto alg = gcm_by_key(key);
  if (!alg) return alg.error();
  if (ct.size() < pt.size()) return crypto_errc::buffer_too_small;
  detail::aead_core core;
  if (auto r = core.init_gcm(*alg, key, iv); !r) return r;
  return seal_keyed(core, ct, tag, pt, aad);
}

result<void> aes_gcm_open_detached(std::span<std::uint8_t> out, std::span<const std::uint8_t> ct,
                                   std::span<const std::uint8_t> tag, std::span<const std::uint8_t> aad,
                                   std::span<const std::uint8_t> iv, std::span<const std::uint8_t> key) noexcept {
  const auto alg = gcm_by_key(key);
  if (!alg) return alg.error();
  if (out.size() < ct.size()) return crypto_errc::buffer_too_small;
  if (ct.size() > properties(*alg).max_message_size) return crypto_errc::message_too_long;
  detail::aead_core core;
  if (auto r = core.init_gcm(*alg, key, iv); !r) return r;
  return open_keyed(core, out, ct, tag, aad);
}

std::string_view aes_gcm_provider() noexcept { return detail::gcm_provider(); }

}  // namespace sealwire::crypto
