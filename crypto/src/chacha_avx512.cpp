// ChaCha kernel for AVX-512: sixteen blocks in parallel.
#include "detail/chacha_core.hpp"
#include "detail/vec_avx512.hpp"

namespace sealwire::crypto::detail {

void chacha_blocks_x16_avx512(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                              const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  blocks_x16<chacha_family>(w, counter, out, in, nblocks, rounds);
}

}  // namespace sealwire::crypto::detail
