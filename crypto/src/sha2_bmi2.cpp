// SPDX-License-Identifier: Apache-2.0
// SHA-256 and SHA-512 compression built for BMI2: the portable code, which
// the compiler turns into rorx rotates (no flags dependency) here.
#include "detail/sha2_core.hpp"

namespace sealwire::crypto::detail {

void sha256_compress_bmi2(std::uint32_t h[8], const std::uint8_t* in, std::size_t n) noexcept {
  sha2_compress<std::uint32_t, 64>(h, in, n, sha256_k);
}

void sha512_compress_bmi2(std::uint64_t h[8], const std::uint8_t* in, std::size_t n) noexcept {
  sha2_compress<std::uint64_t, 80>(h, in, n, sha512_k);
}

}  // namespace sealwire::crypto::detail
