// SPDX-License-Identifier: Apache-2.0
// Internal: the handshake's HKDF, HMAC and ExpandLabel (docs/protocol.md 4.2)
// on crypto's run-time hash dispatch, a transcript hash, and the big-endian
// field writer and reader of the handshake messages.
#pragma once

#include <sealwire/crypto/kdf.hpp>
#include <sealwire/hpke/suite.hpp>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace sealwire::record::detail {

using bytes_view = std::span<const std::uint8_t>;

// hash_of is the hash of a KDF the record layer accepts (checked before).
inline crypto::hash_algorithm hash_of(hpke::kdf_id kdf) noexcept {
  return hpke::kdf_hash(kdf).value_or(crypto::hash_algorithm::sha2_256);
}

inline std::size_t hash_size(hpke::kdf_id kdf) noexcept { return crypto::digest_size(hash_of(kdf)); }

// extract is HKDF-Extract(salt, ikm1 || ikm2).
inline void extract(hpke::kdf_id kdf, std::span<std::uint8_t> prk, bytes_view salt, bytes_view ikm1,
                    bytes_view ikm2 = {}) noexcept {
  crypto::hkdf_extract(hash_of(kdf), prk, salt, {ikm1, ikm2});
}

// label_prefix starts every ExpandLabel label (docs/protocol.md 4.2).
inline constexpr std::string_view label_prefix = "sealwire v2 ";
// max_label_size keeps "sealwire v2 " || label within a u8 length.
inline constexpr std::size_t max_label_size = 255 - label_prefix.size();

// expand_label is HKDF-Expand(secret, HkdfLabel, L) with TLS 1.3's HkdfLabel
// shape (RFC 8446 7.1): u16 L || u8 len(prefix || label) || prefix || label
// || u8 len(context) || context. Labels up to max_label_size and contexts up
// to 255 bytes (callers check); returns false only when L is too long.
inline bool expand_label(hpke::kdf_id kdf, std::span<std::uint8_t> out, bytes_view secret, std::string_view label,
                         bytes_view context) noexcept {
  const std::uint8_t length[2] = {static_cast<std::uint8_t>(out.size() >> 8), static_cast<std::uint8_t>(out.size())};
  const std::uint8_t label_len = static_cast<std::uint8_t>(label_prefix.size() + label.size());
  const std::uint8_t ctx_len = static_cast<std::uint8_t>(context.size());
  return crypto::hkdf_expand(hash_of(kdf), out, secret,
                             {bytes_view(length), bytes_view(&label_len, 1), bytes_of(label_prefix), bytes_of(label),
                              bytes_view(&ctx_len, 1), context})
      .has_value();
}

inline void hmac(hpke::kdf_id kdf, std::span<std::uint8_t> out, bytes_view key, bytes_view data) noexcept {
  crypto::hmac_compute(hash_of(kdf), out, key, {data});
}

// transcript is the running hash of the handshake messages.
class transcript {
 public:
  explicit transcript(hpke::kdf_id kdf) noexcept : h_(hash_of(kdf)) {}
  void update(bytes_view msg) noexcept { h_.update(msg); }
  // current writes the hash of everything so far (the running state stays).
  std::size_t current(std::span<std::uint8_t, 64> out) const noexcept { return h_.current(out); }

 private:
  crypto::dynamic_hash h_;
};

// writer appends big-endian fields to a message.
class writer {
 public:
  explicit writer(std::vector<std::uint8_t>& out) : out_(out) {}
  void u8(unsigned v) { out_.push_back(static_cast<std::uint8_t>(v)); }
  void u16(unsigned v) {
    out_.push_back(static_cast<std::uint8_t>(v >> 8));
    out_.push_back(static_cast<std::uint8_t>(v));
  }
  void raw(bytes_view b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void vec16(bytes_view b) {
    u16(static_cast<unsigned>(b.size()));
    raw(b);
  }

 private:
  std::vector<std::uint8_t>& out_;
};

// reader reads fields with bounds checks; any overrun makes ok() false.
class reader {
 public:
  explicit reader(bytes_view in) : in_(in) {}
  unsigned u8() {
    if (!need(1)) return 0;
    return in_[pos_++];
  }
  unsigned u16() {
    if (!need(2)) return 0;
    const unsigned v = (static_cast<unsigned>(in_[pos_]) << 8) | in_[pos_ + 1];
    pos_ += 2;
    return v;
  }
  bytes_view raw(std::size_t n) {
    if (!need(n)) return {};
    const bytes_view v = in_.subspan(pos_, n);
    pos_ += n;
    return v;
  }
  bytes_view vec16() { return raw(u16()); }
  [[nodiscard]] bool ok() const noexcept { return ok_; }
  [[nodiscard]] bool done() const noexcept { return ok_ && pos_ == in_.size(); }

 private:
  bool need(std::size_t n) {
    if (!ok_ || in_.size() - pos_ < n) {
      ok_ = false;
      return false;
    }
    return true;
  }
  bytes_view in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace sealwire::record::detail
