// SPDX-License-Identifier: Apache-2.0
// The P-521 IFMA field (p521_field_ifma.hpp) behind plain functions on
// arrays of twelve 64-bit words, so that test_p521_field_ifma.cpp, built
// for any CPU, can reach it and skip where the CPU has no IFMA. This file
// alone is built with the IFMA flags (tests/CMakeLists.txt).
#include "p521_field_ifma_probe.hpp"

#include "detail/p521_field_ifma.hpp"

#include <cstring>

namespace sealwire::test::p521_ifma {
namespace {

using F = crypto::detail::p521_ifma_field;
static_assert(sizeof(F::fe) == words * sizeof(std::uint64_t));

F::fe in(const std::uint64_t* a) {
  F::fe x;
  std::memcpy(x.v, a, sizeof x.v);
  return x;
}

void out(std::uint64_t* r, const F::fe& x) { std::memcpy(r, x.v, sizeof x.v); }

}  // namespace

void mul(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b) {
  F::fe x = in(a), y = in(b), z;
  F::mul(z, x, y);
  out(r, z);
}

void mul_in_place(std::uint64_t* a) {
  F::fe x = in(a);
  F::mul(x, x, x);
  out(a, x);
}

void sqr(std::uint64_t* r, const std::uint64_t* a) {
  F::fe x = in(a), z;
  F::sqr(z, x);
  out(r, z);
}

void add(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b) {
  F::fe x = in(a), y = in(b), z;
  F::add(z, x, y);
  out(r, z);
}

void add_lazy(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b) {
  F::fe x = in(a), y = in(b), z;
  F::add_lazy(z, x, y);
  out(r, z);
}

void sub(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b) {
  F::fe x = in(a), y = in(b), z;
  F::sub(z, x, y);
  out(r, z);
}

void half(std::uint64_t* r, const std::uint64_t* a) {
  F::fe x = in(a), z;
  F::half(z, x);
  out(r, z);
}

void cmov(std::uint64_t* r, const std::uint64_t* a, std::uint64_t mask) {
  F::fe x = in(r), y = in(a);
  F::cmov(x, y, mask);
  out(r, x);
}

bool from_bytes(std::uint64_t* r, const std::uint8_t* in66) {
  F::fe x;
  const bool ok = F::from_bytes(x, in66);
  out(r, x);
  return ok;
}

void to_bytes(std::uint8_t* out66, const std::uint64_t* a) { F::to_bytes(out66, in(a)); }

std::uint64_t zero_mask(const std::uint64_t* a) { return F::zero_mask(in(a)); }

}  // namespace sealwire::test::p521_ifma
