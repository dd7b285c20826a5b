// sealwire-demo: a first look at the library — what the CPU offers, a fresh
// random key, and a message sealed and opened with ChaCha20-Poly1305 (and a
// tampered copy refused).
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/hex.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/secret.hpp>

#include <sealwire/crypto/chacha.hpp>

#include <cstdio>
#include <string>
#include <vector>

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

  // Seal a message, open it, then show that a single flipped bit is refused.
  const std::string message = "Meet me at the usual place at ten.";
  const std::string header = "record #1";
  std::uint8_t nonce[crypto::chacha20_poly1305::nonce_size];
  if (crypto::random_bytes(nonce)) return 1;
  std::vector<std::uint8_t> sealed(message.size() + crypto::aead_tag_size);
  const auto pt = std::span(reinterpret_cast<const std::uint8_t*>(message.data()), message.size());
  const auto aad = std::span(reinterpret_cast<const std::uint8_t*>(header.data()), header.size());
  if (!crypto::chacha20_poly1305::seal(sealed, pt, aad, nonce, key.span())) return 1;
  std::printf("  sealed %zu bytes with ChaCha20-Poly1305 (%s kernels): %s...\n", message.size(),
              std::string(crypto::chacha().provider()).c_str(),
              crypto::to_hex(std::span(sealed).first(16)).c_str());

  std::vector<std::uint8_t> opened(message.size());
  const auto ok = crypto::chacha20_poly1305::open(opened, sealed, aad, nonce, key.span());
  std::printf("  opened: \"%.*s\"\n", ok ? static_cast<int>(opened.size()) : 0,
              reinterpret_cast<const char*>(opened.data()));
  sealed[5] ^= 0x01;
  const auto tampered = crypto::chacha20_poly1305::open(opened, sealed, aad, nonce, key.span());
  std::printf("  one bit flipped in transit: %s\n", tampered ? "ACCEPTED (bug!)" : tampered.error().message().c_str());
  return same && ok && !tampered ? 0 : 1;
}
