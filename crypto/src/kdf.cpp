// SPDX-License-Identifier: Apache-2.0
// SHA-2, HMAC and HKDF (RFC 5869) with the hash chosen at run time: one
// dispatch from hash_algorithm to the compile-time templates.
#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/kdf.hpp>

namespace sealwire::crypto {
namespace {

constexpr naming::entry<hash_algorithm> hash_names[] = {
    {hash_algorithm::sha2_256, "sha256"},
    {hash_algorithm::sha2_384, "sha384"},
    {hash_algorithm::sha2_512, "sha512"},
};

// with_hash calls f with a default-constructed object of h's hash type.
template <class F>
decltype(auto) with_hash(hash_algorithm h, F&& f) {
  switch (h) {
    case hash_algorithm::sha2_384: return f(sha384{});
    case hash_algorithm::sha2_512: return f(sha512{});
    case hash_algorithm::sha2_256: break;
  }
  return f(sha256{});
}

}  // namespace

std::string_view to_string(hash_algorithm h) noexcept { return naming::name_of(h, hash_names); }

void hkdf_extract(hash_algorithm h, std::span<std::uint8_t> prk, bytes_view salt,
                  std::initializer_list<bytes_view> ikm) noexcept {
  SEALWIRE_EXPECTS(prk.size() >= digest_size(h));
  with_hash(h, [&](auto hash) {
    using H = decltype(hash);
    hkdf<H>::extract(prk.first<H::digest_size>(), salt, ikm);
  });
}

result<void> hkdf_expand(hash_algorithm h, std::span<std::uint8_t> okm, bytes_view prk,
                         std::initializer_list<bytes_view> info) noexcept {
  return with_hash(h, [&](auto hash) {
    using H = decltype(hash);
    return hkdf<H>::expand(okm, prk, info);
  });
}

void hmac_compute(hash_algorithm h, std::span<std::uint8_t> tag, bytes_view key,
                  std::initializer_list<bytes_view> data) noexcept {
  SEALWIRE_EXPECTS(tag.size() >= digest_size(h));
  with_hash(h, [&](auto hash) {
    using H = decltype(hash);
    hmac<H> m(key);
    for (bytes_view part : data) m.update(part);
    m.finish(tag.first<H::digest_size>());
  });
}

void dynamic_hash::init(hash_algorithm h) noexcept {
  alg_ = h;
  with_hash(h, [&](auto hash) { state_ = hash; });
}

void dynamic_hash::update(bytes_view in) noexcept {
  std::visit([&](auto& hash) { hash.update(in); }, state_);
}

std::size_t dynamic_hash::current(std::span<std::uint8_t> out) const noexcept {
  return std::visit(
      [&](auto hash) {  // a copy: finishing it leaves the running state intact
        using H = decltype(hash);
        SEALWIRE_EXPECTS(out.size() >= H::digest_size);
        hash.finish(out.first<H::digest_size>());
        return H::digest_size;
      },
      state_);
}

}  // namespace sealwire::crypto

namespace sealwire {

template <>
result<crypto::hash_algorithm> parse<crypto::hash_algorithm>(std::string_view text) noexcept {
  return naming::parse_in(text, crypto::hash_names, false);
}

}  // namespace sealwire
