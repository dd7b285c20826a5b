// SPDX-License-Identifier: Apache-2.0
// The record-layer error category.
#include <sealwire/record/error.hpp>

#include <gtest/gtest.h>

TEST(RecordErrors, EveryCodeHasAMessageAndTheCategory) {
  using sealwire::record_errc;
  for (int e = 1; e <= static_cast<int>(record_errc::send_buffer_full); ++e) {
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
