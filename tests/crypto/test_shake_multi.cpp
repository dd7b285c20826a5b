// SPDX-License-Identifier: Apache-2.0
// Multi-stream SHAKE (FIPS 202 6.2, shake_multi.hpp): every stream against
// OpenSSL's SHAKE128/SHAKE256 for input lengths around the block boundaries,
// several output lengths and random absorb and squeeze split points, with the
// 4- and 8-way interleaved kernels at every CPU level; and the contract on
// unequal pieces and absorbing after a squeeze.
#include <sealwire/crypto/shake_multi.hpp>

#include "vectors.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>

using namespace sealwire;
using test::bytes;

namespace {

class ShakeMulti : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(ShakeMulti);

// openssl_shake is n bytes of OpenSSL's SHAKE128 or SHAKE256 of msg.
bytes openssl_shake(std::size_t bits, std::span<const std::uint8_t> msg, std::size_t n) {
  EVP_MD* md = EVP_MD_fetch(nullptr, bits == 128 ? "SHAKE128" : "SHAKE256", nullptr);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bytes out(n);
  EXPECT_EQ(EVP_DigestInit_ex(ctx, md, nullptr), 1);
  EXPECT_EQ(EVP_DigestUpdate(ctx, msg.data(), msg.size()), 1);
  EXPECT_EQ(EVP_DigestFinalXOF(ctx, out.data(), n), 1);
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
  return out;
}

// run_case feeds Ways distinct inputs of len bytes to X in random pieces,
// squeezes out_len bytes in random pieces (or whole blocks when
// whole_blocks is set) and compares each stream with OpenSSL.
template <class X, std::size_t Bits>
void run_case(test::seeded_random& rng, std::size_t len, std::size_t out_len, bool whole_blocks) {
  constexpr std::size_t w = X::ways;
  std::array<bytes, w> msg;
  for (auto& m : msg) m = rng.fill(len);
  X x;
  for (std::size_t at = 0; at < len;) {
    const std::size_t n = std::min<std::size_t>(len - at, rng.uniform(4) == 0 ? 0 : rng.uniform(2 * X::block_size));
    std::array<std::span<const std::uint8_t>, w> in;
    for (std::size_t k = 0; k < w; ++k) in[k] = std::span<const std::uint8_t>(msg[k]).subspan(at, n);
    x.update(in);
    at += n;
  }
  std::array<bytes, w> out;
  for (auto& o : out) o.assign(out_len, 0);
  for (std::size_t at = 0; at < out_len;) {
    const std::size_t random_piece = rng.uniform(3) == 0 ? 0 : rng.uniform(500);
    const std::size_t n = whole_blocks ? X::block_size : std::min<std::size_t>(out_len - at, random_piece);
    std::array<std::span<std::uint8_t>, w> o;
    for (std::size_t k = 0; k < w; ++k) o[k] = std::span<std::uint8_t>(out[k]).subspan(at, n);
    x.squeeze(o);
    at += n;
  }
  for (std::size_t k = 0; k < w; ++k) {
    SCOPED_TRACE("stream " + std::to_string(k));
    EXPECT_EQ(test::to_hex(out[k]), test::to_hex(openssl_shake(Bits, msg[k], out_len)));
  }
}

template <class X, std::size_t Bits>
void differential(std::uint64_t seed, int random_cases) {
  test::seeded_random rng(seed);
  const std::size_t r = X::block_size;
  // Lengths at and around one and two blocks, and ML-KEM's 34- and 33-byte seeds.
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{33}, std::size_t{34}, r - 1, r, r + 1,
                          2 * r - 1, 2 * r + 8}) {
    const std::size_t out_len = rng.uniform(3 * r);
    SCOPED_TRACE("length " + std::to_string(len) + ", output " + std::to_string(out_len));
    run_case<X, Bits>(rng, len, out_len, false);
  }
  for (int i = 0; i < random_cases; ++i) {
    const std::size_t len = rng.uniform(4 * r);
    const bool whole = i % 2 == 0;
    const std::size_t out_len = whole ? r * (1 + rng.uniform(5)) : rng.uniform(1100);
    SCOPED_TRACE("length " + std::to_string(len) + ", output " + std::to_string(out_len));
    run_case<X, Bits>(rng, len, out_len, whole);
  }
}

}  // namespace

TEST(ShakeMultiProvider, NamesTheKernel) {
  {
    test::scoped_cpu_level portable(crypto::cpu::level::portable);
    EXPECT_EQ(crypto::shake128_x4::provider(), "portable");
  }
  if (crypto::cpu::detected_level() >= crypto::cpu::level::avx2) {
    test::scoped_cpu_level avx2(crypto::cpu::level::avx2);
    EXPECT_EQ(crypto::shake128_x4::provider(), "avx2");
  }
  if (crypto::cpu::detected_level() == crypto::cpu::level::avx512) {
    test::scoped_cpu_level avx512(crypto::cpu::level::avx512);
    EXPECT_EQ(crypto::shake256_x8::provider(), "avx512");
  }
  test::report_levels("shake_multi kernels");
}

TEST_P(ShakeMulti, Shake128x4MatchesOpenSsl) {
  differential<crypto::shake128_x4, 128>(0x4a01, test::differential_cases(8));
}
TEST_P(ShakeMulti, Shake256x4MatchesOpenSsl) {
  differential<crypto::shake256_x4, 256>(0x4a02, test::differential_cases(8));
}
TEST_P(ShakeMulti, Shake128x8MatchesOpenSsl) {
  differential<crypto::shake128_x8, 128>(0x4a03, test::differential_cases(4));
}
TEST_P(ShakeMulti, Shake256x8MatchesOpenSsl) {
  differential<crypto::shake256_x8, 256>(0x4a04, test::differential_cases(4));
}

// The one-shot hash, and a copy that continues squeezing independently.
TEST_P(ShakeMulti, HashAndCopy) {
  test::seeded_random rng(0x4a05);
  std::array<bytes, 4> msg, out, more;
  std::array<std::span<const std::uint8_t>, 4> in;
  std::array<std::span<std::uint8_t>, 4> o, m;
  for (std::size_t k = 0; k < 4; ++k) {
    msg[k] = rng.fill(34);
    out[k].assign(504, 0);
    more[k].assign(168, 0);
    in[k] = msg[k];
    o[k] = out[k];
    m[k] = more[k];
  }
  crypto::shake128_x4::hash(o, in);
  crypto::shake128_x4 x;
  x.update(in);
  x.squeeze(o);
  const crypto::shake128_x4 snapshot = x;
  x.squeeze(m);
  for (std::size_t k = 0; k < 4; ++k) {
    const bytes want = openssl_shake(128, msg[k], 672);
    EXPECT_EQ(test::to_hex(out[k]), test::to_hex(std::span(want).first(504)));
    EXPECT_EQ(test::to_hex(more[k]), test::to_hex(std::span(want).subspan(504)));
    more[k].assign(168, 0);
  }
  crypto::shake128_x4 again = snapshot;
  again.squeeze(m);
  for (std::size_t k = 0; k < 4; ++k) {
    const bytes want = openssl_shake(128, msg[k], 672);
    EXPECT_EQ(test::to_hex(more[k]), test::to_hex(std::span(want).subspan(504)));
  }
  // reset starts over with new inputs.
  x.reset();
  x.update(in);
  x.squeeze(o);
  for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(test::to_hex(out[k]), test::to_hex(openssl_shake(128, msg[k], 504)));
}

namespace {

const bytes ten(10, 1), eleven(11, 2);

void absorb_unequal() {
  crypto::shake128_x4 x;
  const std::array<std::span<const std::uint8_t>, 4> in{ten, ten, eleven, ten};
  x.update(in);
}

void absorb_after_squeeze() {
  crypto::shake256_x4 x;
  const std::array<std::span<const std::uint8_t>, 4> in{ten, ten, ten, ten};
  std::uint8_t buf[4][8];
  const std::array<std::span<std::uint8_t>, 4> out{buf[0], buf[1], buf[2], buf[3]};
  x.update(in);
  x.squeeze(out);
  x.update(in);
}

}  // namespace

TEST(ShakeMultiContract, UnequalPiecesAndAbsorbAfterSqueezeAreContractFailures) {
  EXPECT_DEATH(absorb_unequal(), "size");
  EXPECT_DEATH(absorb_after_squeeze(), "squeezing");
}
