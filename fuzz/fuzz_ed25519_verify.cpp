// SPDX-License-Identifier: Apache-2.0
// Fuzz target: Ed25519 verification (RFC 8032 5.1.7) on keys, signatures and
// messages the fuzzer chooses, against OpenSSL (EVP_DigestVerify) and
// libsodium's subgroup check, across CPU levels and through verify_batch.
//
// Input: a flags byte, 32 key-or-seed bytes, 64 signature-or-mask bytes, then
// the message. Flags bit 0 clear: the 32 and 64 bytes are the public key and
// the signature as they are. Bit 0 set: they are a seed and an XOR mask; the
// target signs the message with the seed's key and XORs the mask into the
// signature (bit 1 set: into the key as well, its first 32 bytes), so that
// the fuzzer mutates real signatures. Bits 2-3 pick the SIMD level compared
// with the portable one.
//
// Invariants (any break aborts with a finding):
//   - nothing crashes or reads out of bounds (ASan, UBSan);
//   - the decision is the same at the portable and the SIMD level, and
//     verify_batch decides every item as verify does;
//   - what OpenSSL (the cofactorless equation) accepts, we accept, unless A
//     or R is a non-canonical encoding (which we refuse; OpenSSL may not);
//   - what we accept, OpenSSL accepts, unless A or R is outside the prime-order
//     subgroup (libsodium's crypto_core_ed25519_is_valid_point): only a torsion
//     component can make the cofactored equation hold where the
//     cofactorless one fails.
#include <sealwire/crypto/ed25519.hpp>

#include "ed25519_oracle.hpp"
#include "harness.hpp"
#include "levels.hpp"

#include <sodium.h>

using namespace sealwire;
using crypto::ed25519;

namespace {

bool canonical(const std::uint8_t* enc) {
  // y < p = 2^255 - 19 for the low 255 bits.
  if ((enc[31] & 0x7f) != 0x7f) return true;
  for (int i = 30; i >= 1; --i) {
    if (enc[i] != 0xff) return true;
  }
  return enc[0] < 0xed;
}

bool decide(std::span<const std::uint8_t> pk, std::span<const std::uint8_t> msg, std::span<const std::uint8_t> sig,
            crypto::cpu::level l) {
  const fuzz::at_level forced(l);
  const auto r = ed25519::verify(pk, msg, sig);
  if (!r && r.error() != crypto_errc::invalid_signature && r.error() != crypto_errc::invalid_public_key) {
    fuzz::fatal("ed25519 verify returned an error outside its contract");
  }
  return r.has_value();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 + 32 + 64) return 0;
  static const bool sodium_ready = sodium_init() >= 0;
  if (!sodium_ready) fuzz::fatal("sodium_init");
  const std::uint8_t flags = data[0];
  fuzz::bytes pk(data + 1, data + 33), sig(data + 33, data + 97);
  const fuzz::bytes msg(data + 97, data + size);
  if (flags & 1) {
    const auto key = ed25519::signing_key::from_seed(pk);
    if (!key) fuzz::fatal("from_seed refused a 32-byte seed");
    fuzz::bytes real(64);
    key->sign(std::span<std::uint8_t, 64>(real.data(), 64), msg);
    for (std::size_t i = 0; i < 64; ++i) real[i] ^= sig[i];
    const fuzz::bytes mask(sig.begin(), sig.begin() + 32);
    pk.assign(key->public_key().begin(), key->public_key().end());
    if (flags & 2) {
      for (std::size_t i = 0; i < 32; ++i) pk[i] ^= mask[i];
    }
    sig = real;
  }

  const bool ours = decide(pk, msg, sig, crypto::cpu::level::portable);
  if (decide(pk, msg, sig, fuzz::simd_level(static_cast<std::uint8_t>(flags >> 2))) != ours) {
    fuzz::fatal("ed25519 verify differs between CPU levels");
  }

  const bool openssl = test::oracle::evp_ed25519_verify(pk, msg, sig);
  const bool encodings_canonical = canonical(pk.data()) && canonical(sig.data());
  if (openssl && !ours && encodings_canonical) fuzz::fatal("ed25519 rejected what OpenSSL accepts");
  if (ours && !openssl) {
    const bool prime_order = crypto_core_ed25519_is_valid_point(pk.data()) == 1 &&
                             crypto_core_ed25519_is_valid_point(sig.data()) == 1;
    if (prime_order) fuzz::fatal("ed25519 accepted what OpenSSL rejects, without a torsion component");
  }

  // A batch long enough for the combined check: the input three times and
  // twice with one more message byte; each decided as verify decides it.
  fuzz::bytes longer = msg;
  longer.push_back(flags);
  const ed25519::batch_item items[] = {{pk, msg, sig}, {pk, longer, sig}, {pk, msg, sig}, {pk, longer, sig},
                                       {pk, msg, sig}};
  bool valid[5] = {};
  const auto batch = ed25519::verify_batch(items, valid);
  const bool second = ed25519::verify(pk, longer, sig).has_value();
  for (std::size_t i = 0; i < 5; ++i) {
    if (valid[i] != (i % 2 == 0 ? ours : second)) fuzz::fatal("ed25519 verify_batch decided differently from verify");
  }
  if (batch.has_value() != (ours && second)) fuzz::fatal("ed25519 verify_batch's result disagrees with its items");
  return 0;
}
