// SPDX-License-Identifier: Apache-2.0
// The ChaCha20-Poly1305 family and AES-GCM behind one interface: a keyed
// aead_key that seals and opens many messages, one-shot seal and open
// (attached or detached tag), an incremental sealer, and an incremental
// opener that either takes the tag at finish or holds back the last 16 bytes
// of the stream as the tag. For a ready-made message format with random
// nonces, start from box.hpp; this header is the span-based layer beneath it.
//
// Argument order everywhere: output first, then the plaintext (or
// ciphertext), then the associated data (its own type, so the two cannot be
// swapped), then the nonce, then the key.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/storage.hpp>
#include <sealwire/crypto/parse.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// aead_algorithm names a construction.
enum class aead_algorithm : std::uint8_t {
  chacha20_poly1305,   // RFC 8439 2.8: 96-bit nonce
  xchacha20_poly1305,  // draft-irtf-cfrg-xchacha: 192-bit nonce
  xsalsa20_poly1305,   // NaCl crypto_secretbox: 192-bit nonce, no associated data
  chacha20_poly1305_original,  // draft-agl-tls-chacha20poly1305 / libsodium's
                               // crypto_aead_chacha20poly1305: 64-bit nonce
  aes128_gcm,  // NIST SP 800-38D with AES-128: 96-bit nonce (other IV lengths: aes_gcm.hpp)
  aes256_gcm,  // NIST SP 800-38D with AES-256: 96-bit nonce
};

// to_string names an algorithm: "chacha20poly1305", "xchacha20poly1305",
// "xsalsa20poly1305", "chacha20poly1305-original", "aes128gcm", "aes256gcm"
// (what parse<aead_algorithm> reads).
[[nodiscard]] SEALWIRE_API std::string_view to_string(aead_algorithm alg) noexcept;

// is_aes_gcm reports whether alg is one of the AES-GCM algorithms.
[[nodiscard]] constexpr bool is_aes_gcm(aead_algorithm alg) noexcept {
  return alg == aead_algorithm::aes128_gcm || alg == aead_algorithm::aes256_gcm;
}

// aead_properties describes an algorithm's sizes and layout.
struct aead_properties {
  std::string_view name;           // display name, e.g. "ChaCha20-Poly1305"
  std::size_t key_size;            // bytes
  std::size_t nonce_size;          // bytes
  std::size_t tag_size;            // bytes (16 for every algorithm here)
  std::uint64_t max_message_size;  // plaintext bytes one nonce may protect
  bool tag_first;                  // the attached layout is tag || ciphertext (secretbox)
  bool supports_aad;               // secretbox authenticates no associated data
};

// properties returns an algorithm's sizes and layout.
[[nodiscard]] SEALWIRE_API const aead_properties& properties(aead_algorithm alg) noexcept;

// aead_tag_size is the tag length of every AEAD here.
inline constexpr std::size_t aead_tag_size = 16;

namespace detail {
struct aead_key_state;
struct aead_core;
struct aead_opener_state;
struct aead_test_access;  // lets tests reach the message limits
// Bytes of opaque storage the key, sealer and opener keep their state in.
inline constexpr std::size_t aead_key_storage = 896;
inline constexpr std::size_t aead_core_storage = 3456;
inline constexpr std::size_t aead_opener_storage = 3520;
}  // namespace detail

// ---- keyed objects -------------------------------------------------------

// aead_key holds a key set up once for many messages: the ChaCha and Salsa20
// key, or AES-GCM's round keys and powers of the GHASH key H (most of the
// cost of a short AES-GCM message). seal and open take a fresh nonce per
// message; aead_sealer and aead_opener can start from it. Once initialised
// it is read only: one aead_key may serve several threads at once. Not
// copyable; movable (the source is wiped). Destruction wipes.
class SEALWIRE_API aead_key {
 public:
  // An empty key object: init before use (until then seal and open fail
  // with not_keyed).
  aead_key() noexcept;
  ~aead_key();
  // The move constructor takes over other's key; other is wiped and left empty.
  aead_key(aead_key&& other) noexcept;
  // Move assignment wipes this object's key, then takes over other's as the
  // move constructor does.
  aead_key& operator=(aead_key&& other) noexcept;
  aead_key(const aead_key&) = delete;
  aead_key& operator=(const aead_key&) = delete;

  // make returns a key object for alg. Error: invalid_key (wrong length).
  [[nodiscard]] static result<aead_key> make(aead_algorithm alg, bytes_view key) noexcept;

  // init (re)keys this object. Error: invalid_key (wrong length); the
  // object is then empty.
  [[nodiscard]] result<void> init(aead_algorithm alg, bytes_view key) noexcept;

  // keyed reports whether the object holds a key.
  [[nodiscard]] bool keyed() const noexcept;
  // algorithm is the algorithm of the key held (meaningful when keyed).
  [[nodiscard]] aead_algorithm algorithm() const noexcept;

  // seal encrypts pt and writes ciphertext and tag to out in the
  // algorithm's attached layout; returns pt.size() + 16. out may start at pt
  // (in place, tag-last layout) or be disjoint; the secretbox layout
  // shifts the text by 16 bytes, so out must then equal pt.data() - 16 or be
  // disjoint. Errors: not_keyed, invalid_nonce, invalid_argument
  // (associated data given to secretbox), buffer_too_small. A plaintext
  // beyond max_message_size is a contract failure.
  [[nodiscard]] result<std::size_t> seal(std::span<std::uint8_t> out, bytes_view pt, associated_data ad,
                                         bytes_view nonce) const noexcept;

  // seal_detached writes the ciphertext (pt.size() bytes) to ct and the tag to tag.
  [[nodiscard]] result<void> seal_detached(std::span<std::uint8_t> ct, std::span<std::uint8_t, aead_tag_size> tag,
                                           bytes_view pt, associated_data ad, bytes_view nonce) const noexcept;

  // open authenticates the whole input and returns the plaintext length
  // only when the tag verified. It decrypts into out in the same pass as it
  // authenticates (one pass over the data is what makes it fast) and wipes
  // out before it reports a failure: a failure releases nothing, out (its
  // first input.size() - 16 bytes) is zeroed. Errors: authentication_failed
  // (including an input shorter than a tag), not_keyed, buffer_too_small,
  // invalid_nonce, invalid_argument, message_too_long.
  [[nodiscard]] result<std::size_t> open(std::span<std::uint8_t> out, bytes_view input, associated_data ad,
                                         bytes_view nonce) const noexcept;

  // open_detached is open with the tag apart; a tag that is not 16 bytes
  // long fails authentication.
  [[nodiscard]] result<void> open_detached(std::span<std::uint8_t> out, bytes_view ct, bytes_view tag,
                                           associated_data ad, bytes_view nonce) const noexcept;

  // wipe clears the key; the object is empty afterwards.
  void wipe() noexcept;

 private:
  friend class aead_sealer;
  friend class aead_opener;
  friend struct detail::aead_test_access;
  [[nodiscard]] detail::aead_key_state& state() noexcept;
  [[nodiscard]] const detail::aead_key_state& state() const noexcept;

  detail::state_storage<detail::aead_key_storage> storage_;
};

// ---- one-shot ------------------------------------------------------------

// aead_seal is aead_key::seal with a key given as bytes (keyed for this
// call only). Errors as aead_key::seal, and invalid_key.
[[nodiscard]] SEALWIRE_API result<std::size_t> aead_seal(aead_algorithm alg, std::span<std::uint8_t> out,
                                                         bytes_view pt, associated_data ad, bytes_view nonce,
                                                         bytes_view key) noexcept;

// aead_seal_detached writes the ciphertext (pt.size() bytes) to ct and the tag to tag.
[[nodiscard]] SEALWIRE_API result<void> aead_seal_detached(aead_algorithm alg, std::span<std::uint8_t> ct,
                                                           std::span<std::uint8_t, aead_tag_size> tag, bytes_view pt,
                                                           associated_data ad, bytes_view nonce,
                                                           bytes_view key) noexcept;

// aead_open is aead_key::open with a key given as bytes. Errors as
// aead_key::open, and invalid_key.
[[nodiscard]] SEALWIRE_API result<std::size_t> aead_open(aead_algorithm alg, std::span<std::uint8_t> out,
                                                         bytes_view input, associated_data ad, bytes_view nonce,
                                                         bytes_view key) noexcept;

// aead_open_detached is aead_open with the tag apart.
[[nodiscard]] SEALWIRE_API result<void> aead_open_detached(aead_algorithm alg, std::span<std::uint8_t> out,
                                                           bytes_view ct, bytes_view tag, associated_data ad,
                                                           bytes_view nonce, bytes_view key) noexcept;

// ---- incremental -------------------------------------------------------

// aead_sealer encrypts a message given in pieces:
//   init(...); aad(...)*; update(out, in)*; finish(tag).
// Calls out of this order are contract failures. Not copyable; movable (the
// source is wiped). Destruction wipes.
class SEALWIRE_API aead_sealer {
 public:
  aead_sealer() noexcept;
  ~aead_sealer();
  // The move constructor takes over other's message in progress; other is
  // wiped.
  aead_sealer(aead_sealer&& other) noexcept;
  // Move assignment wipes this sealer, then takes over other's message as the
  // move constructor does.
  aead_sealer& operator=(aead_sealer&& other) noexcept;
  aead_sealer(const aead_sealer&) = delete;
  aead_sealer& operator=(const aead_sealer&) = delete;

  // init keys a new message. Errors: invalid_key, invalid_nonce.
  [[nodiscard]] result<void> init(aead_algorithm alg, bytes_view key, bytes_view nonce) noexcept;
  // init starts a new message under a key object (which must outlive
  // nothing: its key material is copied). Errors: not_keyed, invalid_nonce.
  [[nodiscard]] result<void> init(const aead_key& key, bytes_view nonce) noexcept;

  // aad absorbs associated data; only before the first update. Secretbox
  // takes none (a non-empty span is a contract failure).
  void aad(bytes_view data) noexcept;

  // output_size is the exact number of bytes update(out, in) writes.
  [[nodiscard]] static constexpr std::size_t output_size(std::size_t in_size) noexcept { return in_size; }

  // update encrypts in into out (same buffer or disjoint) and returns
  // in.size(). Error: buffer_too_small when out is shorter; nothing changes
  // and the call may be repeated with a larger buffer. Exceeding the
  // algorithm's message limit is a contract failure.
  [[nodiscard]] result<std::size_t> update(std::span<std::uint8_t> out, bytes_view in) noexcept;

  // update with two inputs encrypts a, then b, into out (a's ciphertext, then
  // b's), as update(out, a) and update(out.subspan(a.size()), b) would, and
  // returns a.size() + b.size(). Each input is either in place (a at
  // out.data(), b at out.data() + a.size()) or disjoint from all of out.
  // Handed together, a short b (a record's trailer after its content) can
  // take the last keystream block of a's wide kernel instead of a one-block
  // call of its own. Error: buffer_too_small as above.
  [[nodiscard]] result<std::size_t> update(std::span<std::uint8_t> out, bytes_view a, bytes_view b) noexcept;

  // finish writes the tag and wipes the state.
  void finish(std::span<std::uint8_t, aead_tag_size> tag) noexcept;

  // cipher_provider names the stream-cipher kernels in use (the AES-GCM
  // kernels for AES-GCM).
  [[nodiscard]] std::string_view cipher_provider() const noexcept;

 private:
  friend struct detail::aead_test_access;
  [[nodiscard]] detail::aead_core& core() noexcept;
  [[nodiscard]] const detail::aead_core& core() const noexcept;

  detail::state_storage<detail::aead_core_storage> storage_;
};

// tag_position tells an opener where the tag is.
enum class tag_position : std::uint8_t {
  detached,  // the caller hands the tag to finish(tag)
  trailing,  // the tag is the last 16 bytes of the input stream
};

// aead_opener decrypts a message given in pieces:
//   init(...); aad(...)*; update(out, in)*; finish.
// Plaintext written by update is UNVERIFIED until finish succeeds; a caller
// must not act on it before then. A failed finish wipes the opener (the
// caller should wipe what it was given). With tag_position::trailing the last
// 16 bytes seen are held back as the possible tag, so update may write up to
// 16 bytes fewer than it read; output_size says exactly how many.
class SEALWIRE_API aead_opener {
 public:
  aead_opener() noexcept;
  ~aead_opener();
  // The move constructor takes over other's message in progress, held-back
  // tag bytes and failure included; other is wiped.
  aead_opener(aead_opener&& other) noexcept;
  // Move assignment wipes this opener, then takes over other's message as the
  // move constructor does.
  aead_opener& operator=(aead_opener&& other) noexcept;
  aead_opener(const aead_opener&) = delete;
  aead_opener& operator=(const aead_opener&) = delete;

  // init keys a new message. Errors: invalid_key, invalid_nonce.
  [[nodiscard]] result<void> init(aead_algorithm alg, bytes_view key, bytes_view nonce,
                                  tag_position position = tag_position::detached) noexcept;
  // init starts a new message under a key object. Errors: not_keyed, invalid_nonce.
  [[nodiscard]] result<void> init(const aead_key& key, bytes_view nonce,
                                  tag_position position = tag_position::detached) noexcept;

  // aad absorbs associated data; only before the first update.
  void aad(bytes_view data) noexcept;

  // output_size is the exact number of bytes the next update(out, in) with
  // in.size() == in_size writes.
  [[nodiscard]] std::size_t output_size(std::size_t in_size) const noexcept;

  // update decrypts; returns the bytes written. Errors: buffer_too_small
  // (nothing changes; retry with a larger buffer), message_too_long (the
  // opener fails for good). out and in may be the same buffer or disjoint.
  [[nodiscard]] result<std::size_t> update(std::span<std::uint8_t> out, bytes_view in) noexcept;

  // finish (detached) verifies `tag` in constant time. Error:
  // authentication_failed (the opener is wiped), or the earlier failure.
  [[nodiscard]] result<void> finish(bytes_view tag) noexcept;

  // finish (trailing) verifies the held-back 16 bytes; a stream shorter than
  // a tag fails authentication.
  [[nodiscard]] result<void> finish() noexcept;

  // cipher_provider names the stream-cipher kernels in use (the AES-GCM
  // kernels for AES-GCM).
  [[nodiscard]] std::string_view cipher_provider() const noexcept;

 private:
  friend struct detail::aead_test_access;
  [[nodiscard]] detail::aead_opener_state& st() noexcept;
  [[nodiscard]] const detail::aead_opener_state& st() const noexcept;

  detail::state_storage<detail::aead_opener_storage> storage_;
};

// ---- typed front ends ----------------------------------------------------

// aead_suite gives one algorithm fixed-size key and nonce spans.
template <aead_algorithm Alg>
struct aead_suite {
  // algorithm is the algorithm this suite fixes.
  static constexpr aead_algorithm algorithm = Alg;
  // key_size is the key length in bytes: 16 for AES-128-GCM, 32 otherwise.
  static constexpr std::size_t key_size = Alg == aead_algorithm::aes128_gcm ? 16 : 32;
  // nonce_size is the nonce length in bytes: 12 for ChaCha20-Poly1305 and
  // AES-GCM, 8 for the original ChaCha20-Poly1305, 24 for the X variants.
  static constexpr std::size_t nonce_size =
      Alg == aead_algorithm::chacha20_poly1305 || is_aes_gcm(Alg) ? 12
      : Alg == aead_algorithm::chacha20_poly1305_original         ? 8
                                                                  : 24;
  // tag_size is the tag length in bytes (aead_tag_size).
  static constexpr std::size_t tag_size = aead_tag_size;
  // key_span is a key of exactly key_size bytes.
  using key_span = std::span<const std::uint8_t, key_size>;
  // nonce_span is a nonce of exactly nonce_size bytes.
  using nonce_span = std::span<const std::uint8_t, nonce_size>;

  // seal: aead_seal with this algorithm.
  [[nodiscard]] static result<std::size_t> seal(std::span<std::uint8_t> out, bytes_view pt, associated_data ad,
                                                nonce_span nonce, key_span key) noexcept {
    return aead_seal(Alg, out, pt, ad, nonce, key);
  }
  // seal_detached: aead_seal_detached with this algorithm.
  [[nodiscard]] static result<void> seal_detached(std::span<std::uint8_t> ct, std::span<std::uint8_t, tag_size> tag,
                                                  bytes_view pt, associated_data ad, nonce_span nonce,
                                                  key_span key) noexcept {
    return aead_seal_detached(Alg, ct, tag, pt, ad, nonce, key);
  }
  // open: aead_open with this algorithm.
  [[nodiscard]] static result<std::size_t> open(std::span<std::uint8_t> out, bytes_view input, associated_data ad,
                                                nonce_span nonce, key_span key) noexcept {
    return aead_open(Alg, out, input, ad, nonce, key);
  }
  // open_detached: aead_open_detached with this algorithm.
  [[nodiscard]] static result<void> open_detached(std::span<std::uint8_t> out, bytes_view ct,
                                                  std::span<const std::uint8_t, tag_size> tag, associated_data ad,
                                                  nonce_span nonce, key_span key) noexcept {
    return aead_open_detached(Alg, out, ct, tag, ad, nonce, key);
  }

  // sealer: an aead_sealer whose init takes this algorithm's key and nonce sizes.
  class sealer : public aead_sealer {
   public:
    // init cannot fail: the sizes are right by type.
    void init(key_span key, nonce_span nonce) noexcept { static_cast<void>(aead_sealer::init(Alg, key, nonce)); }
  };
  // opener: an aead_opener whose init takes this algorithm's key and nonce sizes.
  class opener : public aead_opener {
   public:
    // init cannot fail: the sizes are right by type.
    void init(key_span key, nonce_span nonce, tag_position position = tag_position::detached) noexcept {
      static_cast<void>(aead_opener::init(Alg, key, nonce, position));
    }
  };
};

// chacha20_poly1305 is ChaCha20-Poly1305 (RFC 8439) with typed key and nonce.
using chacha20_poly1305 = aead_suite<aead_algorithm::chacha20_poly1305>;
// xchacha20_poly1305 is XChaCha20-Poly1305 with typed key and nonce.
using xchacha20_poly1305 = aead_suite<aead_algorithm::xchacha20_poly1305>;
// xsalsa20_poly1305 is NaCl's secretbox with typed key and nonce.
using xsalsa20_poly1305 = aead_suite<aead_algorithm::xsalsa20_poly1305>;
// chacha20_poly1305_original is the 64-bit-nonce ChaCha20-Poly1305 with typed
// key and nonce.
using chacha20_poly1305_original = aead_suite<aead_algorithm::chacha20_poly1305_original>;
// aes128_gcm is AES-128-GCM (96-bit nonce) with typed key and nonce.
using aes128_gcm = aead_suite<aead_algorithm::aes128_gcm>;
// aes256_gcm is AES-256-GCM (96-bit nonce) with typed key and nonce.
using aes256_gcm = aead_suite<aead_algorithm::aes256_gcm>;

}  // namespace sealwire::crypto

namespace sealwire {
// parse<crypto::aead_algorithm> reads to_string's names (and the display names).
template <>
[[nodiscard]] SEALWIRE_API result<crypto::aead_algorithm> parse<crypto::aead_algorithm>(std::string_view text) noexcept;
}  // namespace sealwire
