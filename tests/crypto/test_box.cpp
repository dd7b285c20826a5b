// SPDX-License-Identifier: Apache-2.0
// The symmetric box: layout (nonce || ciphertext || tag, an XChaCha20-Poly1305
// message libsodium opens), random nonces, associated data, exact sizes, the
// caller-buffer forms, and tampering.
#include <sealwire/crypto/box.hpp>
#include <sealwire/crypto/random.hpp>

#include "vectors.hpp"

#include <sodium.h>

#include <set>
#include <string>

using namespace sealwire;
using test::bytes;

TEST(Box, SealsAndOpensWithAndWithoutAssociatedData) {
  const auto key = box::key::generate().value();
  for (std::size_t n : {0u, 1u, 15u, 16u, 63u, 64u, 1000u, 70000u}) {
    const bytes msg(n, static_cast<std::uint8_t>(n));
    const auto sealed = box::seal(key, msg).value();
    ASSERT_EQ(sealed.size(), box::sealed_size(n));
    EXPECT_EQ(box::open(key, sealed).value(), msg);
    const auto with_ad = box::seal(key, msg, associated_data("header v1")).value();
    EXPECT_EQ(box::open(key, with_ad, associated_data("header v1")).value(), msg);
    EXPECT_EQ(box::open(key, with_ad, associated_data("header v2")).error(), crypto_errc::authentication_failed);
    EXPECT_EQ(box::open(key, with_ad).error(), crypto_errc::authentication_failed);
  }
}

// The layout is libsodium's XChaCha20-Poly1305 (IETF) with the nonce in front.
TEST(Box, LibsodiumOpensWhatTheBoxSeals) {
  const auto key = box::key::generate().value();
  const bytes msg = test::to_bytes("interoperable"), ad = test::to_bytes("ad");
  const auto sealed = box::seal(key, msg, associated_data(ad)).value();
  bytes out(msg.size());
  unsigned long long out_len = 0;
  ASSERT_EQ(crypto_aead_xchacha20poly1305_ietf_decrypt(out.data(), &out_len, nullptr, sealed.data() + box::nonce_size,
                                                       sealed.size() - box::nonce_size, ad.data(), ad.size(),
                                                       sealed.data(), key.bytes().data()),
            0);
  EXPECT_EQ(out, msg);
}

TEST(Box, NoncesAreFreshAndRandom) {
  const auto key = box::key::generate().value();
  std::set<std::string> nonces;
  for (int i = 0; i < 200; ++i) {
    const auto sealed = box::seal(key, bytes(8)).value();
    nonces.insert(test::to_hex(std::span(sealed).first(box::nonce_size)));
  }
  EXPECT_EQ(nonces.size(), 200u);
}

TEST(Box, EveryBitFlipAndTruncationFails) {
  const auto key = box::key::generate().value();
  const auto sealed = box::seal(key, test::to_bytes("attack at dawn"), associated_data("a")).value();
  for (std::size_t i = 0; i < sealed.size() * 8; ++i) {
    auto bad = sealed;
    bad[i / 8] ^= static_cast<std::uint8_t>(1u << (i % 8));
    EXPECT_EQ(box::open(key, bad, associated_data("a")).error(), crypto_errc::authentication_failed) << i;
  }
  for (std::size_t n = 0; n < sealed.size(); ++n)
    EXPECT_EQ(box::open(key, std::span(sealed).first(n), associated_data("a")).error(),
              crypto_errc::authentication_failed)
        << n;
  const auto other = box::key::generate().value();
  EXPECT_EQ(box::open(other, sealed, associated_data("a")).error(), condition::authentication_failed);
}

TEST(Box, CallerBuffersWithExactSizes) {
  const auto key = box::key::from_bytes(bytes(32, 9)).value();
  const bytes msg(100, 1);
  bytes out(box::sealed_size(msg.size()) + 5, 0xee);
  EXPECT_EQ(box::seal_into(std::span(out).first(box::sealed_size(msg.size()) - 1), key, msg).error(),
            crypto_errc::buffer_too_small);
  const std::size_t n = box::seal_into(out, key, msg).value();
  ASSERT_EQ(n, box::sealed_size(msg.size()));
  EXPECT_EQ(out[n], 0xee) << "nothing written past the sealed size";
  bytes back(box::opened_size(n));
  EXPECT_EQ(box::open_into(std::span(back).first(back.size() - 1), key, std::span(out).first(n)).error(),
            crypto_errc::buffer_too_small);
  EXPECT_EQ(box::open_into(back, key, std::span(out).first(n)).value(), msg.size());
  EXPECT_EQ(back, msg);
  out[40] ^= 1;
  EXPECT_EQ(box::open_into(back, key, std::span(out).first(n)).error(), crypto_errc::authentication_failed);
  EXPECT_EQ(back, bytes(msg.size(), 0)) << "a failed open leaves zeros";
  EXPECT_EQ(box::opened_size(box::overhead - 1), 0u);
  EXPECT_EQ(box::sealed_size(0), box::overhead);
}

TEST(Box, KeysLoadAndFailClearly) {
  EXPECT_EQ(box::key::from_bytes(bytes(31)).error(), crypto_errc::invalid_key);
  const auto a = box::key::generate().value();
  const auto b = box::key::from_bytes(a.bytes()).value();
  EXPECT_EQ(box::open(b, box::seal(a, bytes(3, 3)).value()).value(), bytes(3, 3));
  test::failing_random bad;
  auto* prev = crypto::set_random_source(&bad);
  EXPECT_EQ(box::key::generate().error(), crypto_errc::rng_failure);
  EXPECT_EQ(box::seal(a, bytes(3)).error(), crypto_errc::rng_failure);
  crypto::set_random_source(prev);
}
