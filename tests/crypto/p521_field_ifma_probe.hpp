// SPDX-License-Identifier: Apache-2.0
// Plain entry points into the P-521 IFMA field (p521_field_ifma_probe.cpp,
// built with the IFMA flags). Elements are twelve 64-bit words: eleven
// 48-bit-radix limbs and a zero pad. Call only where the CPU has AVX-512F,
// VL and IFMA.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::test::p521_ifma {

inline constexpr std::size_t words = 12;

void mul(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b);
void mul_in_place(std::uint64_t* a);  // a = a * a through mul, out aliasing both inputs
void sqr(std::uint64_t* r, const std::uint64_t* a);
void add(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b);
void add_lazy(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b);
void sub(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b);
void half(std::uint64_t* r, const std::uint64_t* a);
void cmov(std::uint64_t* r, const std::uint64_t* a, std::uint64_t mask);
bool from_bytes(std::uint64_t* r, const std::uint8_t* in66);
void to_bytes(std::uint8_t* out66, const std::uint64_t* a);
std::uint64_t zero_mask(const std::uint64_t* a);

}  // namespace sealwire::test::p521_ifma
