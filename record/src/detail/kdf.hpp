// SPDX-License-Identifier: Apache-2.0
// Internal: the handshake's hash, HKDF, HMAC and ExpandLabel (docs/protocol.md
// 4.2) for the KDF chosen at run time, and a transcript hash.
#pragma once

#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/sha2.hpp>
#include <sealwire/hpke/hpke.hpp>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <variant>

namespace sealwire::record::detail {

using bytes_view = std::span<const std::uint8_t>;

inline bytes_view text(std::string_view s) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// with_hash calls f with a default-constructed hash object of the KDF's hash.
template <class F>
decltype(auto) with_hash(hpke::kdf_id kdf, F&& f) {
  switch (kdf) {
    case hpke::kdf_id::hkdf_sha384: return f(crypto::sha384{});
    case hpke::kdf_id::hkdf_sha512: return f(crypto::sha512{});
    default: return f(crypto::sha256{});
  }
}

inline std::size_t hash_size(hpke::kdf_id kdf) noexcept {
  return with_hash(kdf, [](auto h) { return decltype(h)::digest_size; });
}

inline void extract(hpke::kdf_id kdf, std::span<std::uint8_t> prk, bytes_view salt, bytes_view ikm) noexcept {
  with_hash(kdf, [&](auto h) {
    using H = decltype(h);
    crypto::hkdf<H>::extract(prk.first<H::digest_size>(), salt, ikm);
  });
}

// expand_label = HKDF-Expand(secret, u16 L || "sealwire v1 " || label || u8 len(ctx) || ctx, L)
inline void expand_label(hpke::kdf_id kdf, std::span<std::uint8_t> out, bytes_view secret, std::string_view label,
                         bytes_view context) noexcept {
  const std::uint8_t length[2] = {static_cast<std::uint8_t>(out.size() >> 8), static_cast<std::uint8_t>(out.size())};
  const std::uint8_t ctx_len = static_cast<std::uint8_t>(context.size());
  with_hash(kdf, [&](auto h) {
    using H = decltype(h);
    static_cast<void>(crypto::hkdf<H>::expand(
        out, secret, {bytes_view(length), text("sealwire v1 "), text(label), bytes_view(&ctx_len, 1), context}));
  });
}

inline void hmac(hpke::kdf_id kdf, std::span<std::uint8_t> out, bytes_view key, bytes_view data) noexcept {
  with_hash(kdf, [&](auto h) {
    using H = decltype(h);
    crypto::hmac<H>::mac(out.first<H::digest_size>(), key, data);
  });
}

// transcript is the running hash of the handshake messages.
class transcript {
 public:
  explicit transcript(hpke::kdf_id kdf) noexcept {
    with_hash(kdf, [&](auto h) { state_ = h; });
  }
  void update(bytes_view msg) noexcept {
    std::visit([&](auto& h) { h.update(msg); }, state_);
  }
  // current writes the hash of everything so far (the running state stays).
  std::size_t current(std::span<std::uint8_t, 64> out) const noexcept {
    return std::visit(
        [&](auto h) {  // a copy: finishing it leaves the running state intact
          h.finish(out.first<decltype(h)::digest_size>());
          return decltype(h)::digest_size;
        },
        state_);
  }

 private:
  std::variant<crypto::sha256, crypto::sha384, crypto::sha512> state_;
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
