// SPDX-License-Identifier: Apache-2.0
// X25519 (RFC 7748): scalar decoding, the all-zero check, key generation and
// the choice between the portable and the BMI2/ADX build of the ladder.
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/x25519.hpp>

#include "detail/x25519_ladder.hpp"

#include <cstring>

namespace sealwire::crypto {
namespace detail {

void x25519_portable(std::uint8_t out[32], const std::uint8_t k[32], const std::uint8_t u[32]) noexcept {
  x25519_ladder(out, k, u);
}
void x25519_portable_base(std::uint8_t out[32], const std::uint8_t k[32]) noexcept {
  constexpr std::uint8_t nine[32] = {9};
  x25519_ladder(out, k, nine);
}
#if SEALWIRE_X86_KERNELS
void x25519_bmi2(std::uint8_t out[32], const std::uint8_t k[32], const std::uint8_t u[32]) noexcept;
void x25519_bmi2_base(std::uint8_t out[32], const std::uint8_t k[32]) noexcept;
#endif

}  // namespace detail

namespace {

using ladder_fn = void (*)(std::uint8_t*, const std::uint8_t*, const std::uint8_t*) noexcept;
using base_fn = void (*)(std::uint8_t*, const std::uint8_t*) noexcept;

// ladder_choice: the ladder for any u, and the same for u = 9 (the BMI2/ADX
// one multiplies by x1 = 9 as a small constant there).
struct ladder_choice {
  std::string_view name;
  ladder_fn fn;
  base_fn base;
};

ladder_choice choose() noexcept {
#if SEALWIRE_X86_KERNELS
  // Four 64-bit limbs with mulx/adcx/adox (fe25519_4x64.hpp).
  if (cpu::has(cpu::bmi2 | cpu::adx)) return {"bmi2", &detail::x25519_bmi2, &detail::x25519_bmi2_base};
#endif
  return {"portable", &detail::x25519_portable, &detail::x25519_portable_base};
}

// decode_scalar clamps as RFC 7748 5 says: clear bits 0-2 and 255, set bit 254.
void decode_scalar(std::uint8_t k[32], const std::uint8_t scalar[32]) noexcept {
  std::memcpy(k, scalar, 32);
  k[0] &= 248;
  k[31] &= 127;
  k[31] |= 64;
}

void scalar_mult(std::uint8_t out[32], const std::uint8_t scalar[32], const std::uint8_t u[32]) noexcept {
  std::uint8_t k[32];
  decode_scalar(k, scalar);
  choose().fn(out, k, u);
  ct::wipe(k, sizeof k);
}

void scalar_mult_base(std::uint8_t out[32], const std::uint8_t scalar[32]) noexcept {
  std::uint8_t k[32];
  decode_scalar(k, scalar);
  choose().base(out, k);
  ct::wipe(k, sizeof k);
}

}  // namespace

result<void> x25519::shared_secret(std::span<std::uint8_t, 32> out, scalar_span scalar,
                                   std::span<const std::uint8_t> peer) noexcept {
  if (peer.size() != point_size) return crypto_errc::invalid_public_key;
  scalar_mult(out.data(), scalar.data(), peer.data());
  // RFC 7748 6.1: an all-zero output means a low-order point; refuse it.
  if (ct::is_zero(out)) return crypto_errc::zero_shared_secret;
  return {};
}

void x25519::public_key(std::span<std::uint8_t, 32> out, scalar_span scalar) noexcept {
  scalar_mult_base(out.data(), scalar.data());
}

result<void> x25519::generate(std::span<std::uint8_t, 32> private_key, std::span<std::uint8_t, 32> public_key_out) noexcept {
  if (auto r = random_bytes(private_key); !r) {
    ct::wipe(public_key_out);
    return r;
  }
  public_key(public_key_out, private_key);
  return {};
}

std::string_view x25519::provider() noexcept { return choose().name; }

}  // namespace sealwire::crypto
