// SPDX-License-Identifier: Apache-2.0
// SHAKE128 and SHAKE256 (FIPS 202 6.2) on 4 or 8 independent streams at once,
// for callers that need several XOF outputs side by side (ML-KEM's matrix
// expansion and noise sampling, FIPS 203 4.2.2 and 4.2.1). The states are
// interleaved so that one vector kernel permutes all of them (AVX2, AVX-512),
// with the portable permutation as the fallback.
#pragma once

#include <sealwire/crypto/export.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {
namespace detail {

// keccak_multi_sponge is `ways` (4 or 8) sponges over Keccak-f[1600] with
// the same rate and padding byte, fed equal-length input and read for
// equal-length output, so they stay at the same position. Lane i of stream k
// is a_[i * ways + k]. Absorbing after a squeeze, unequal lengths and a
// wrong number of spans are contract failures.
class SEALWIRE_API keccak_multi_sponge {
 public:
  keccak_multi_sponge(std::size_t ways, std::size_t rate, std::uint8_t pad) noexcept;
  keccak_multi_sponge(const keccak_multi_sponge&) noexcept = default;
  keccak_multi_sponge& operator=(const keccak_multi_sponge&) noexcept = default;
  // The destructor wipes the states.
  ~keccak_multi_sponge();

  // reset clears the states for new inputs.
  void reset() noexcept;
  // absorb XORs in[k] into stream k; every in[k] has the same size.
  void absorb(std::span<const std::span<const std::uint8_t>> in) noexcept;
  // squeeze pads on its first call, then writes the next out[k].size()
  // bytes of stream k; every out[k] has the same size.
  void squeeze(std::span<const std::span<std::uint8_t>> out) noexcept;
  // wipe zeroes the states; reset before reuse.
  void wipe() noexcept;

 private:
  void pad_and_switch() noexcept;

  alignas(64) std::uint64_t a_[25 * 8];
  std::uint32_t ways_;
  std::uint32_t rate_;
  std::uint32_t pos_;  // bytes of the current block absorbed or squeezed, the same in every stream
  std::uint8_t pad_;
  bool squeezing_;
};

// keccak_wide_provider_name names the kernel that permutes the interleaved
// states ("portable", "bmi2", "avx2", "avx512").
SEALWIRE_API std::string_view keccak_wide_provider_name() noexcept;

}  // namespace detail

// shake_multi is Ways (4 or 8) SHAKE128 (SecurityBits 128) or SHAKE256
// streams computed together. update(in) absorbs in[k] into stream k, all
// pieces of one size; squeeze(out) writes the next out[k].size() bytes of
// stream k, all of one size, in pieces of any size (a multiple of
// block_size squeezes whole blocks straight from the permutation). Stream k's
// output is exactly shake_xof's for stream k's input. update after the first
// squeeze, or pieces of different sizes, are contract failures.
template <std::size_t SecurityBits, std::size_t Ways>
class shake_multi {
 public:
  static_assert(SecurityBits == 128 || SecurityBits == 256, "SHAKE128 or SHAKE256");
  static_assert(Ways == 4 || Ways == 8, "4 or 8 streams");
  // ways is the number of streams.
  static constexpr std::size_t ways = Ways;
  // block_size is the sponge's rate in bytes (168 or 136).
  static constexpr std::size_t block_size = 200 - SecurityBits / 4;
  // inputs is one input piece per stream.
  using inputs = std::span<const std::span<const std::uint8_t>, Ways>;
  // outputs is one output buffer per stream.
  using outputs = std::span<const std::span<std::uint8_t>, Ways>;

  // Streams ready for input.
  shake_multi() noexcept : sponge_(Ways, block_size, 0x1f) {}

  // reset starts new inputs.
  void reset() noexcept { sponge_.reset(); }

  // update absorbs in[k] into stream k (all the same size).
  void update(inputs in) noexcept { sponge_.absorb(in); }

  // squeeze writes the next out[k].size() bytes of stream k (all the same
  // size); the first call pads the inputs.
  void squeeze(outputs out) noexcept { sponge_.squeeze(out); }

  // wipe clears the states (for secret inputs); reset before reuse.
  void wipe() noexcept { sponge_.wipe(); }

  // hash writes out[k].size() bytes of SHAKE output of in[k] for each stream.
  static void hash(outputs out, inputs in) noexcept {
    shake_multi x;
    x.update(in);
    x.squeeze(out);
    x.wipe();
  }

  // provider names the kernel that permutes the streams together.
  [[nodiscard]] static std::string_view provider() noexcept { return detail::keccak_wide_provider_name(); }

 private:
  detail::keccak_multi_sponge sponge_;
};

// shake128_x4 is four SHAKE128 streams (ML-KEM's SampleNTT, FIPS 203 4.2.1).
using shake128_x4 = shake_multi<128, 4>;
// shake256_x4 is four SHAKE256 streams (ML-KEM's PRF, FIPS 203 4.1).
using shake256_x4 = shake_multi<256, 4>;
// shake128_x8 is eight SHAKE128 streams.
using shake128_x8 = shake_multi<128, 8>;
// shake256_x8 is eight SHAKE256 streams.
using shake256_x8 = shake_multi<256, 8>;

}  // namespace sealwire::crypto
