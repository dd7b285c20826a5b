// ChaCha kernels for SSSE3/SSE4.1: four blocks in parallel, and one block
// spread over four 128-bit rows, the four quarter rounds of a column (then of
// a diagonal) done side by side.
#include "detail/chacha_core.hpp"
#include "detail/vec_sse41.hpp"

namespace sealwire::crypto::detail {

void chacha_blocks_x4_sse41(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                            const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  blocks_x4<chacha_family>(w, counter, out, in, nblocks, rounds);
}

void chacha_blocks_x1_sse41(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                            const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  const v4 r0 = load4(reinterpret_cast<const std::uint8_t*>(w));
  const v4 r1 = load4(reinterpret_cast<const std::uint8_t*>(w + 4));
  const v4 r2 = load4(reinterpret_cast<const std::uint8_t*>(w + 8));
  for (; nblocks != 0; --nblocks, ++counter, in += 64, out += 64) {
    const v4 r3 = {_mm_set_epi32(static_cast<int>(w[15]), static_cast<int>(w[14]), static_cast<int>(counter >> 32),
                                 static_cast<int>(counter))};
    v4 a = r0, b = r1, c = r2, d = r3;
    for (unsigned i = 0; i < rounds; i += 2) {
      chacha_qr(a, b, c, d);  // the four column quarter rounds
      // Rotate rows 1-3 so that each lane holds one diagonal, and back.
      b.v = _mm_shuffle_epi32(b.v, 0x39);
      c.v = _mm_shuffle_epi32(c.v, 0x4e);
      d.v = _mm_shuffle_epi32(d.v, 0x93);
      chacha_qr(a, b, c, d);
      b.v = _mm_shuffle_epi32(b.v, 0x93);
      c.v = _mm_shuffle_epi32(c.v, 0x4e);
      d.v = _mm_shuffle_epi32(d.v, 0x39);
    }
    store4(out, load4(in) ^ (a + r0));
    store4(out + 16, load4(in + 16) ^ (b + r1));
    store4(out + 32, load4(in + 32) ^ (c + r2));
    store4(out + 48, load4(in + 48) ^ (d + r3));
  }
}

}  // namespace sealwire::crypto::detail
