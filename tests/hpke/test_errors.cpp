// SPDX-License-Identifier: Apache-2.0
// The HPKE error category.
#include <sealwire/hpke/error.hpp>

#include <gtest/gtest.h>

TEST(HpkeErrors, EveryCodeHasAMessageAndTheCategory) {
  using sealwire::hpke_errc;
  for (int e = 1; e <= static_cast<int>(hpke_errc::auth_not_supported); ++e) {
    const std::error_code ec = static_cast<hpke_errc>(e);
    EXPECT_EQ(ec.category(), sealwire::hpke_category());
    EXPECT_EQ(ec.message().find("unknown"), std::string::npos) << e;
  }
  EXPECT_STREQ(sealwire::hpke_category().name(), "sealwire.hpke");
  // Distinct from the crypto category even for the same number.
  EXPECT_NE(std::error_code(hpke_errc::unsupported_suite),
            std::error_code(static_cast<sealwire::crypto_errc>(1)));
}

TEST(HpkeErrors, ResultCarriesHpkeErrors) {
  sealwire::result<int> r = sealwire::hpke_errc::open_failed;
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), sealwire::hpke_errc::open_failed);
}
