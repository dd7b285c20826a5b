// SPDX-License-Identifier: Apache-2.0
// The error model, contracts, constant-time helpers, hex and the random source.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/hex.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/result.hpp>

#include "vectors.hpp"

#include <array>
#include <cstring>

using namespace sealwire;
using sealwire::test::bytes;

// ---- result<T> and the error category ----

TEST(Result, HoldsValueOrError) {
  result<int> ok = 7;
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, 7);
  EXPECT_FALSE(ok.error());

  result<int> bad = crypto_errc::invalid_key;
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), crypto_errc::invalid_key);
  EXPECT_EQ(bad.error().category(), crypto_category());

  result<void> v;
  EXPECT_TRUE(v);
  result<void> e = crypto_errc::authentication_failed;
  EXPECT_FALSE(e);
  EXPECT_EQ(e.error(), crypto_errc::authentication_failed);
}

TEST(Result, MoveOnlyValue) {
  result<std::unique_ptr<int>> r = std::make_unique<int>(3);
  ASSERT_TRUE(r);
  std::unique_ptr<int> p = std::move(r).value();
  EXPECT_EQ(*p, 3);
}

TEST(Result, EveryCryptoErrorHasAMessage) {
  for (int e = 1; e <= static_cast<int>(crypto_errc::output_too_long); ++e) {
    const std::error_code ec = static_cast<crypto_errc>(e);
    EXPECT_EQ(ec.message().find("unknown"), std::string::npos) << e;
  }
  EXPECT_NE(std::error_code(static_cast<crypto_errc>(999)).message().find("unknown"), std::string::npos);
  EXPECT_STREQ(crypto_category().name(), "sealwire.crypto");
}

using ResultDeathTest = ::testing::Test;

TEST(Result, ValueOfErrorThrowsSystemErrorWithTheCode) {
  result<int> bad = crypto_errc::invalid_key;
  try {
    (void)bad.value();
    ADD_FAILURE() << "value() of an error returned";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), crypto_errc::invalid_key);
    EXPECT_NE(dynamic_cast<const bad_result_access*>(&e), nullptr);
  }
  EXPECT_THROW((void)std::move(bad).value(), bad_result_access);
  const result<int>& cref = bad;
  EXPECT_THROW((void)cref.value(), bad_result_access);
  result<void> v = crypto_errc::rng_failure;
  EXPECT_THROW(v.value(), bad_result_access);
  result<void> fine;
  EXPECT_NO_THROW(fine.value());
}

TEST(Result, ValueOrAndError) {
  result<int> ok = 7, bad = crypto_errc::invalid_key;
  EXPECT_EQ(ok.value_or(1), 7);
  EXPECT_EQ(bad.value_or(1), 1);
  EXPECT_EQ(ok.error(), std::error_code{});
  EXPECT_EQ(bad.error(), crypto_errc::invalid_key);
  result<std::unique_ptr<int>> moved = crypto_errc::invalid_key;
  EXPECT_EQ(std::move(moved).value_or(nullptr), nullptr);
}

TEST_F(ResultDeathTest, DereferencingAnErrorIsContractFailure) {
  EXPECT_DEATH(
      {
        result<int> bad = crypto_errc::invalid_key;
        (void)*bad;
      },
      "contract violated");
}

TEST(ErrorConditions, AuthenticationFailuresOfEveryLayerCompareEqual) {
  const std::error_code auth = crypto_errc::authentication_failed;
  EXPECT_EQ(auth, condition::authentication_failed);
  EXPECT_NE(std::error_code(crypto_errc::invalid_key), condition::authentication_failed);
  EXPECT_EQ(std::error_code(crypto_errc::invalid_key), condition::invalid_key);
  EXPECT_EQ(std::error_code(crypto_errc::invalid_public_key), condition::invalid_key);
  EXPECT_EQ(std::error_code(crypto_errc::message_too_long), condition::limit_reached);
  EXPECT_NE(std::error_code(crypto_errc::rng_failure), condition::limit_reached);
  EXPECT_EQ(std::error_condition(condition::authentication_failed).message(), "authentication failed");
  EXPECT_STREQ(condition_category().name(), "sealwire");
}

TEST_F(ResultDeathTest, ErrorResultWithoutErrorIsContractFailure) {
  EXPECT_DEATH({ result<int> r{std::error_code{}}; (void)r; }, "contract violated");
}

namespace {
void exit_handler(const contract_violation& v) noexcept {
  std::fprintf(stderr, "custom handler saw %s\n", v.condition);
  std::_Exit(3);
}
}  // namespace

TEST_F(ResultDeathTest, CustomContractHandler) {
  EXPECT_EXIT(
      {
        set_contract_handler(&exit_handler);
        SEALWIRE_EXPECTS(1 + 1 == 3);
      },
      ::testing::ExitedWithCode(3), "custom handler saw 1 \\+ 1 == 3");
}

// ---- constant-time helpers ----

TEST(ConstantTime, EqualDetectsEveryDifferingByte) {
  for (std::size_t n = 0; n <= 70; ++n) {
    bytes a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] = static_cast<std::uint8_t>(i * 7 + 1);
    EXPECT_TRUE(crypto::ct::equal(a, b)) << n;
    for (std::size_t i = 0; i < n; ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        b[i] ^= static_cast<std::uint8_t>(1u << bit);
        EXPECT_FALSE(crypto::ct::equal(a, b)) << n << " " << i << " " << bit;
        b[i] ^= static_cast<std::uint8_t>(1u << bit);
      }
    }
  }
}

TEST(ConstantTime, DifferentLengthsAreUnequal) {
  const bytes a(16, 0), b(17, 0);
  EXPECT_FALSE(crypto::ct::equal(a, b));
  EXPECT_TRUE(crypto::ct::equal(std::span(a).first(0), std::span(b).first(0)));
}

TEST(ConstantTime, IsZero) {
  for (std::size_t n = 0; n <= 40; ++n) {
    bytes a(n, 0);
    EXPECT_TRUE(crypto::ct::is_zero(a));
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = 0x80;
      EXPECT_FALSE(crypto::ct::is_zero(a));
      a[i] = 0;
    }
  }
}

TEST(ConstantTime, MaskHelpers) {
  EXPECT_EQ(crypto::ct::mask_if_zero(0), ~0ULL);
  for (std::uint64_t x : {1ULL, 2ULL, 0x80ULL, 1ULL << 63, ~0ULL, 12345ULL}) {
    EXPECT_EQ(crypto::ct::mask_if_zero(x), 0ULL) << x;
  }
  EXPECT_EQ(crypto::ct::mask_from_bit(1), ~0ULL);
  EXPECT_EQ(crypto::ct::mask_from_bit(0), 0ULL);
}

TEST(ConstantTime, Select) {
  const bytes a = {1, 2, 3, 4, 5}, b = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4};
  bytes out(5);
  crypto::ct::select(out, true, a, b);
  EXPECT_EQ(out, a);
  crypto::ct::select(out, false, a, b);
  EXPECT_EQ(out, b);
}

TEST(ConstantTime, WipeZeroes) {
  struct state { std::uint64_t words[5]; std::uint8_t tail[3]; } s{};
  std::memset(&s, 0xa5, sizeof s);
  crypto::ct::wipe_object(s);
  const auto* p = reinterpret_cast<const std::uint8_t*>(&s);
  EXPECT_TRUE(crypto::ct::is_zero({p, sizeof s}));
  crypto::ct::wipe(nullptr, 0);  // allowed
}

// ---- hex ----

TEST(Hex, RoundTripsEveryByte) {
  bytes all(256);
  for (int i = 0; i < 256; ++i) all[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  const std::string h = crypto::to_hex(all);
  EXPECT_EQ(h.substr(0, 8), "00010203");
  EXPECT_EQ(h.substr(h.size() - 6), "fdfeff");
  auto back = crypto::from_hex(h);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, all);
  EXPECT_EQ(h, sealwire::test::to_hex(all));  // agrees with the test helper
}

TEST(Hex, AcceptsUpperCase) {
  auto v = crypto::from_hex("DEADbeef0A");
  ASSERT_TRUE(v);
  EXPECT_EQ(*v, (bytes{0xde, 0xad, 0xbe, 0xef, 0x0a}));
}

TEST(Hex, RejectsEveryNonHexCharacter) {
  for (int c = 0; c < 256; ++c) {
    const bool valid = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    std::string s = "00";
    s[1] = static_cast<char>(c);
    std::array<std::uint8_t, 1> out{};
    auto r = crypto::hex_decode(out, s);
    EXPECT_EQ(r.has_value(), valid) << c;
    if (!valid) {
      EXPECT_EQ(r.error(), crypto_errc::invalid_encoding);
      EXPECT_EQ(out[0], 0);
    }
  }
}

TEST(Hex, OddLengthAndShortBuffer) {
  std::array<std::uint8_t, 2> out{};
  EXPECT_EQ(crypto::hex_decode(out, "abc").error(), crypto_errc::invalid_encoding);
  EXPECT_EQ(crypto::hex_decode(out, "aabbcc").error(), crypto_errc::buffer_too_small);
  auto ok = crypto::hex_decode(out, "aabb");
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, 2u);
  EXPECT_EQ(crypto::hex_decode(out, "").value(), 0u);
}

TEST(Hex, TestHelperIgnoresSpacesAndRejectsGarbage) {
  EXPECT_EQ(sealwire::test::hex("00 01:02\n03"), (bytes{0, 1, 2, 3}));
  EXPECT_THROW((void)sealwire::test::hex("0g"), std::invalid_argument);
  EXPECT_THROW((void)sealwire::test::hex("012"), std::invalid_argument);
}

// ---- random source ----

TEST(Random, FillsBuffersOfManySizes) {
  for (std::size_t n : {1u, 16u, 32u, 255u, 256u, 257u, 4096u, 1u << 20}) {
    bytes a(n, 0), b(n, 0);
    ASSERT_TRUE(crypto::random_bytes(a));
    ASSERT_TRUE(crypto::random_bytes(b));
    if (n >= 16) {
      EXPECT_NE(a, b) << n;
      // The tail is written too (getrandom may return short reads).
      EXPECT_FALSE(crypto::ct::is_zero(std::span(a).last(16))) << n;
    }
  }
}

using failing_source = sealwire::test::failing_random;

TEST(Random, InjectedSourceIsUsedAndRestored) {
  sealwire::test::seeded_random det1(42), det2(42);
  auto* prev = crypto::set_random_source(&det1);
  bytes a(64);
  ASSERT_TRUE(crypto::random_bytes(a));
  EXPECT_EQ(a, det2.fill(64));
  EXPECT_EQ(crypto::set_random_source(prev), &det1);
}

TEST(Random, FailureZeroesOutput) {
  failing_source bad;
  auto* prev = crypto::set_random_source(&bad);
  bytes a(32, 0xee);
  EXPECT_EQ(crypto::random_bytes(a).error(), crypto_errc::rng_failure);
  EXPECT_TRUE(crypto::ct::is_zero(a));
  crypto::set_random_source(prev);
}
