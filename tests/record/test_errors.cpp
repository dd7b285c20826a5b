// SPDX-License-Identifier: Apache-2.0
// The record-layer error category, and the conditions that group every
// layer's codes.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/hpke/single_shot.hpp>
#include <sealwire/record/error.hpp>

#include <gtest/gtest.h>

TEST(RecordErrors, EveryCodeHasAMessageAndTheCategory) {
  using sealwire::record_errc;
  for (int e = 1; e <= static_cast<int>(record_errc::out_of_memory); ++e) {
    const std::error_code ec = static_cast<record_errc>(e);
    EXPECT_EQ(ec.category(), sealwire::record_category());
    EXPECT_EQ(ec.message().find("unknown"), std::string::npos) << e;
  }
  EXPECT_STREQ(sealwire::record_category().name(), "sealwire.record");
}

TEST(RecordErrors, ComparesByEnum) {
  const std::error_code ec = sealwire::record_errc::truncated;
  EXPECT_EQ(ec, sealwire::record_errc::truncated);
  EXPECT_NE(ec, sealwire::record_errc::closed);
}

TEST(ErrorConditions, OneTestForAuthenticationFailureAcrossLayers) {
  using namespace sealwire;
  // Each layer's own authentication failure, produced by a real failure.
  const std::uint8_t key[32] = {1}, nonce[12] = {2}, forged[20] = {};
  std::uint8_t out[4];
  const std::error_code crypto_failure =
      crypto::aead_open(crypto::aead_algorithm::chacha20_poly1305, out, forged, {}, nonce, key).error();
  auto bob = hpke::generate_key_pair().value();
  auto sealed = hpke::seal(bob.pub, bytes_of("hello")).value();
  sealed.back() ^= 1;
  const std::error_code hpke_failure = hpke::open(bob.priv, sealed).error();
  const std::error_code record_failure = record_errc::bad_record_mac;
  for (const std::error_code& ec : {crypto_failure, hpke_failure, record_failure}) {
    EXPECT_EQ(ec, condition::authentication_failed) << ec.category().name() << ": " << ec.message();
    EXPECT_NE(ec, condition::invalid_key);
  }
  EXPECT_EQ(hpke_failure, hpke_errc::open_failed);
  EXPECT_EQ(std::error_code(record_errc::server_key_mismatch), condition::authentication_failed);
  EXPECT_EQ(std::error_code(record_errc::unknown_server_key), condition::authentication_failed);
  // A peer's close with an error reason is its decision, not a forgery.
  EXPECT_NE(std::error_code(record_errc::peer_error_close), condition::authentication_failed);
  EXPECT_EQ(std::error_code(crypto_errc::invalid_signature), condition::authentication_failed);
  // Other codes keep their own meaning.
  EXPECT_NE(std::error_code(record_errc::truncated), condition::authentication_failed);
  EXPECT_NE(std::error_code(hpke_errc::unsupported_suite), condition::authentication_failed);
  EXPECT_EQ(std::error_code(record_errc::sequence_exhausted), condition::limit_reached);
  EXPECT_EQ(std::error_code(hpke_errc::message_limit_reached), condition::limit_reached);
  EXPECT_EQ(std::error_code(record_errc::kem_mismatch), condition::invalid_key);
}
