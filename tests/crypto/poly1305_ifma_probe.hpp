// SPDX-License-Identifier: Apache-2.0
// A plain entry point into the IFMA Poly1305 lane arithmetic
// (poly1305_ifma.hpp, through poly1305_ifma_probe.cpp, built with the IFMA
// flags), so that test_poly1305_ifma_bounds.cpp, built for any CPU, can reach
// it. Call only where the CPU has AVX-512F, VL, BW and IFMA and AVX2.
#pragma once

#include <cstdint>

namespace sealwire::test::poly1305_ifma {

// mul_add: eight lanes, acc[8 k + j] limb k of lane j; m[8 k + j] as
// poly1305_state::pw holds it (r0, r1, r2, 20 r1, 20 r2); blocks: eight
// 16-byte blocks, block j into lane j (with its 2^128). acc = acc * m + block.
void mul_add(std::uint64_t acc[24], const std::uint64_t m[40], const std::uint8_t blocks[128]);

}  // namespace sealwire::test::poly1305_ifma
