// SPDX-License-Identifier: Apache-2.0
// HKDF (RFC 5869): extract and expand, allocation-free, with inputs given in
// pieces so that labelled derivations (HPKE, TLS-style) need no buffers. The
// hash is fixed at compile time; kdf.hpp chooses it at run time.
#pragma once

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/result.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>

namespace sealwire::crypto {

// hkdf<Hash> is HKDF over HMAC-Hash (hmac.hpp), Hash being one of sha2.hpp's
// hashes. It holds no state: extract and expand are static.
template <class Hash>
struct hkdf {
  // hash_size is HashLen, the length of PRK in bytes.
  static constexpr std::size_t hash_size = Hash::digest_size;
  static constexpr std::size_t max_output = 255 * hash_size;  // RFC 5869 2.3
  // bytes_view is a read-only view of bytes (sealwire::bytes_view).
  using bytes_view = std::span<const std::uint8_t>;

  // extract (RFC 5869 2.2): PRK = HMAC-Hash(salt, IKM), IKM being the
  // concatenation of the pieces. An empty salt is HashLen zero bytes.
  static void extract(std::span<std::uint8_t, hash_size> prk, bytes_view salt,
                      std::initializer_list<bytes_view> ikm) noexcept {
    hmac<Hash> h(salt);
    for (bytes_view part : ikm) h.update(part);
    h.finish(prk);
  }
  // extract with the input keying material in one piece.
  static void extract(std::span<std::uint8_t, hash_size> prk, bytes_view salt, bytes_view ikm) noexcept {
    extract(prk, salt, {ikm});
  }

  // expand (RFC 5869 2.3) fills okm from PRK and info (the concatenation of
  // the pieces). Error: output_too_long when okm is longer than 255 * HashLen;
  // nothing is written then.
  [[nodiscard]] static result<void> expand(std::span<std::uint8_t> okm, bytes_view prk,
                                           std::initializer_list<bytes_view> info) noexcept {
    if (okm.size() > max_output) return crypto_errc::output_too_long;
    hmac<Hash> h(prk);
    std::uint8_t t[hash_size];
    std::size_t t_len = 0;
    std::uint8_t counter = 1;
    for (std::size_t done = 0; done < okm.size(); ++counter) {
      // T(i) = HMAC(PRK, T(i-1) || info || i)
      h.update({t, t_len});
      for (bytes_view part : info) h.update(part);
      h.update({&counter, 1});
      h.finish(t);
      t_len = hash_size;
      const std::size_t take = std::min(hash_size, okm.size() - done);
      std::memcpy(okm.data() + done, t, take);
      done += take;
    }
    ct::wipe(t, sizeof t);
    return {};
  }
  // expand with the info in one piece.
  [[nodiscard]] static result<void> expand(std::span<std::uint8_t> okm, bytes_view prk, bytes_view info) noexcept {
    return expand(okm, prk, {info});
  }
};

// hkdf_sha256 is HKDF-SHA256.
using hkdf_sha256 = hkdf<sha256>;
// hkdf_sha384 is HKDF-SHA384.
using hkdf_sha384 = hkdf<sha384>;
// hkdf_sha512 is HKDF-SHA512.
using hkdf_sha512 = hkdf<sha512>;

}  // namespace sealwire::crypto
