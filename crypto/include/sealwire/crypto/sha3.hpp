// SPDX-License-Identifier: Apache-2.0
// SHA-3 (FIPS 202): SHA3-224/256/384/512 and the extendable-output functions
// SHAKE128 and SHAKE256, incremental and one-shot, with copyable state.
// Ed448 (ed448.hpp) signs with SHAKE256.
#pragma once

#include <sealwire/crypto/export.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {
namespace detail {

// keccak_sponge is the sponge construction (FIPS 202 section 4) over
// Keccak-f[1600] with a rate of rate bytes and the domain bits plus the first
// padding bit in pad (0x06 for SHA-3, 0x1f for SHAKE; FIPS 202 6.1, 6.2 and
// B.2). It absorbs until the first squeeze, then squeezes; absorbing after a
// squeeze is a contract failure.
class SEALWIRE_API keccak_sponge {
 public:
  // A sponge with the given rate in bytes (a multiple of 8 below 200) and
  // domain/padding byte, ready to absorb.
  keccak_sponge(std::size_t rate, std::uint8_t pad) noexcept;
  // Copying snapshots the sponge; both copies may continue.
  keccak_sponge(const keccak_sponge&) noexcept = default;
  // Copy assignment snapshots the sponge, as the copy constructor does.
  keccak_sponge& operator=(const keccak_sponge&) noexcept = default;
  // The destructor wipes the state.
  ~keccak_sponge();

  // reset clears the state for a new input.
  void reset() noexcept;
  // absorb XORs input into the state, permuting after each full block; a
  // contract failure after the first squeeze.
  void absorb(std::span<const std::uint8_t> in) noexcept;
  // squeeze pads the input on its first call, then writes the next
  // out.size() bytes of output.
  void squeeze(std::span<std::uint8_t> out) noexcept;
  // wipe zeroes the state; reset before reuse.
  void wipe() noexcept;

 private:
  void pad_and_switch() noexcept;

  std::uint64_t a_[25];
  std::uint32_t rate_;
  std::uint32_t pos_;  // bytes of the current block absorbed or squeezed
  std::uint8_t pad_;
  bool squeezing_;
};

// keccak_provider_name names the single-state Keccak-f[1600] kernel that
// runs ("portable", "bmi2" or "avx512").
SEALWIRE_API std::string_view keccak_provider_name() noexcept;

}  // namespace detail

// sha3_hash is SHA3-(8 DigestSize) (FIPS 202 6.1): absorb in pieces of any
// size, then finish. Copy it to snapshot a hash mid-stream.
template <std::size_t DigestSize>
class sha3_hash {
 public:
  // digest_size is the digest length in bytes.
  static constexpr std::size_t digest_size = DigestSize;
  // block_size is the sponge's rate in bytes (200 - 2 digest_size).
  static constexpr std::size_t block_size = 200 - 2 * DigestSize;
  // digest_span is an output of exactly digest_size bytes.
  using digest_span = std::span<std::uint8_t, digest_size>;

  // A hash ready for a message.
  sha3_hash() noexcept : sponge_(block_size, 0x06) {}

  // reset starts a new message.
  void reset() noexcept { sponge_.reset(); }

  // update absorbs message bytes in pieces of any size.
  void update(std::span<const std::uint8_t> in) noexcept { sponge_.absorb(in); }

  // finish writes the digest; the object is reset for a new message.
  void finish(digest_span out) noexcept {
    sponge_.squeeze(out);
    sponge_.reset();
  }

  // wipe clears the state (for secret inputs); reset before reuse.
  void wipe() noexcept { sponge_.wipe(); }

  // hash computes the digest of a whole message.
  static void hash(digest_span out, std::span<const std::uint8_t> in) noexcept {
    sha3_hash h;
    h.update(in);
    h.finish(out);
    h.wipe();
  }

  // provider names the Keccak-f[1600] kernel that runs.
  [[nodiscard]] static std::string_view provider() noexcept { return detail::keccak_provider_name(); }

 private:
  detail::keccak_sponge sponge_;
};

// shake_xof is SHAKE128 (SecurityBits 128) or SHAKE256 (FIPS 202 6.2): absorb
// in pieces of any size, then squeeze output in pieces of any size; the
// output is one stream, so squeezing n bytes then m gives the first n + m
// bytes of a single squeeze. Calling update after the first squeeze is a
// contract failure (reset starts a new input). Copy it to snapshot.
template <std::size_t SecurityBits>
class shake_xof {
 public:
  static_assert(SecurityBits == 128 || SecurityBits == 256, "SHAKE128 or SHAKE256");
  // block_size is the sponge's rate in bytes (168 or 136).
  static constexpr std::size_t block_size = 200 - SecurityBits / 4;

  // A XOF ready for input.
  shake_xof() noexcept : sponge_(block_size, 0x1f) {}

  // reset starts a new input.
  void reset() noexcept { sponge_.reset(); }

  // update absorbs input bytes; a contract failure after squeeze.
  void update(std::span<const std::uint8_t> in) noexcept { sponge_.absorb(in); }

  // squeeze writes the next out.size() bytes of output (the first call pads
  // the input).
  void squeeze(std::span<std::uint8_t> out) noexcept { sponge_.squeeze(out); }

  // wipe clears the state (for secret inputs); reset before reuse.
  void wipe() noexcept { sponge_.wipe(); }

  // hash writes out.size() bytes of SHAKE output for a whole input.
  static void hash(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept {
    shake_xof x;
    x.update(in);
    x.squeeze(out);
    x.wipe();
  }

  // provider names the Keccak-f[1600] kernel that runs.
  [[nodiscard]] static std::string_view provider() noexcept { return detail::keccak_provider_name(); }

 private:
  detail::keccak_sponge sponge_;
};

// sha3_224 is SHA3-224.
using sha3_224 = sha3_hash<28>;
// sha3_256 is SHA3-256.
using sha3_256 = sha3_hash<32>;
// sha3_384 is SHA3-384.
using sha3_384 = sha3_hash<48>;
// sha3_512 is SHA3-512.
using sha3_512 = sha3_hash<64>;
// shake128 is SHAKE128.
using shake128 = shake_xof<128>;
// shake256 is SHAKE256.
using shake256 = shake_xof<256>;

}  // namespace sealwire::crypto
