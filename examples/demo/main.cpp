// sealwire-demo: a first look at the library — what the CPU offers, a fresh
// random key, and its hex form checked in constant time.
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/hex.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/secret.hpp>

#include <cstdio>
#include <string>

namespace cpu = sealwire::crypto::cpu;
namespace crypto = sealwire::crypto;

int main() {
  std::string features;
  for (std::uint32_t bit = 1; bit != 0 && bit <= cpu::vpclmulqdq; bit <<= 1) {
    if ((cpu::detected() & bit) != 0) {
      features += ' ';
      features += cpu::feature_name(static_cast<cpu::feature>(bit));
    }
  }
  std::printf("sealwire demo\n");
  std::printf("  CPU features:%s\n", features.c_str());
  std::printf("  kernel level: %s (detected %s; set SEALWIRE_CPU to force a lower one)\n",
              std::string(cpu::name(cpu::active_level())).c_str(),
              std::string(cpu::name(cpu::detected_level())).c_str());

  crypto::secret_array<32> key;
  if (auto ec = crypto::random_bytes(key.span())) {
    std::fprintf(stderr, "random source failed: %s\n", ec.message().c_str());
    return 1;
  }
  // Only the public fingerprint is printed, never the key itself.
  const std::string hex = crypto::to_hex(key.span());
  crypto::secret_array<32> parsed;
  auto n = crypto::hex_decode(parsed.span(), hex);
  const bool same = n && crypto::ct::equal(key.span(), parsed.span());
  std::printf("  fresh 256-bit key from getrandom: hex round trip %s\n", same ? "ok" : "FAILED");
  return same ? 0 : 1;
}
