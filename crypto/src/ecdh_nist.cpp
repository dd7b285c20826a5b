// SPDX-License-Identifier: Apache-2.0
// ECDH on P-256, P-384 and P-521 (SEC 1 3.3.1): key encoding and range
// checks and key generation around the curve arithmetic of detail/nist_scalar_mul.hpp.
// P-256 and P-521 go through their kernel tables (nist_kernel.hpp: the
// portable build, or the BMI2/ADX one with a dedicated mulx field for P-256
// and the AVX-512 IFMA one for P-521); P-384 has one portable build (a
// BMI2/ADX build of the generic code measured no faster).
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ecdh_nist.hpp>
#include <sealwire/crypto/random.hpp>

#include "detail/nist_kernel.hpp"
#include "detail/nist_scalar_mul.hpp"

namespace sealwire::crypto {
namespace {

template <nist_curve C>
using curve_ops = detail::ec<detail::curve_t<C>>;

// scalar_valid: 1 <= k < n, the verdict alone public.
template <nist_curve C>
bool scalar_valid(const std::uint8_t* k) noexcept {
  return detail::scalar_in_range<detail::curve_t<C>>(k);
}

// shared_x and base_point: the curve's kernel (P-384 has one build).
template <nist_curve C>
bool shared_x(std::uint8_t* out, const std::uint8_t* scalar, const std::uint8_t* peer_xy) noexcept {
  if constexpr (detail::has_kernels<C>) {
    return detail::kernel_of<C>().shared(out, scalar, peer_xy);
  } else {
    return curve_ops<C>::shared(out, scalar, peer_xy);
  }
}

template <nist_curve C>
void base_point(std::uint8_t* out_xy, const std::uint8_t* scalar) noexcept {
  if constexpr (detail::has_kernels<C>) {
    detail::kernel_of<C>().base(out_xy, scalar);
  } else {
    curve_ops<C>::base(out_xy, scalar);
  }
}

}  // namespace

template <nist_curve C>
result<void> ecdh_nist<C>::check_private_key(scalar_span scalar) noexcept {
  if (!scalar_valid<C>(scalar.data())) return crypto_errc::invalid_key;
  return {};
}

template <nist_curve C>
result<void> ecdh_nist<C>::check_public_key(std::span<const std::uint8_t> peer) noexcept {
  // SEC 1 2.3.4: only the uncompressed form 0x04 || X || Y; the point at
  // infinity (0x00) and compressed points do not have this length.
  if (peer.size() != point_size || peer[0] != 0x04) return crypto_errc::invalid_public_key;
  typename curve_ops<C>::affine p;
  if (!curve_ops<C>::decode_point(p, peer.data() + 1)) return crypto_errc::invalid_public_key;
  return {};
}

template <nist_curve C>
result<void> ecdh_nist<C>::shared_secret(std::span<std::uint8_t, secret_size> out, scalar_span scalar,
                                         std::span<const std::uint8_t> peer) noexcept {
  if (!scalar_valid<C>(scalar.data())) {
    ct::wipe(out);
    return crypto_errc::invalid_key;
  }
  if (peer.size() != point_size || peer[0] != 0x04 ||
      !shared_x<C>(out.data(), scalar.data(), peer.data() + 1)) {
    ct::wipe(out);
    return crypto_errc::invalid_public_key;
  }
  return {};
}

template <nist_curve C>
result<void> ecdh_nist<C>::public_key(std::span<std::uint8_t, point_size> out, scalar_span scalar) noexcept {
  if (!scalar_valid<C>(scalar.data())) {
    ct::wipe(out);
    return crypto_errc::invalid_key;
  }
  out[0] = 0x04;
  base_point<C>(out.data() + 1, scalar.data());
  return {};
}

template <nist_curve C>
result<void> ecdh_nist<C>::generate(std::span<std::uint8_t, scalar_size> private_key,
                                    std::span<std::uint8_t, point_size> public_key_out) noexcept {
  // Rejection sampling (FIPS 186-4 B.4.2): a candidate outside [1, n-1] is
  // drawn again. The chance of that is below 2^-32 per draw, so running out
  // of attempts means a broken source.
  for (int attempt = 0; attempt < 64; ++attempt) {
    if (auto r = random_bytes(private_key); !r) {
      ct::wipe(private_key);
      ct::wipe(public_key_out);
      return r;
    }
    if constexpr (C == nist_curve::p521) private_key[0] &= 0x01;  // n < 2^521
    if (scalar_valid<C>(private_key.data())) {
      public_key_out[0] = 0x04;
      base_point<C>(public_key_out.data() + 1, private_key.data());
      return {};
    }
  }
  ct::wipe(private_key);
  ct::wipe(public_key_out);
  return crypto_errc::rng_failure;
}

template <nist_curve C>
std::string_view ecdh_nist<C>::provider() noexcept {
  if constexpr (detail::has_kernels<C>) return detail::kernel_of<C>().name;
  return "portable";
}

template struct ecdh_nist<nist_curve::p256>;
template struct ecdh_nist<nist_curve::p384>;
template struct ecdh_nist<nist_curve::p521>;

}  // namespace sealwire::crypto
