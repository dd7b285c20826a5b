// SPDX-License-Identifier: Apache-2.0
// The record layer's names (record_aead) and what it logs through the hook:
// handshake results, updates and closes at debug level, never key material.
#include <sealwire/crypto/hex.hpp>
#include <sealwire/crypto/log.hpp>
#include <sealwire/record/connection.hpp>

#include "harness.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

using namespace sealwire;
using namespace sealwire::record;
using namespace sealwire::record::test;

TEST(RecordNames, AeadsRoundTrip) {
  for (record_aead a : {record_aead::aes128_gcm, record_aead::aes256_gcm, record_aead::chacha20_poly1305,
                        record_aead::xchacha20_poly1305}) {
    EXPECT_EQ(parse<record_aead>(to_string(a)).value(), a);
    EXPECT_EQ(parse<record_aead>(std::to_string(static_cast<unsigned>(a))).value(), a);
  }
  EXPECT_EQ(parse<record_aead>("0xc003").value(), record_aead::xchacha20_poly1305);
  EXPECT_FALSE(parse<record_aead>("xsalsa20poly1305"));
}

TEST(RecordLog, HandshakeUpdateAndCloseAreLoggedWithoutSecrets) {
  std::mutex m;
  std::vector<std::string> lines;
  set_log_handler(log_level::debug, [&](log_level, std::string_view comp, std::string_view msg) {
    const std::lock_guard lock(m);
    lines.push_back(std::string(comp) + ": " + std::string(msg));
  });
  auto key = make_key(hpke::kem_id::x25519);
  auto p = connected(client_cfg(*key), server_cfg(key));
  ASSERT_TRUE(p.client.update_keys());
  ASSERT_TRUE(p.client.close());
  set_log_handler(log_level::off, nullptr);

  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_NE(all.find("record: client: handshake complete"), std::string::npos) << all;
  EXPECT_NE(all.find("record: server: handshake complete"), std::string::npos) << all;
  EXPECT_NE(all.find("ChaCha20-Poly1305"), std::string::npos) << all;
  EXPECT_NE(all.find("key update sent"), std::string::npos) << all;
  EXPECT_NE(all.find("close sent"), std::string::npos) << all;
  // Neither the static key nor anything that looks like a key is printed.
  EXPECT_EQ(all.find(crypto::to_hex(key->bytes())), std::string::npos);
  EXPECT_EQ(all.find(crypto::to_hex(key->bytes().first(8))), std::string::npos);
  for (const auto& l : lines) EXPECT_LT(l.size(), 200u) << l;
}
