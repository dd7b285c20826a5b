// SPDX-License-Identifier: Apache-2.0
// The parameters of NIST P-256, P-384 and P-521 (FIPS 186-4 D.1.2.3-5):
// field, group order, b and the base point, as hex constants, and the
// Montgomery field modulo each group order n that ECDSA's scalars live in.
#pragma once

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ecdh_nist.hpp>

#include "nist_field.hpp"

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail {

namespace {

// ---- curve parameters (FIPS 186-4 D.1.2.3-5) ----

struct p256_params {
  static constexpr std::size_t limbs = 4;
  static constexpr std::size_t bytes = 32;
  static constexpr const char* p_hex = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
};

struct p384_params {
  static constexpr std::size_t limbs = 6;
  static constexpr std::size_t bytes = 48;
  static constexpr const char* p_hex =
      "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff";
};

// The group orders n as Montgomery moduli (odd, below 2^(64 limbs)): P-521's
// n has 521 bits, so nine 64-bit limbs.
struct p256_order {
  static constexpr std::size_t limbs = 4;
  static constexpr std::size_t bytes = 32;
  static constexpr const char* p_hex = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
};

struct p384_order {
  static constexpr std::size_t limbs = 6;
  static constexpr std::size_t bytes = 48;
  static constexpr const char* p_hex =
      "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973";
};

struct p521_order {
  static constexpr std::size_t limbs = 9;
  static constexpr std::size_t bytes = 66;
  static constexpr const char* p_hex =
      "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8"
      "899c47aebb6fb71e91386409";
};

struct p256_curve {
  using field = mont_field<p256_params>;
  using scalar_field = mont_field<p256_order>;
  static constexpr std::size_t bytes = 32;
  static constexpr std::size_t bits = 256;  // scalars are below n < 2^bits
  static constexpr const char* n_hex = p256_order::p_hex;
  static constexpr const char* p_minus_2_hex = "ffffffff00000001000000000000000000000000fffffffffffffffffffffffd";
  static constexpr const char* b_hex = "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b";
  static constexpr const char* gx_hex = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
  static constexpr const char* gy_hex = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
};

struct p384_curve {
  using field = mont_field<p384_params>;
  using scalar_field = mont_field<p384_order>;
  static constexpr std::size_t bytes = 48;
  static constexpr std::size_t bits = 384;
  static constexpr const char* n_hex = p384_order::p_hex;
  static constexpr const char* p_minus_2_hex =
      "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000fffffffd";
  static constexpr const char* b_hex =
      "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef";
  static constexpr const char* gx_hex =
      "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7";
  static constexpr const char* gy_hex =
      "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f";
};

struct p521_curve {
  using field = p521_field;
  using scalar_field = mont_field<p521_order>;
  static constexpr std::size_t bytes = 66;
  static constexpr std::size_t bits = 521;
  static constexpr const char* n_hex = p521_order::p_hex;
  static constexpr const char* p_minus_2_hex =
      "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "fffffffffffffffffffffffffffffd";
  static constexpr const char* b_hex =
      "0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf0735"
      "73df883d2c34f1ef451fd46b503f00";
  static constexpr const char* gx_hex =
      "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de33"
      "48b3c1856a429bf97e7e31c2e5bd66";
  static constexpr const char* gy_hex =
      "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad076135"
      "3c7086a272c24088be94769fd16650";
};

// curve_t is the parameter struct of the public curve name C.
template <nist_curve C>
struct curve_of;
template <>
struct curve_of<nist_curve::p256> {
  using type = p256_curve;
};
template <>
struct curve_of<nist_curve::p384> {
  using type = p384_curve;
};
template <>
struct curve_of<nist_curve::p521> {
  using type = p521_curve;
};
template <nist_curve C>
using curve_t = typename curve_of<C>::type;

// scalar_in_range is true when the big-endian scalar k (Curve::bytes
// bytes) is in [1, n-1], computed without branching on k (a borrow chain
// and an OR of the bytes); only the verdict leaves, declassified.
template <class Curve>
bool scalar_in_range(const std::uint8_t* k) noexcept {
  static constexpr auto n = from_hex<Curve::bytes>(Curve::n_hex);
  std::uint64_t any = 0;
  for (std::size_t i = 0; i < Curve::bytes; ++i) any |= k[i];
  const std::uint64_t ok = be_less_than_mask(k, n.b, Curve::bytes) & ~ct::mask_if_zero(any);
  const bool verdict = (ct::value_barrier(ok) & 1) != 0;
  ct::declassify(&verdict, sizeof verdict);
  return verdict;
}

}  // namespace
}  // namespace sealwire::crypto::detail
