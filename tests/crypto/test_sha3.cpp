// SPDX-License-Identifier: Apache-2.0
// SHA-3 and SHAKE (FIPS 202): the NIST examples (empty, "abc", 200 bytes of
// 0xa3, long SHAKE output), incremental absorb and squeeze in random pieces
// against one-shot, differential checks with OpenSSL, and the contract on
// absorbing after a squeeze, at every CPU level.
#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/sha3.hpp>

#include "vectors.hpp"

#include <openssl/evp.h>

#include <algorithm>

using namespace sealwire;
using test::bytes;

namespace {

class Sha3 : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Sha3);

template <class X>
std::string xof(std::span<const std::uint8_t> msg, std::size_t n) {
  bytes out(n);
  X::hash(out, msg);
  return test::to_hex(out);
}

// openssl_hash is OpenSSL's digest of msg, n bytes (XOFs through EVP_DigestFinalXOF).
bytes openssl_hash(const char* name, std::span<const std::uint8_t> msg, std::size_t n) {
  EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bytes out(n);
  const bool is_xof = (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0;
  unsigned len = 0;
  EXPECT_EQ(EVP_DigestInit_ex(ctx, md, nullptr), 1);
  EXPECT_EQ(EVP_DigestUpdate(ctx, msg.data(), msg.size()), 1);
  if (is_xof) {
    EXPECT_EQ(EVP_DigestFinalXOF(ctx, out.data(), n), 1);
  } else {
    EXPECT_EQ(static_cast<std::size_t>(EVP_MD_get_size(md)), n);
    EXPECT_EQ(EVP_DigestFinal_ex(ctx, out.data(), &len), 1);
  }
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
  return out;
}

const bytes abc_msg = test::to_bytes("abc");
const bytes a3_200(200, 0xa3);

// Feeds msg to h in random pieces (some empty) drawn from rng.
template <class H>
void absorb_in_pieces(H& h, const bytes& msg, test::seeded_random& rng) {
  std::size_t at = 0;
  while (at < msg.size()) {
    const std::size_t n = std::min<std::size_t>(msg.size() - at, rng.uniform(3) == 0 ? 0 : rng.uniform(300));
    h.update(std::span<const std::uint8_t>(msg).subspan(at, n));
    at += n;
  }
}

// Squeezes out.size() bytes from x in random pieces (some empty).
template <class X>
void squeeze_in_pieces(X& x, bytes& out, test::seeded_random& rng) {
  std::size_t at = 0;
  while (at < out.size()) {
    const std::size_t n = std::min<std::size_t>(out.size() - at, rng.uniform(4) == 0 ? 0 : rng.uniform(400));
    x.squeeze(std::span<std::uint8_t>(out).subspan(at, n));
    at += n;
  }
}

}  // namespace

TEST(Sha3Provider, NamesTheKernel) {
  {
    test::scoped_cpu_level portable(crypto::cpu::level::portable);
    EXPECT_EQ(crypto::sha3_256::provider(), "portable");
    EXPECT_EQ(crypto::shake128::provider(), "portable");
  }
  if (crypto::cpu::detected_level() == crypto::cpu::level::avx512) {
    test::scoped_cpu_level top(crypto::cpu::level::avx512);
    EXPECT_EQ(crypto::sha3_256::provider(), "avx512");
  }
}

TEST_P(Sha3, Fips202Examples) {
  EXPECT_EQ(test::hex_digest<crypto::sha3_224>({}), "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7");
  EXPECT_EQ(test::hex_digest<crypto::sha3_224>(abc_msg), "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf");
  EXPECT_EQ(test::hex_digest<crypto::sha3_224>(a3_200), "9376816aba503f72f96ce7eb65ac095deee3be4bf9bbc2a1cb7e11e0");
  EXPECT_EQ(test::hex_digest<crypto::sha3_256>({}), "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
  EXPECT_EQ(test::hex_digest<crypto::sha3_256>(abc_msg), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  EXPECT_EQ(test::hex_digest<crypto::sha3_256>(a3_200), "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787");
  EXPECT_EQ(test::hex_digest<crypto::sha3_384>({}),
            "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004");
  EXPECT_EQ(test::hex_digest<crypto::sha3_384>(abc_msg),
            "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25");
  EXPECT_EQ(test::hex_digest<crypto::sha3_384>(a3_200),
            "1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd76197a31fd55ee989f2d7050dd473e8f");
  EXPECT_EQ(test::hex_digest<crypto::sha3_512>({}),
            "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d"
            "95b6d3e301758586281dcd26");
  EXPECT_EQ(test::hex_digest<crypto::sha3_512>(abc_msg),
            "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4c"
            "f408d5a56592f8274eec53f0");
  EXPECT_EQ(test::hex_digest<crypto::sha3_512>(a3_200),
            "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca81b7c13c30adf52a3659584739a2df46be589c51c"
            "a1a4a8416df6545a1ce8ba00");
  EXPECT_EQ(xof<crypto::shake128>({}, 32), "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26");
  EXPECT_EQ(xof<crypto::shake256>({}, 64),
            "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49"
            "479ab48640292eacb3b7c4be");
}

// FIPS 202 example: SHAKE128 of 200 bytes of 0xa3, 4096 bits of output (more
// than three blocks of squeezing), and the last 32 bytes of SHAKE256's.
TEST_P(Sha3, ShakeLongOutput) {
  EXPECT_EQ(xof<crypto::shake128>(a3_200, 512),
            "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037cf232ef7164a6d1eb448c8908186ad852d3f85a5"
            "cf28da1ab6fe3438171978467f1c05d58c7ef38c284c41f6c2221a76f12ab1c04082660250802294fb87180213fdef5b0ecb7df5"
            "0ca1f8555be14d32e10f6edcde892c09424b29f597afc270c904556bfcb47a7d40778d390923642b3cbd0579e60908d5a000c1d0"
            "8b98ef933f806445bf87f8b009ba9e94f7266122ed7ac24e5e266c42a82fa1bbefb7b8db0066e16a85e0493f07df4809aec084a5"
            "93748ac3dde5a6d7aae1e8b6e5352b2d71efbb47d4caeed5e6d633805d2d323e6fd81b4684b93a2677d45e7421c2c6aea259b855"
            "a698fd7d13477a1fe53e5a4a6197dbec5ce95f505b520bcd9570c4a8265a7e01f89c0c002c59bfec6cd4a5c109258953ee5ee70c"
            "d577ee217af21fa70178f0946c9bf6ca8751793479f6b537737e40b6ed28511d8a2d7e73eb75f8daac912ff906e0ab955b083bac"
            "45a8e5e9b744c8506f37e9b4e749a184b30f43eb188d855f1b70d71ff3e50c537ac1b0f8974f0fe1a6ad295ba42f6aec74d123a7"
            "abedde6e2c0711cab36be5acb1a5a11a4b1db08ba6982efccd716929a7741cfc63aa4435e0b69a9063e880795c3dc5ef3272e11c"
            "497a91acf699fefee206227a44c9fb359fd56ac0a9a75a743cff6862f17d7259ab075216c0699511643b6439");
  const std::string out256 = xof<crypto::shake256>(a3_200, 512);
  EXPECT_EQ(out256.substr(out256.size() - 64), "6a1a9d7846436e4dca5728b6f760eef0ca92bf0be5615e96959d767197a0beeb");
}

// Every length around the rate boundaries, in random pieces, against OpenSSL.
TEST_P(Sha3, DifferentialOpenSsl) {
  test::seeded_random rng(0x5a3a);
  const int cases = test::differential_cases(60);
  for (int i = 0; i < cases; ++i) {
    const std::size_t len = i < 20 ? static_cast<std::size_t>(128 + 3 * i) : rng.uniform(2000);
    const bytes msg = rng.fill(len);
    SCOPED_TRACE("length " + std::to_string(len));
    EXPECT_EQ(test::to_hex(openssl_hash("SHA3-224", msg, 28)), test::hex_digest<crypto::sha3_224>(msg));
    EXPECT_EQ(test::to_hex(openssl_hash("SHA3-256", msg, 32)), test::hex_digest<crypto::sha3_256>(msg));
    EXPECT_EQ(test::to_hex(openssl_hash("SHA3-384", msg, 48)), test::hex_digest<crypto::sha3_384>(msg));
    EXPECT_EQ(test::to_hex(openssl_hash("SHA3-512", msg, 64)), test::hex_digest<crypto::sha3_512>(msg));
    const std::size_t out_len = rng.uniform(700);
    EXPECT_EQ(test::to_hex(openssl_hash("SHAKE128", msg, out_len)), xof<crypto::shake128>(msg, out_len));
    EXPECT_EQ(test::to_hex(openssl_hash("SHAKE256", msg, out_len)), xof<crypto::shake256>(msg, out_len));
  }
}

// Absorbing in random fragments and squeezing in random chunks gives the
// one-shot output (which the test above ties to OpenSSL).
TEST_P(Sha3, IncrementalEqualsOneShot) {
  test::seeded_random rng(0x5a3b);
  for (int i = 0; i < 40; ++i) {
    const bytes msg = rng.fill(rng.uniform(1200));
    const std::size_t out_len = rng.uniform(1200);
    SCOPED_TRACE("length " + std::to_string(msg.size()) + ", output " + std::to_string(out_len));

    crypto::sha3_256 h;
    absorb_in_pieces(h, msg, rng);
    std::uint8_t d[32];
    h.finish(d);
    EXPECT_EQ(test::to_hex(d), test::hex_digest<crypto::sha3_256>(msg));
    // finish resets: the same object hashes the next message from scratch.
    h.update(msg);
    h.finish(d);
    EXPECT_EQ(test::to_hex(d), test::hex_digest<crypto::sha3_256>(msg));

    crypto::shake128 x128;
    absorb_in_pieces(x128, msg, rng);
    const crypto::shake128 snapshot = x128;
    bytes out(out_len);
    squeeze_in_pieces(x128, out, rng);
    EXPECT_EQ(test::to_hex(out), xof<crypto::shake128>(msg, out_len));
    crypto::shake128 again = snapshot;  // a copy continues independently
    bytes out2(out_len);
    again.squeeze(out2);
    EXPECT_EQ(out2, out);

    crypto::shake256 x256;
    absorb_in_pieces(x256, msg, rng);
    squeeze_in_pieces(x256, out, rng);
    EXPECT_EQ(test::to_hex(out), xof<crypto::shake256>(msg, out_len));
    x256.reset();
    x256.update(msg);
    bytes out3(out_len);
    x256.squeeze(out3);
    EXPECT_EQ(out3, out);
  }
}

TEST(Sha3Contract, AbsorbAfterSqueezeIsAContractFailure) {
  EXPECT_DEATH(
      {
        crypto::shake256 x;
        std::uint8_t out[8];
        x.update(abc_msg);
        x.squeeze(out);
        x.update(abc_msg);
      },
      "squeezing");
}
