// SPDX-License-Identifier: Apache-2.0
// ML-KEM kernels at every CPU level against the portable ones on random and
// edge inputs: NTT, inverse NTT, NTT-domain product, Barrett and Montgomery
// scaling, rejection sampling, CBD noise, compression (every input value),
// the message encoding and the byte encodings, and KeyGen's shared Keccak
// schedule. Results must be bit-identical (kernels.hpp).
#include <sealwire/crypto/cpu.hpp>

#include "mlkem/kernels.hpp"
#include "mlkem/params.hpp"
#include "mlkem/sample.hpp"
#include "vectors.hpp"

#include <array>
#include <cstring>
#include <string_view>
#include <vector>

using namespace sealwire;
namespace mlkem = crypto::mlkem;

namespace {

using poly_t = std::array<std::int16_t, mlkem::n>;

// random_poly fills coefficients uniformly in [lo, hi].
poly_t random_poly(test::seeded_random& rng, int lo, int hi) {
  poly_t p{};
  const auto span = static_cast<std::uint64_t>(hi - lo + 1);
  for (auto& c : p) c = static_cast<std::int16_t>(lo + static_cast<int>(rng.uniform(span)));
  return p;
}

// each_kernel_set runs check(kernels under test) at every CPU level; a level
// at avx2 or above must not fall back to the portable table on x86-64.
template <class Check>
void each_kernel_set(Check&& check) {
  test::at_every_level([&] {
    const mlkem::kernels& k = mlkem::kernels_now();
#if SEALWIRE_X86_KERNELS
    if ((crypto::cpu::enabled() & crypto::cpu::avx2) != 0) {
      EXPECT_EQ(std::string_view(k.name), "avx2");
    }
#endif
    check(k);
  });
}

const mlkem::kernels& portable_ref = mlkem::portable_kernels();
constexpr int q = mlkem::q;

TEST(MlKemKernels, NttAndInverse) {
  test::seeded_random rng(0x4e5454);
  each_kernel_set([&](const mlkem::kernels& k) {
    for (int iter = 0; iter < 40; ++iter) {
      // The NTT's input range (|a| < q), then the inverse NTT's (|a| <= q/2)
      // and a wider one (the kernels must agree even off their contract).
      poly_t a = random_poly(rng, -(q - 1), q - 1), b = a;
      portable_ref.ntt(a.data());
      k.ntt(b.data());
      ASSERT_EQ(a, b) << "ntt, iteration " << iter;
      a = random_poly(rng, iter % 2 == 0 ? -q / 2 : -4 * q, iter % 2 == 0 ? q / 2 : 4 * q);
      b = a;
      portable_ref.invntt(a.data());
      k.invntt(b.data());
      ASSERT_EQ(a, b) << "invntt, iteration " << iter;
    }
  });
}

TEST(MlKemKernels, BasemulReduceTomont) {
  test::seeded_random rng(0x626d);
  each_kernel_set([&](const mlkem::kernels& k) {
    for (unsigned rank = 1; rank <= 4; ++rank) {
      for (std::size_t stride : {std::size_t{1}, std::size_t{rank}}) {
        // a: rank x rank matrix entries in [0, q) (row-major); b: |b| < 8q.
        std::vector<poly_t> a(rank * rank), b(rank);
        for (auto& p : a) p = random_poly(rng, 0, q - 1);
        for (auto& p : b) p = random_poly(rng, -8 * q + 1, 8 * q - 1);
        poly_t want{}, got{};
        portable_ref.basemul_acc(want.data(), a[0].data(), stride * mlkem::n, b[0].data(), rank);
        k.basemul_acc(got.data(), a[0].data(), stride * mlkem::n, b[0].data(), rank);
        ASSERT_EQ(want, got) << "rank " << rank << " stride " << stride;
      }
    }
    for (int iter = 0; iter < 20; ++iter) {
      poly_t a = random_poly(rng, -32768, 32767), b = a;
      portable_ref.reduce(a.data());
      k.reduce(b.data());
      ASSERT_EQ(a, b) << "reduce";
      a = random_poly(rng, -32768, 32767);
      b = a;
      portable_ref.tomont(a.data());
      k.tomont(b.data());
      ASSERT_EQ(a, b) << "tomont";
    }
  });
}

TEST(MlKemKernels, RejectionSampling) {
  test::seeded_random rng(0x726a);
  each_kernel_set([&](const mlkem::kernels& k) {
    for (int iter = 0; iter < 60; ++iter) {
      // Three SHAKE128 blocks or one; bytes biased high on some iterations
      // so that many candidates are rejected and the tail path runs.
      const std::size_t len = iter % 3 == 0 ? 168 : 504;
      std::vector<std::uint8_t> buf = rng.fill(len);
      if (iter % 4 == 1)
        for (auto& x : buf) x |= 0xc0;
      if (iter % 10 == 7) std::memset(buf.data(), 0xff, len);  // every candidate rejected
      const auto start = static_cast<unsigned>(iter % 5 == 0 ? rng.uniform(mlkem::n) : 0);
      poly_t want{}, got{};
      for (unsigned i = 0; i < start; ++i) want[i] = got[i] = static_cast<std::int16_t>(i);
      const unsigned nw = portable_ref.rej_uniform(want.data(), start, buf.data(), len);
      const unsigned ng = k.rej_uniform(got.data(), start, buf.data(), len);
      ASSERT_EQ(nw, ng) << "iteration " << iter;
      ASSERT_EQ(want, got) << "iteration " << iter;
    }
  });
}

TEST(MlKemKernels, CenteredBinomialNoise) {
  test::seeded_random rng(0x636264);
  each_kernel_set([&](const mlkem::kernels& k) {
    for (int iter = 0; iter < 20; ++iter) {
      for (unsigned eta : {2u, 3u}) {
        std::vector<std::uint8_t> buf = rng.fill(64 * eta);
        if (iter == 0) std::memset(buf.data(), 0xff, buf.size());
        if (iter == 1) std::memset(buf.data(), 0x0f, buf.size());  // every coefficient -eta or eta
        poly_t want{}, got{};
        portable_ref.cbd(want.data(), buf.data(), eta);
        k.cbd(got.data(), buf.data(), eta);
        ASSERT_EQ(want, got) << "eta " << eta << " iteration " << iter;
      }
    }
  });
}

TEST(MlKemKernels, CompressionEveryValue) {
  // Every coefficient value in (-q, q), in 27 polynomials, then random ones.
  std::vector<poly_t> polys;
  poly_t p{};
  unsigned fill = 0;
  for (int x = -(q - 1); x <= q - 1; ++x) {
    p[fill++] = static_cast<std::int16_t>(x);
    if (fill == mlkem::n) {
      polys.push_back(p);
      fill = 0;
    }
  }
  polys.push_back(p);
  test::seeded_random rng(0x636d);
  for (int i = 0; i < 8; ++i) polys.push_back(random_poly(rng, -(q - 1), q - 1));
  each_kernel_set([&](const mlkem::kernels& k) {
    for (const auto& a : polys) {
      for (unsigned d : {4u, 5u, 10u, 11u}) {
        std::vector<std::uint8_t> want(32 * d + 1, 0x5a), got(32 * d + 1, 0x5a);
        portable_ref.compress_encode(want.data(), a.data(), d);
        k.compress_encode(got.data(), a.data(), d);
        ASSERT_EQ(want, got) << "d " << d << " first coefficient " << a[0];  // the guard byte too
      }
      std::array<std::uint8_t, 33> want{}, got{};
      want[32] = got[32] = 0x5a;
      portable_ref.to_message(want.data(), a.data());
      k.to_message(got.data(), a.data());
      ASSERT_EQ(want, got) << "message, first coefficient " << a[0];
    }
  });
}

TEST(MlKemKernels, ByteEncodings) {
  test::seeded_random rng(0x656e63);
  each_kernel_set([&](const mlkem::kernels& k) {
    for (int iter = 0; iter < 24; ++iter) {
      // ByteEncode_12 of |a| < q; ByteDecode_12 of random bytes (values up
      // to 4095: the check fails, the reduction wraps) and of a valid key.
      const poly_t a = random_poly(rng, -(q - 1), q - 1);
      std::array<std::uint8_t, 384 + 1> e1{}, e2{};
      e1[384] = e2[384] = 0x5a;
      portable_ref.encode12(e1.data(), a.data());
      k.encode12(e2.data(), a.data());
      ASSERT_EQ(e1, e2) << "encode12";
      std::vector<std::uint8_t> bytes =
          iter % 2 == 0 ? rng.fill(384) : std::vector<std::uint8_t>(e1.begin(), e1.end() - 1);
      if (iter == 3) bytes[383] = 0xd1;  // the last value becomes 0xd1x >= q, the only one
      poly_t w{}, g{};
      const bool ok_want = portable_ref.decode12_checked(w.data(), bytes.data());
      const bool ok_got = k.decode12_checked(g.data(), bytes.data());
      ASSERT_EQ(ok_want, ok_got) << "decode12_checked, iteration " << iter;
      ASSERT_EQ(w, g) << "decode12_checked";
      if (iter % 2 == 1) {
        EXPECT_EQ(ok_got, iter != 3) << "a valid encoding, or one value >= q";
      }
      portable_ref.decode12_reduce(w.data(), bytes.data());
      k.decode12_reduce(g.data(), bytes.data());
      ASSERT_EQ(w, g) << "decode12_reduce";
      // ByteDecode_d + Decompress_d of random bytes, every d; Decompress_1.
      for (unsigned d : {4u, 5u, 10u, 11u}) {
        const std::vector<std::uint8_t> c = rng.fill(32 * d);
        portable_ref.decode_decompress(w.data(), c.data(), d);
        k.decode_decompress(g.data(), c.data(), d);
        ASSERT_EQ(w, g) << "decode_decompress d " << d;
      }
      const std::vector<std::uint8_t> m = rng.fill(32);
      portable_ref.from_message(w.data(), m.data());
      k.from_message(g.data(), m.data());
      ASSERT_EQ(w, g) << "from_message";
    }
  });
}

// KeyGen's shared four-lane schedule of the matrix and noise streams gives
// what expand_matrix and sample_noise give on their own.
TEST(MlKemKernels, MatrixAndNoiseSchedule) {
  test::seeded_random rng(0x736368);
  test::at_every_level([&] {
    for (unsigned k = 2; k <= 4; ++k) {
      const std::vector<std::uint8_t> rho = rng.fill(32), sigma = rng.fill(32);
      const unsigned eta = k == 2 ? 3 : 2;
      std::vector<mlkem::poly> a1(k * k), a2(k * k), n1(2 * k), n2(2 * k);
      std::vector<mlkem::poly*> p1, p2;
      for (unsigned i = 0; i < 2 * k; ++i) {
        p1.push_back(&n1[i]);
        p2.push_back(&n2[i]);
      }
      mlkem::expand_matrix(a1.data(), rho.data(), k);
      mlkem::sample_noise(p1.data(), 2 * k, eta, sigma.data(), 0);
      mlkem::sample_matrix_and_noise(a2.data(), rho.data(), k, p2.data(), 2 * k, eta, sigma.data());
      for (unsigned i = 0; i < k * k; ++i)
        ASSERT_EQ(std::memcmp(a1[i].c, a2[i].c, sizeof a1[i].c), 0) << "k " << k << " entry " << i;
      for (unsigned i = 0; i < 2 * k; ++i)
        ASSERT_EQ(std::memcmp(n1[i].c, n2[i].c, sizeof n1[i].c), 0) << "k " << k << " noise " << i;
    }
  });
}

}  // namespace
