// SPDX-License-Identifier: Apache-2.0
// The ChaCha20-Poly1305 family and AES-GCM behind one interface: one-shot
// seal and open (attached or detached tag), an incremental sealer, and an
// incremental opener that either takes the tag at finish or holds back the
// last 16 bytes of the stream as the tag.
#pragma once

#include <sealwire/crypto/gcm_state.hpp>
#include <sealwire/crypto/poly1305.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/stream_cipher.hpp>

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

// is_aes_gcm reports whether alg is one of the AES-GCM algorithms.
[[nodiscard]] constexpr bool is_aes_gcm(aead_algorithm alg) noexcept {
  return alg == aead_algorithm::aes128_gcm || alg == aead_algorithm::aes256_gcm;
}

// aead_properties describes an algorithm's sizes and layout.
struct aead_properties {
  std::string_view name;
  std::size_t key_size;
  std::size_t nonce_size;
  std::size_t tag_size;
  std::uint64_t max_message_size;  // plaintext bytes one nonce may protect
  bool tag_first;                  // the attached layout is tag || ciphertext (secretbox)
  bool supports_aad;
};

[[nodiscard]] const aead_properties& properties(aead_algorithm alg) noexcept;

inline constexpr std::size_t aead_tag_size = 16;

// ---- one-shot ----------------------------------------------------------

// aead_seal encrypts pt and writes ciphertext and tag to out in the
// algorithm's attached layout, returning pt.size() + 16. out may start at
// pt (in-place for the tag-last layout; the secretbox layout shifts the text
// by 16 bytes, so out must then equal pt.data() - 16 or be disjoint).
// Errors: invalid_key, invalid_nonce, invalid_argument (AAD given to
// secretbox), buffer_too_small. A plaintext beyond max_message_size is a
// contract failure.
[[nodiscard]] result<std::size_t> aead_seal(aead_algorithm alg, std::span<std::uint8_t> out,
                                            std::span<const std::uint8_t> pt, std::span<const std::uint8_t> aad,
                                            std::span<const std::uint8_t> nonce,
                                            std::span<const std::uint8_t> key) noexcept;

// aead_seal_detached writes the ciphertext (pt.size() bytes) to ct and the tag to tag.
[[nodiscard]] result<void> aead_seal_detached(aead_algorithm alg, std::span<std::uint8_t> ct,
                                              std::span<std::uint8_t, aead_tag_size> tag,
                                              std::span<const std::uint8_t> pt, std::span<const std::uint8_t> aad,
                                              std::span<const std::uint8_t> nonce,
                                              std::span<const std::uint8_t> key) noexcept;

// aead_open authenticates the whole input and returns the plaintext length
// only when the tag verified. The ChaCha/Salsa AEADs verify first and only
// then decrypt into out; AES-GCM decrypts into out in the same pass (one
// pass over the data is what makes it fast) and wipes out before it reports
// a failure. Either way a failure releases nothing: out (its first
// input.size() - 16 bytes) is zeroed. Errors:
// authentication_failed (including an input shorter than a tag),
// buffer_too_small, invalid_key, invalid_nonce, invalid_argument,
// message_too_long.
[[nodiscard]] result<std::size_t> aead_open(aead_algorithm alg, std::span<std::uint8_t> out,
                                            std::span<const std::uint8_t> input, std::span<const std::uint8_t> aad,
                                            std::span<const std::uint8_t> nonce,
                                            std::span<const std::uint8_t> key) noexcept;

// aead_open_detached is aead_open with the tag apart; a tag that is not 16
// bytes long fails authentication.
[[nodiscard]] result<void> aead_open_detached(aead_algorithm alg, std::span<std::uint8_t> out,
                                              std::span<const std::uint8_t> ct, std::span<const std::uint8_t> tag,
                                              std::span<const std::uint8_t> aad, std::span<const std::uint8_t> nonce,
                                              std::span<const std::uint8_t> key) noexcept;

// ---- incremental -------------------------------------------------------

namespace detail {

struct aead_test_access;  // lets tests reach the message limits

enum class aead_phase : std::uint8_t { idle, aad, text, done, failed };

// How the Poly1305 input is laid out around the AAD and the ciphertext.
enum class aead_mac_format : std::uint8_t {
  rfc8439,    // aad, pad16, ct, pad16, le64(aad len), le64(ct len)
  original,   // aad, le64(aad len), ct, le64(ct len)
  secretbox,  // ct only
};

// aead_core is the keyed cipher and MAC shared by sealer and opener: the
// stream cipher and Poly1305 for the ChaCha/Salsa family, the GCM state for
// AES-GCM. Only the part the current algorithm uses is initialised, copied
// on a move and wiped.
struct aead_core {
  stream_state cipher;
  poly1305 mac;
  gcm_state gcm;
  std::uint64_t aad_len = 0;
  std::uint64_t text_len = 0;
  std::uint64_t max_text = 0;
  aead_algorithm alg = aead_algorithm::chacha20_poly1305;
  aead_phase phase = aead_phase::idle;
  aead_mac_format format = aead_mac_format::rfc8439;

  aead_core() noexcept = default;
  aead_core(aead_core&& other) noexcept;
  aead_core& operator=(aead_core&& other) noexcept;
  ~aead_core() { wipe(); }

  [[nodiscard]] result<void> init(aead_algorithm a, std::span<const std::uint8_t> key,
                                  std::span<const std::uint8_t> nonce) noexcept;
  // init_gcm keys AES-GCM with an IV of any non-zero length (SP 800-38D 7.1).
  [[nodiscard]] result<void> init_gcm(aead_algorithm a, std::span<const std::uint8_t> key,
                                      std::span<const std::uint8_t> iv) noexcept;
  void add_aad(std::span<const std::uint8_t> aad) noexcept;
  void begin_text() noexcept;
  // crypt runs the cipher only; encrypt and decrypt also feed the MAC with
  // the ciphertext, chunk by chunk while it is in L1.
  void crypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
  void encrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
  void decrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
  // authenticate feeds the MAC with ciphertext only (verify-first open).
  void authenticate(std::span<const std::uint8_t> ct) noexcept;
  void compute_tag(std::span<std::uint8_t, aead_tag_size> tag) noexcept;
  void wipe() noexcept;
  [[nodiscard]] std::string_view provider() const noexcept;
};

}  // namespace detail

// aead_sealer encrypts a message given in pieces:
//   init(alg, key, nonce); aad(...)*; update(out, in)*; finish(tag).
// Calls out of this order are contract failures. Not copyable; movable (the
// source is wiped). Destruction wipes.
class aead_sealer {
 public:
  aead_sealer() noexcept = default;

  // init keys a new message. Errors: invalid_key, invalid_nonce.
  [[nodiscard]] result<void> init(aead_algorithm alg, std::span<const std::uint8_t> key,
                                  std::span<const std::uint8_t> nonce) noexcept;

  // aad absorbs associated data; only before the first update. Secretbox
  // takes none (a non-empty span is a contract failure).
  void aad(std::span<const std::uint8_t> data) noexcept;

  // output_size is the exact number of bytes update(out, in) writes.
  [[nodiscard]] static constexpr std::size_t output_size(std::size_t in_size) noexcept { return in_size; }

  // update encrypts in into out (same buffer or disjoint) and returns
  // in.size(). Error: buffer_too_small when out is shorter; nothing changes
  // and the call may be repeated with a larger buffer. Exceeding the
  // algorithm's message limit is a contract failure.
  [[nodiscard]] result<std::size_t> update(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept;

  // finish writes the tag and wipes the state.
  void finish(std::span<std::uint8_t, aead_tag_size> tag) noexcept;

  // cipher_provider names the stream-cipher kernels in use (the AES-GCM
  // kernels for AES-GCM).
  [[nodiscard]] std::string_view cipher_provider() const noexcept;

 private:
  friend struct detail::aead_test_access;
  detail::aead_core core_;
};

// tag_position tells an opener where the tag is.
enum class tag_position : std::uint8_t {
  detached,  // the caller hands the tag to finish(tag)
  trailing,  // the tag is the last 16 bytes of the input stream
};

// aead_opener decrypts a message given in pieces:
//   init(alg, key, nonce, position); aad(...)*; update(out, in)*; finish.
// Plaintext written by update is UNVERIFIED until finish succeeds; a caller
// must not act on it before then. A failed finish wipes the opener (the
// caller should wipe what it was given). With tag_position::trailing the last
// 16 bytes seen are held back as the possible tag, so update may write up to
// 16 bytes fewer than it read; output_size says exactly how many.
class aead_opener {
 public:
  aead_opener() noexcept = default;
  aead_opener(aead_opener&& other) noexcept;
  aead_opener& operator=(aead_opener&& other) noexcept;
  ~aead_opener() { ct::wipe(held_, sizeof held_); }

  [[nodiscard]] result<void> init(aead_algorithm alg, std::span<const std::uint8_t> key,
                                  std::span<const std::uint8_t> nonce,
                                  tag_position position = tag_position::detached) noexcept;

  void aad(std::span<const std::uint8_t> data) noexcept;

  // output_size is the exact number of bytes the next update(out, in) with
  // in.size() == in_size writes.
  [[nodiscard]] std::size_t output_size(std::size_t in_size) const noexcept;

  // update decrypts; returns the bytes written. Errors: buffer_too_small
  // (nothing changes; retry with a larger buffer), message_too_long (the
  // opener fails for good). out and in may be the same buffer or disjoint.
  [[nodiscard]] result<std::size_t> update(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept;

  // finish (detached) verifies `tag` in constant time. Error:
  // authentication_failed (the opener is wiped), or the earlier failure.
  [[nodiscard]] result<void> finish(std::span<const std::uint8_t> tag) noexcept;

  // finish (trailing) verifies the held-back 16 bytes; a stream shorter than
  // a tag fails authentication.
  [[nodiscard]] result<void> finish() noexcept;

  [[nodiscard]] std::string_view cipher_provider() const noexcept;

 private:
  [[nodiscard]] result<void> verify(std::span<const std::uint8_t> tag) noexcept;
  result<std::size_t> fail(crypto_errc e) noexcept;
  friend struct detail::aead_test_access;

  detail::aead_core core_;
  std::uint8_t held_[aead_tag_size]{};
  std::uint8_t held_len_ = 0;
  tag_position position_ = tag_position::detached;
  crypto_errc failure_{};
};

// ---- typed front ends ----------------------------------------------------

// aead_suite gives one algorithm fixed-size key and nonce spans.
template <aead_algorithm Alg>
struct aead_suite {
  static constexpr aead_algorithm algorithm = Alg;
  static constexpr std::size_t key_size = Alg == aead_algorithm::aes128_gcm ? 16 : 32;
  static constexpr std::size_t nonce_size =
      Alg == aead_algorithm::chacha20_poly1305 || is_aes_gcm(Alg) ? 12
      : Alg == aead_algorithm::chacha20_poly1305_original         ? 8
                                                                  : 24;
  static constexpr std::size_t tag_size = aead_tag_size;
  using key_span = std::span<const std::uint8_t, key_size>;
  using nonce_span = std::span<const std::uint8_t, nonce_size>;

  [[nodiscard]] static result<std::size_t> seal(std::span<std::uint8_t> out, std::span<const std::uint8_t> pt,
                                                std::span<const std::uint8_t> aad, nonce_span nonce,
                                                key_span key) noexcept {
    return aead_seal(Alg, out, pt, aad, nonce, key);
  }
  [[nodiscard]] static result<void> seal_detached(std::span<std::uint8_t> ct, std::span<std::uint8_t, tag_size> tag,
                                                  std::span<const std::uint8_t> pt, std::span<const std::uint8_t> aad,
                                                  nonce_span nonce, key_span key) noexcept {
    return aead_seal_detached(Alg, ct, tag, pt, aad, nonce, key);
  }
  [[nodiscard]] static result<std::size_t> open(std::span<std::uint8_t> out, std::span<const std::uint8_t> input,
                                                std::span<const std::uint8_t> aad, nonce_span nonce,
                                                key_span key) noexcept {
    return aead_open(Alg, out, input, aad, nonce, key);
  }
  [[nodiscard]] static result<void> open_detached(std::span<std::uint8_t> out, std::span<const std::uint8_t> ct,
                                                  std::span<const std::uint8_t, tag_size> tag,
                                                  std::span<const std::uint8_t> aad, nonce_span nonce,
                                                  key_span key) noexcept {
    return aead_open_detached(Alg, out, ct, tag, aad, nonce, key);
  }

  class sealer : public aead_sealer {
   public:
    void init(key_span key, nonce_span nonce) noexcept { static_cast<void>(aead_sealer::init(Alg, key, nonce)); }
  };
  class opener : public aead_opener {
   public:
    void init(key_span key, nonce_span nonce, tag_position position = tag_position::detached) noexcept {
      static_cast<void>(aead_opener::init(Alg, key, nonce, position));
    }
  };
};

using chacha20_poly1305 = aead_suite<aead_algorithm::chacha20_poly1305>;
using xchacha20_poly1305 = aead_suite<aead_algorithm::xchacha20_poly1305>;
using xsalsa20_poly1305 = aead_suite<aead_algorithm::xsalsa20_poly1305>;
using chacha20_poly1305_original = aead_suite<aead_algorithm::chacha20_poly1305_original>;
using aes128_gcm = aead_suite<aead_algorithm::aes128_gcm>;
using aes256_gcm = aead_suite<aead_algorithm::aes256_gcm>;

}  // namespace sealwire::crypto
