// SPDX-License-Identifier: Apache-2.0
// HMAC (RFC 2104, FIPS 198-1) over the SHA-2 hashes, with the hash fixed at
// compile time (kdf.hpp chooses it at run time; hkdf.hpp builds on this).
#pragma once

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/sha2.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace sealwire::crypto {

// hmac<Hash> computes HMAC-Hash over a message given in pieces. The keyed
// inner and outer states are kept, so after finish the same key serves the
// next message without re-keying. Copyable (the copy holds the key);
// destruction wipes.
template <class Hash>
class hmac {
 public:
  // tag_size is the tag length in bytes, the hash's digest size.
  static constexpr std::size_t tag_size = Hash::digest_size;
  // block_size is the hash's block size in bytes; longer keys are hashed first.
  static constexpr std::size_t block_size = Hash::block_size;
  // tag_span is an output of exactly tag_size bytes.
  using tag_span = std::span<std::uint8_t, tag_size>;

  hmac() noexcept = default;
  // A MAC keyed with key, as init(key).
  explicit hmac(std::span<const std::uint8_t> key) noexcept { init(key); }
  // Copying duplicates the key and the message so far.
  hmac(const hmac&) noexcept = default;
  // Copy assignment duplicates the key and the message so far.
  hmac& operator=(const hmac&) noexcept = default;
  ~hmac() {
    inner_key_.wipe();
    outer_key_.wipe();
    inner_.wipe();
  }

  // init keys the MAC; a key longer than a block is hashed first (RFC 2104 2).
  void init(std::span<const std::uint8_t> key) noexcept {
    std::uint8_t k[block_size] = {};
    if (key.size() > block_size) {
      Hash::hash(std::span<std::uint8_t, tag_size>(k, tag_size), key);
    } else if (!key.empty()) {
      std::memcpy(k, key.data(), key.size());
    }
    for (auto& b : k) b ^= 0x36;
    inner_key_.reset();
    inner_key_.update(k);
    for (auto& b : k) b ^= 0x36 ^ 0x5c;
    outer_key_.reset();
    outer_key_.update(k);
    ct::wipe(k, sizeof k);
    inner_ = inner_key_;
  }

  // update absorbs message bytes in pieces of any size.
  void update(std::span<const std::uint8_t> in) noexcept { inner_.update(in); }

  // finish writes the tag and readies the MAC for another message.
  void finish(tag_span out) noexcept {
    std::uint8_t inner_hash[tag_size];
    inner_.finish(inner_hash);
    Hash outer = outer_key_;
    outer.update(inner_hash);
    outer.finish(out);
    outer.wipe();
    ct::wipe(inner_hash, sizeof inner_hash);
    inner_ = inner_key_;
  }

  // mac computes the tag of a whole message.
  static void mac(tag_span out, std::span<const std::uint8_t> key, std::span<const std::uint8_t> msg) noexcept {
    hmac h(key);
    h.update(msg);
    h.finish(out);
  }

  // verify compares the tag of msg with `tag` in constant time; a tag of the
  // wrong length does not verify.
  [[nodiscard]] static bool verify(std::span<const std::uint8_t> tag, std::span<const std::uint8_t> key,
                                   std::span<const std::uint8_t> msg) noexcept {
    std::uint8_t t[tag_size];
    mac(t, key, msg);
    const bool ok = ct::equal(t, tag);
    ct::wipe(t, sizeof t);
    return ok;
  }

 private:
  Hash inner_key_, outer_key_, inner_;
};

// hmac_sha256 is HMAC-SHA256.
using hmac_sha256 = hmac<sha256>;
// hmac_sha384 is HMAC-SHA384.
using hmac_sha384 = hmac<sha384>;
// hmac_sha512 is HMAC-SHA512.
using hmac_sha512 = hmac<sha512>;

}  // namespace sealwire::crypto
