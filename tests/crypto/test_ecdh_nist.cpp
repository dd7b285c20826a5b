// SPDX-License-Identifier: Apache-2.0
// ECDH on P-256, P-384 and P-521: RFC 5903 section 8 known answers, the
// Wycheproof ECDH files (raw SEC 1 points and DER SubjectPublicKeyInfo),
// differential checks against OpenSSL, key and scalar validation, and key
// generation. The arithmetic is one portable build (no CPU dispatch), so the
// tests run once.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ecdh_nist.hpp>

#include "oracles.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <openssl/bn.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

using namespace sealwire;
using crypto::p256;
using crypto::p384;
using crypto::p521;
using test::bytes;
using test::hex;

namespace {

// Per-curve facts: FIPS 186-4 D.1.2 parameters, RFC 5903 section 8 keys.
template <class E>
struct curve_info;

template <>
struct curve_info<p256> {
  static constexpr const char* name = "P-256";
  static constexpr const char* wycheproof = "ecdh_secp256r1";
  static constexpr const char* p = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
  static constexpr const char* n = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
  static constexpr const char* gx = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
  static constexpr const char* gy = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
  // DER of SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING } up to the point.
  static constexpr const char* spki_prefix = "3059301306072a8648ce3d020106082a8648ce3d030107034200";
  static constexpr const char* i = "c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433";
  static constexpr const char* gix = "dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180";
  static constexpr const char* giy = "5271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3";
  static constexpr const char* r = "c6ef9c5d78ae012a011164acb397ce2088685d8f06bf9be0b283ab46476bee53";
  static constexpr const char* grx = "d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63";
  static constexpr const char* gry = "56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab";
  static constexpr const char* girx = "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de";
  static constexpr int wycheproof_valid = 330, wycheproof_invalid = 24;
  static constexpr int wycheproof_der_invalid_point = 18, wycheproof_der_invalid_encoding = 34,
                       wycheproof_der_acceptable = 230;
};

template <>
struct curve_info<p384> {
  static constexpr const char* name = "P-384";
  static constexpr const char* wycheproof = "ecdh_secp384r1";
  static constexpr const char* p =
      "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff";
  static constexpr const char* n =
      "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973";
  static constexpr const char* gx =
      "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7";
  static constexpr const char* gy =
      "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f";
  static constexpr const char* spki_prefix = "3076301006072a8648ce3d020106052b81040022036200";
  static constexpr const char* i =
      "099f3c7034d4a2c699884d73a375a67f7624ef7c6b3c0f160647b67414dce655e35b538041e649ee3faef896783ab194";
  static constexpr const char* gix =
      "667842d7d180ac2cde6f74f37551f55755c7645c20ef73e31634fe72b4c55ee6de3ac808acb4bdb4c88732aee95f41aa";
  static constexpr const char* giy =
      "9482ed1fc0eeb9cafc4984625ccfc23f65032149e0e144ada024181535a0f38eeb9fcff3c2c947dae69b4c634573a81c";
  static constexpr const char* r =
      "41cb0779b4bdb85d47846725fbec3c9430fab46cc8dc5060855cc9bda0aa2942e0308312916b8ed2960e4bd55a7448fc";
  static constexpr const char* grx =
      "e558dbef53eecde3d3fccfc1aea08a89a987475d12fd950d83cfa41732bc509d0d1ac43a0336def96fda41d0774a3571";
  static constexpr const char* gry =
      "dcfbec7aacf3196472169e838430367f66eebe3c6e70c416dd5f0c68759dd1fff83fa40142209dff5eaad96db9e6386c";
  static constexpr const char* girx =
      "11187331c279962d93d604243fd592cb9d0a926f422e47187521287e7156c5c4d603135569b9e9d09cf5d4a270f59746";
  static constexpr int wycheproof_valid = 771, wycheproof_invalid = 18;
  static constexpr int wycheproof_der_invalid_point = 18, wycheproof_der_invalid_encoding = 28,
                       wycheproof_der_acceptable = 230;
};

template <>
struct curve_info<p521> {
  static constexpr const char* name = "P-521";
  static constexpr const char* wycheproof = "ecdh_secp521r1";
  static constexpr const char* p =
      "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "ffffffffffffffffffffffffffff";
  static constexpr const char* n =
      "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8"
      "899c47aebb6fb71e91386409";
  static constexpr const char* gx =
      "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de33"
      "48b3c1856a429bf97e7e31c2e5bd66";
  static constexpr const char* gy =
      "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad076135"
      "3c7086a272c24088be94769fd16650";
  static constexpr const char* spki_prefix = "30819b301006072a8648ce3d020106052b8104002303818600";
  static constexpr const char* i =
      "0037ade9319a89f4dabdb3ef411aaccca5123c61acab57b5393dce47608172a095aa85a30fe1c2952c6771d937ba9777f5957b26"
      "39bab072462f68c27a57382d4a52";
  static constexpr const char* gix =
      "0015417e84dbf28c0ad3c278713349dc7df153c897a1891bd98bab4357c9ecbee1e3bf42e00b8e380aeae57c2d107564941885"
      "942af5a7f4601723c4195d176ced3e";
  static constexpr const char* giy =
      "017cae20b6641d2eeb695786d8c946146239d099e18e1d5a514c739d7cb4a10ad8a788015ac405d7799dc75e7b7d5b6cf2261a"
      "6a7f1507438bf01beb6ca3926f9582";
  static constexpr const char* r =
      "0145ba99a847af43793fdd0e872e7cdfa16be30fdc780f97bccc3f078380201e9c677d600b343757a3bdbf2a3163e4c2f869cc"
      "a7458aa4a4effc311f5cb151685eb9";
  static constexpr const char* grx =
      "00d0b3975ac4b799f5bea16d5e13e9af971d5e9b984c9f39728b5e5739735a219b97c356436adc6e95bb0352f6be64a6c2912d"
      "4ef2d0433ced2b6171640012d9460f";
  static constexpr const char* gry =
      "015c68226383956e3bd066e797b623c27ce0eac2f551a10c2c724d9852077b87220b6536c5c408a1d2aebb8e86d678ae49cb57"
      "091f4732296579ab44fcd17f0fc56a";
  static constexpr const char* girx =
      "01144c7d79ae6956bc8edb8e7c787c4521cb086fa64407f97894e5e6b2d79b04d1427e73ca4baa240a34786859810c06b3c715"
      "a3a8cc3151f2bee417996d19f3ddea";
  static constexpr int wycheproof_valid = 632, wycheproof_invalid = 28;
  static constexpr int wycheproof_der_invalid_point = 18, wycheproof_der_invalid_encoding = 38,
                       wycheproof_der_acceptable = 228;
};

// for_each_ecdh_curve runs f.template operator()<E>() for the three curves.
template <class F>
void for_each_ecdh_curve(F&& f) {
  f.template operator()<p256>();
  f.template operator()<p384>();
  f.template operator()<p521>();
}

template <class E>
typename E::scalar_span scalar_of(const bytes& b) {
  EXPECT_EQ(b.size(), E::scalar_size);
  return typename E::scalar_span(b.data(), E::scalar_size);
}

// public_of returns E's public key of a scalar as bytes (empty on error).
template <class E>
bytes public_of(const bytes& k) {
  bytes out(E::point_size);
  if (!E::public_key(std::span<std::uint8_t, E::point_size>(out.data(), E::point_size), scalar_of<E>(k))) return {};
  return out;
}

template <class E>
result<void> shared(bytes& out, const bytes& k, const bytes& peer) {
  out.assign(E::secret_size, 0xa5);
  return E::shared_secret(std::span<std::uint8_t, E::secret_size>(out.data(), E::secret_size), scalar_of<E>(k),
                          std::span<const std::uint8_t>(peer));
}

// fixed_base_boundary returns d 2^(e + 1) mod n as l big-endian bytes,
// where 2^e = 2^(B (BW - 1)) is the weight of the top Booth window of the
// fixed-base multiplication (B = 6 bits for P-256, 4 for P-384 and P-521;
// BW = ceil((bits(n) + 1) / B) windows; crypto/src/detail/nist_scalar_mul.hpp).
// Only for these scalars could the sum of the lower windows equal the top
// window's point (the exceptional case of the mixed addition); the argument
// in mul_base says their top digit is not d.
bytes fixed_base_boundary(const bytes& n, unsigned d, std::size_t l) {
  BN_CTX* ctx = BN_CTX_new();
  BIGNUM* bn_n = BN_bin2bn(n.data(), static_cast<int>(n.size()), nullptr);
  BIGNUM* r = BN_new();
  bytes out(l, 0);
  const int width = BN_num_bits(bn_n) == 256 ? 6 : 4;
  const int windows = (BN_num_bits(bn_n) + 1 + width - 1) / width;
  if (ctx && bn_n && r && BN_set_word(r, 2 * d) && BN_lshift(r, r, width * (windows - 1)) &&
      BN_mod(r, r, bn_n, ctx))
    BN_bn2binpad(r, out.data(), static_cast<int>(l));
  BN_free(r);
  BN_free(bn_n);
  BN_CTX_free(ctx);
  return out;
}

// ecdh_sub_small returns the big-endian x - v (x >= v, v < 256).
bytes ecdh_sub_small(bytes x, unsigned v) {
  int borrow = static_cast<int>(v);
  for (std::size_t i = x.size(); i-- > 0 && borrow != 0;) {
    const int d = x[i] - borrow;
    borrow = d < 0 ? 1 : 0;
    x[i] = static_cast<std::uint8_t>(d);
  }
  return x;
}

// scalar_from_integer left-pads or strips a big-endian integer (Wycheproof
// writes a sign byte or drops leading zeros) to the fixed width, or nullopt
// when it does not fit.
std::optional<bytes> scalar_from_integer(bytes v, std::size_t width) {
  const auto first = std::find_if(v.begin(), v.end(), [](std::uint8_t b) { return b != 0; });
  v.erase(v.begin(), first);
  if (v.size() > width) return std::nullopt;
  bytes out(width - v.size(), 0);
  out.insert(out.end(), v.begin(), v.end());
  return out;
}


// ---- OpenSSL as the oracle ----

template <class E>
const char* group_name() {
  return std::is_same_v<E, p256> ? "P-256" : std::is_same_v<E, p384> ? "P-384" : "P-521";
}

using pkey = test::oracle::evp_key;

template <class E>
pkey openssl_key(const bytes& pub, const bytes* priv) {
  return test::oracle::evp_ec_key(group_name<E>(), pub, priv);
}

// openssl_key_pair: a peer key pair whose scalar comes from rng (so the
// test's seed replays it) and whose public point OpenSSL computes.
template <class E>
bool openssl_key_pair(test::seeded_random& rng, bytes& priv, bytes& pub) {
  return test::oracle::evp_ec_key_pair(group_name<E>(), rng, E::scalar_size, E::point_size, priv, pub);
}

using test::oracle::evp_derive;

using failing_source = test::failing_random;

// scripted_source hands out the given blocks in turn, then repeats the last.
class scripted_source final : public crypto::random_source {
 public:
  explicit scripted_source(std::vector<bytes> blocks) : blocks_(std::move(blocks)) {}
  result<void> fill(std::span<std::uint8_t> out) noexcept override {
    const bytes& b = blocks_[std::min(next_, blocks_.size() - 1)];
    ++next_;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = b[i % b.size()];
    return {};
  }
  std::size_t draws() const { return next_; }

 private:
  std::vector<bytes> blocks_;
  std::size_t next_ = 0;
};

class EcdhNist : public ::testing::Test {};

}  // namespace

// P-256 runs the BMI2/ADX kernel where the level has AVX2, BMI2 and ADX,
// P-521 the IFMA kernel where it has AVX-512F/VL and IFMA (the avx512
// level), each the portable one elsewhere; P-384 is portable everywhere.
TEST_F(EcdhNist, ProviderFollowsTheCpuLevel) {
  for (const auto level : test::cpu_levels()) {
    const test::scoped_cpu_level forced(level);
    const bool mulx = crypto::cpu::has(crypto::cpu::avx2 | crypto::cpu::bmi2 | crypto::cpu::adx);
    const bool ifma = crypto::cpu::has(crypto::cpu::avx512f | crypto::cpu::avx512vl | crypto::cpu::avx512bw |
                                       crypto::cpu::avx512ifma | crypto::cpu::avx2);
    EXPECT_EQ(crypto::p256::provider(), mulx ? "bmi2" : "portable");
    EXPECT_EQ(crypto::p384::provider(), "portable");
    EXPECT_EQ(crypto::p521::provider(), ifma ? "avx512ifma" : "portable");
  }
}

namespace {

template <class E>
void rfc5903_section8() {
  using c = curve_info<E>;
  SCOPED_TRACE(c::name);
  const bytes i = hex(c::i), r = hex(c::r);
  const bytes gi = test::concat({{0x04}, hex(c::gix), hex(c::giy)});
  const bytes gr = test::concat({{0x04}, hex(c::grx), hex(c::gry)});
  EXPECT_EQ(test::to_hex(public_of<E>(i)), test::to_hex(gi));
  EXPECT_EQ(test::to_hex(public_of<E>(r)), test::to_hex(gr));
  bytes out;
  ASSERT_TRUE(shared<E>(out, i, gr));
  EXPECT_EQ(test::to_hex(out), c::girx);
  ASSERT_TRUE(shared<E>(out, r, gi));
  EXPECT_EQ(test::to_hex(out), c::girx);
}

}  // namespace

TEST_F(EcdhNist, Rfc5903Section8) {
  for_each_ecdh_curve([]<class E>() { rfc5903_section8<E>(); });
}

namespace {

template <class E>
void small_and_edge_scalars() {
  using c = curve_info<E>;
  SCOPED_TRACE(c::name);
  const std::size_t l = E::scalar_size;
  const bytes g = test::concat({{0x04}, hex(c::gx), hex(c::gy)});
  const bytes one = test::add_small(bytes(l, 0), 1);
  EXPECT_EQ(test::to_hex(public_of<E>(one)), test::to_hex(g)) << "1 G";
  // (n - 1) G = -G = (Gx, p - Gy).
  const bytes n = hex(c::n), p = hex(c::p), gy = hex(c::gy);
  bytes n_minus_1 = n;
  n_minus_1.back() = static_cast<std::uint8_t>(n_minus_1.back() - 1);  // n is odd
  bytes neg_gy(l);
  int borrow = 0;
  for (std::size_t k = l; k-- > 0;) {
    const int d = p[k] - gy[k] - borrow;
    neg_gy[k] = static_cast<std::uint8_t>(d);
    borrow = d < 0 ? 1 : 0;
  }
  EXPECT_EQ(test::to_hex(public_of<E>(n_minus_1)), test::to_hex(test::concat({{0x04}, hex(c::gx), neg_gy}))) << "(n-1) G";
  // k G through the variable-base path equals the fixed-base table's.
  bytes out;
  // Scalars near n as well: the last windows add to an accumulator near -G.
  bytes n_minus_2 = n_minus_1, n_minus_3 = n_minus_1;
  n_minus_2.back() = static_cast<std::uint8_t>(n_minus_2.back() - 1);
  n_minus_3.back() = static_cast<std::uint8_t>(n_minus_3.back() - 2);
  for (const bytes& k : {one, test::add_small(bytes(l, 0), 2), test::add_small(bytes(l, 0), 15), test::add_small(bytes(l, 0), 16),
                         test::add_small(bytes(l, 0), 17), n_minus_1, n_minus_2, n_minus_3}) {
    const bytes pub = public_of<E>(k);
    ASSERT_EQ(pub.size(), E::point_size);
    ASSERT_TRUE(shared<E>(out, k, g));
    EXPECT_EQ(test::to_hex(out), test::to_hex(bytes(pub.begin() + 1, pub.begin() + 1 + static_cast<long>(l))))
        << test::to_hex(k);
  }
}

}  // namespace

TEST_F(EcdhNist, SmallAndEdgeScalars) {
  for_each_ecdh_curve([]<class E>() { small_and_edge_scalars<E>(); });
}

TEST_F(EcdhNist, ScalarsOutsideTheGroupOrderAreRefused) {
  for_each_ecdh_curve([]<class E>() {
    using c = curve_info<E>;
    SCOPED_TRACE(c::name);
    const std::size_t l = E::scalar_size;
    const bytes n = hex(c::n);
    const bytes g = test::concat({{0x04}, hex(c::gx), hex(c::gy)});
    for (const bytes& k : {bytes(l, 0), n, test::add_small(n, 1), bytes(l, 0xff), hex(c::p)}) {
      bytes pub(E::point_size, 0xa5);
      const auto r = E::public_key(std::span<std::uint8_t, E::point_size>(pub.data(), E::point_size), scalar_of<E>(k));
      EXPECT_EQ(r.error(), crypto_errc::invalid_key) << test::to_hex(k);
      EXPECT_TRUE(crypto::ct::is_zero(pub));
      bytes out;
      EXPECT_EQ(shared<E>(out, k, g).error(), crypto_errc::invalid_key) << test::to_hex(k);
      EXPECT_TRUE(crypto::ct::is_zero(out));
      EXPECT_EQ(E::check_private_key(scalar_of<E>(k)).error(), crypto_errc::invalid_key);
    }
    EXPECT_TRUE(E::check_private_key(scalar_of<E>(test::add_small(bytes(l, 0), 1))));
    bytes n_minus_1 = n;
    n_minus_1.back() = static_cast<std::uint8_t>(n_minus_1.back() - 1);
    EXPECT_TRUE(E::check_private_key(scalar_of<E>(n_minus_1)));
  });
}

TEST_F(EcdhNist, InvalidPublicKeysAreRefused) {
  for_each_ecdh_curve([]<class E>() {
    using c = curve_info<E>;
    SCOPED_TRACE(c::name);
    const std::size_t l = E::scalar_size;
    const bytes k = hex(c::i);
    const bytes x = hex(c::grx), y = hex(c::gry), p = hex(c::p);
    const bytes good = test::concat({{0x04}, x, y});
    bytes out;
    ASSERT_TRUE(shared<E>(out, k, good));
    ASSERT_TRUE(E::check_public_key(good));

    bytes off_curve = good;
    off_curve.back() ^= 1;
    bytes x_is_p = test::concat({{0x04}, p, y});
    bytes y_is_p = test::concat({{0x04}, x, p});
    // y + p still fits the width for P-521 (p < 2^521, 66 bytes): the same
    // residue, non-canonically encoded, must be refused.
    std::vector<std::pair<std::string, bytes>> bad = {
        {"off the curve", off_curve},
        {"x = p", x_is_p},
        {"y = p", y_is_p},
        {"all ones", test::concat({{0x04}, bytes(2 * l, 0xff)})},
        {"(0, 0)", test::concat({{0x04}, bytes(2 * l, 0)})},
        {"infinity (0x00)", bytes{0x00}},
        {"empty", bytes{}},
        {"prefix 0x00", test::concat({{0x00}, x, y})},
        {"prefix 0x02", test::concat({{0x02}, x, y})},
        {"prefix 0x06 (hybrid)", test::concat({{0x06}, x, y})},
        {"compressed", test::concat({{static_cast<std::uint8_t>(0x02 | (y.back() & 1))}, x})},
        {"no prefix", test::concat({x, y})},
        {"one byte short", bytes(good.begin(), good.end() - 1)},
        {"one byte long", test::concat({good, {0x00}})},
    };
    if (std::is_same_v<E, p521>) {
      bytes y_plus_p(l);
      unsigned carry = 0;
      for (std::size_t j = l; j-- > 0;) {
        carry += unsigned{y[j]} + p[j];
        y_plus_p[j] = static_cast<std::uint8_t>(carry);
        carry >>= 8;
      }
      ASSERT_EQ(carry, 0u);
      bad.push_back({"y + p", test::concat({{0x04}, x, y_plus_p})});
    }
    for (const auto& [what, peer] : bad) {
      EXPECT_EQ(shared<E>(out, k, peer).error(), crypto_errc::invalid_public_key) << what;
      EXPECT_TRUE(crypto::ct::is_zero(out)) << what;
      EXPECT_EQ(E::check_public_key(peer).error(), crypto_errc::invalid_public_key) << what;
    }
  });
}

namespace {

// peer_bytes is what a test hands the library as the peer's public key:
// a SEC 1 point, or (from_spki false in the DER files) the whole encoding
// the test could not reduce to one.
struct peer_bytes {
  bytes peer;
  bool point = true;
};

struct ecdh_counts {
  int valid = 0, acceptable = 0;
  int invalid_point = 0;     // invalid, given to the library as a SEC 1 point, rejected there
  int invalid_encoding = 0;  // invalid, given to the library as the raw DER, rejected there
  int invalid() const { return invalid_point + invalid_encoding; }
};

// run_wycheproof checks one Wycheproof ECDH file. peer_of turns the "public"
// field into the bytes given to shared_secret. Every verdict is the
// library's: a case counts as rejected only when shared_secret (and
// check_public_key) refused it, with its output zeroed.
template <class E, class PeerOf>
ecdh_counts run_wycheproof(const std::filesystem::path& path, PeerOf peer_of) {
  const auto j = test::load_json(path);
  ecdh_counts n;
  int total = 0;
  for (const auto& g : j["testGroups"]) {
    for (const auto& c : g["tests"]) {
      ++total;
      const std::string id = "tcId " + std::to_string(c["tcId"].get<int>()) + ": " + c["comment"].get<std::string>();
      const std::string verdict = c["result"].get<std::string>();
      const auto k = scalar_from_integer(hex(c["private"].get<std::string>()), E::scalar_size);
      EXPECT_TRUE(k.has_value()) << id;  // every file's scalars are in range
      if (!k) continue;
      const peer_bytes p = peer_of(hex(c["public"].get<std::string>()));
      bytes out;
      const result<void> r = shared<E>(out, *k, p.peer);
      EXPECT_EQ(static_cast<bool>(E::check_public_key(p.peer)), static_cast<bool>(r)) << id;
      if (verdict == "valid") {
        EXPECT_TRUE(p.point) << id;
        EXPECT_TRUE(r) << id << ": " << r.error().message();
        EXPECT_EQ(test::to_hex(out), c["shared"].get<std::string>()) << id;
        ++n.valid;
      } else if (verdict == "invalid") {
        EXPECT_EQ(r.error(), crypto_errc::invalid_public_key) << id;
        EXPECT_TRUE(crypto::ct::is_zero(out)) << id;
        if (!r) ++(p.point ? n.invalid_point : n.invalid_encoding);
      } else {
        // Acceptable cases are refused, each for a documented reason:
        // compressed points (we take only the uncompressed form, which is
        // what HPKE and TLS send), and in the DER files alternative BER
        // encodings and explicit (unnamed) curve parameters, which are not
        // the one SubjectPublicKeyInfo form reduced to a point.
        EXPECT_EQ(verdict, "acceptable") << id;
        EXPECT_TRUE(test::has_flag(c, "CompressedPublic") || test::has_flag(c, "InvalidAsn") || test::has_flag(c, "UnnamedCurve")) << id;
        EXPECT_EQ(r.error(), crypto_errc::invalid_public_key) << id;
        EXPECT_TRUE(crypto::ct::is_zero(out)) << id;
        if (!r) ++n.acceptable;
      }
    }
  }
  EXPECT_EQ(total, j["numberOfTests"].get<int>());
  return n;
}

}  // namespace

// Each curve reads its own file (ecdh_secp256r1_ecpoint_test.json, ...); a
// missing one fails that curve, naming the file.
namespace {

template <class E>
void wycheproof_ecpoint_file() {
  using c = curve_info<E>;
  SCOPED_TRACE(c::name);
  const std::string file = std::string("wycheproof/testvectors_v1/") + c::wycheproof + "_ecpoint_test.json";
  SEALWIRE_REQUIRE_VECTOR(path, file);
  const auto n = run_wycheproof<E>(path, [](const bytes& b) { return peer_bytes{b, true}; });
  std::printf("wycheproof %s ecpoint: %d valid, %d invalid, %d acceptable (refused: compressed)\n", c::name, n.valid,
              n.invalid(), n.acceptable);
  EXPECT_EQ(n.valid, c::wycheproof_valid);
  EXPECT_EQ(n.invalid_point, c::wycheproof_invalid);
  EXPECT_EQ(n.invalid_encoding, 0);
  EXPECT_EQ(n.acceptable, 1);
}

}  // namespace

TEST_F(EcdhNist, WycheproofEcpointFiles) {
  for_each_ecdh_curve([]<class E>() { wycheproof_ecpoint_file<E>(); });
}

// The same with the DER (SubjectPublicKeyInfo) files, ecdh_secp256r1_test.json, ...
//
// The library has no SubjectPublicKeyInfo parser: it takes raw SEC 1 points
// only. So that the library, not a filter in this test, rejects the invalid
// cases, the test reduces an encoding to a point only when it is exactly the
// DER of SEQUENCE { SEQUENCE { id-ecPublicKey, the curve's OID }, BIT STRING
// (no unused bits) } with a point of the curve's uncompressed length, that
// is, the one well-formed SPKI for this curve. Everything else (other
// curves, explicit parameters, BER forms, wrong lengths) reaches the
// library as the raw DER bytes and must be rejected there. Both kinds of
// rejection are counted and pinned, per curve.
TEST_F(EcdhNist, WycheproofDerFiles) {
  for_each_ecdh_curve([]<class E>() {
    using c = curve_info<E>;
    SCOPED_TRACE(c::name);
    const std::string file = std::string("wycheproof/testvectors_v1/") + c::wycheproof + "_test.json";
    SEALWIRE_REQUIRE_VECTOR(path, file);
    const bytes prefix = hex(c::spki_prefix);
    const auto n = run_wycheproof<E>(path, [&](const bytes& spki) {
      if (spki.size() == prefix.size() + E::point_size && std::equal(prefix.begin(), prefix.end(), spki.begin())) {
        return peer_bytes{bytes(spki.begin() + static_cast<long>(prefix.size()), spki.end()), true};
      }
      return peer_bytes{spki, false};
    });
    std::printf("wycheproof %s DER: %d valid, %d invalid (%d rejected by the point check, %d as raw DER), "
                "%d acceptable (all refused)\n",
                c::name, n.valid, n.invalid(), n.invalid_point, n.invalid_encoding, n.acceptable);
    EXPECT_EQ(n.valid, c::wycheproof_valid);
    EXPECT_EQ(n.invalid_point, c::wycheproof_der_invalid_point);
    EXPECT_EQ(n.invalid_encoding, c::wycheproof_der_invalid_encoding);
    EXPECT_EQ(n.acceptable, c::wycheproof_der_acceptable);
  });
}

namespace {

template <class E>
void differential_against_openssl() {
  using c = curve_info<E>;
  SCOPED_TRACE(c::name);
  test::seeded_random rng(5903);
  const int cases = test::differential_cases(40);
  for (int test_case = 0; test_case < cases; ++test_case) {
    // A: ours; B: OpenSSL's public point of a scalar. Both scalars come
    // from the seeded generator, so every case replays; a failure names
    // them.
    auto* prev = crypto::set_random_source(&rng);
    bytes a(E::scalar_size), a_pub(E::point_size);
    const auto gen = E::generate(std::span<std::uint8_t, E::scalar_size>(a.data(), E::scalar_size),
                                 std::span<std::uint8_t, E::point_size>(a_pub.data(), E::point_size));
    crypto::set_random_source(prev);
    ASSERT_TRUE(gen);
    bytes b, b_pub;
    ASSERT_TRUE(openssl_key_pair<E>(rng, b, b_pub));
    const std::string t =
        "case " + std::to_string(test_case) + " (a = " + test::to_hex(a) + ", b = " + test::to_hex(b) + ")";
    // Public key from private key, both ways.
    EXPECT_EQ(test::to_hex(public_of<E>(b)), test::to_hex(b_pub)) << t;
    pkey ka = openssl_key<E>(a_pub, &a), kb = openssl_key<E>(b_pub, &b);
    ASSERT_NE(ka.k, nullptr) << "OpenSSL refused our key pair " << t;
    ASSERT_NE(kb.k, nullptr);
    // Both directions of the exchange against OpenSSL's derive.
    bytes ours_ab, ours_ba;
    ASSERT_TRUE(shared<E>(ours_ab, a, b_pub)) << t;
    ASSERT_TRUE(shared<E>(ours_ba, b, a_pub)) << t;
    const auto theirs_ab = evp_derive(ka.k, kb.k, E::secret_size);
    const auto theirs_ba = evp_derive(kb.k, ka.k, E::secret_size);
    ASSERT_TRUE(theirs_ab && theirs_ba) << t;
    EXPECT_EQ(test::to_hex(ours_ab), test::to_hex(*theirs_ab)) << t;
    EXPECT_EQ(test::to_hex(ours_ba), test::to_hex(*theirs_ba)) << t;
    EXPECT_EQ(test::to_hex(ours_ab), test::to_hex(ours_ba)) << t;
  }
}

}  // namespace

TEST_F(EcdhNist, DifferentialAgainstOpenSsl) {
  for_each_ecdh_curve([]<class E>() { differential_against_openssl<E>(); });
}

// The peer keys of the differential tests replay from the seed: the same
// seed gives the same scalar and point, and the scalars are in [1, n-1]
// (P-521's draws masked to the order's 521 bits).
TEST_F(EcdhNist, OpenSslPeerKeysReplayFromTheSeed) {
  for_each_ecdh_curve([]<class E>() {
    using c = curve_info<E>;
    SCOPED_TRACE(c::name);
    test::seeded_random first(99), again(99);
    for (int i = 0; i < 5; ++i) {
      bytes b1, p1, b2, p2;
      ASSERT_TRUE(openssl_key_pair<E>(first, b1, p1));
      ASSERT_TRUE(openssl_key_pair<E>(again, b2, p2));
      EXPECT_EQ(test::to_hex(b1), test::to_hex(b2)) << i;
      EXPECT_EQ(test::to_hex(p1), test::to_hex(p2)) << i;
      EXPECT_TRUE(E::check_private_key(scalar_of<E>(b1))) << i;
      EXPECT_EQ(test::to_hex(public_of<E>(b1)), test::to_hex(p1)) << i;
    }
  });
}

namespace {

// Scalars whose windows are all 0 or 15, runs of ones, powers of two and
// the top of the range stress the table selection, the identity entry and
// the carries. A = kG (fixed-base table) and k B (variable base) are
// checked against OpenSSL's derive from the other side.
template <class E>
void structured_scalars_agree_with_openssl() {
  using c = curve_info<E>;
  SCOPED_TRACE(c::name);
  const std::size_t l = E::scalar_size;
  const bytes n = hex(c::n);
  std::vector<bytes> scalars;
  for (unsigned v = 1; v <= 17; ++v) scalars.push_back(test::add_small(bytes(l, 0), v));
  for (std::size_t bits : {8u, 63u, 64u, 65u, 127u, 128u, 192u, 255u, 256u, 383u, 384u, 520u}) {
    if (bits >= 8 * l) continue;
    bytes pow2(l, 0), ones(l, 0);
    pow2[l - 1 - bits / 8] = static_cast<std::uint8_t>(1u << (bits % 8));
    for (std::size_t b = 0; b < bits; ++b) ones[l - 1 - b / 8] |= static_cast<std::uint8_t>(1u << (b % 8));
    for (const bytes& k : {pow2, ones, test::add_small(pow2, 1)}) {
      if (E::check_private_key(scalar_of<E>(k))) scalars.push_back(k);
    }
  }
  for (std::uint8_t pattern : {0xf0, 0x0f, 0xff, 0xaa, 0x55, 0x80}) {
    bytes k(l, pattern);
    k[0] &= n[0];  // below n's top byte, so in range
    if (E::check_private_key(scalar_of<E>(k))) scalars.push_back(k);
  }
  // Every positive top digit of P-256's 6-bit fixed-base windows (16), the
  // first three elsewhere.
  const unsigned top_digits = l == 32 ? 16 : 3;
  for (unsigned d = 1; d <= top_digits; ++d) scalars.push_back(fixed_base_boundary(n, d, l));
  // n - 1 .. n - 33: n - 2|d| for a last digit d makes the variable-base
  // accumulator equal to the last entry (mul_var's complete last addition).
  for (unsigned d = 1; d <= 33; ++d) scalars.push_back(ecdh_sub_small(n, d));
  test::seeded_random rng(0x5e1f);
  bytes b, b_pub;
  ASSERT_TRUE(openssl_key_pair<E>(rng, b, b_pub));
  SCOPED_TRACE("OpenSSL's side: b = " + test::to_hex(b));
  pkey kb = openssl_key<E>(b_pub, &b);
  ASSERT_NE(kb.k, nullptr);
  for (const bytes& k : scalars) {
    ASSERT_TRUE(E::check_private_key(scalar_of<E>(k))) << test::to_hex(k);
    const bytes a_pub = public_of<E>(k);
    ASSERT_EQ(a_pub.size(), E::point_size) << test::to_hex(k);
    pkey ka = openssl_key<E>(a_pub, nullptr);
    ASSERT_NE(ka.k, nullptr) << "OpenSSL refused k G for k = " << test::to_hex(k);
    const auto theirs = evp_derive(kb.k, ka.k, E::secret_size);
    ASSERT_TRUE(theirs) << test::to_hex(k);
    bytes ours;
    ASSERT_TRUE(shared<E>(ours, k, b_pub)) << test::to_hex(k);
    EXPECT_EQ(test::to_hex(ours), test::to_hex(*theirs)) << test::to_hex(k);
  }
}

}  // namespace

TEST_F(EcdhNist, StructuredScalarsAgreeWithOpenSsl) {
  for_each_ecdh_curve([]<class E>() { structured_scalars_agree_with_openssl<E>(); });
}

TEST_F(EcdhNist, GenerateGivesAMatchingKeyPair) {
  for_each_ecdh_curve([]<class E>() {
    using c = curve_info<E>;
    SCOPED_TRACE(c::name);
    test::seeded_random det(12), replay(12);
    auto* prev = crypto::set_random_source(&det);
    bytes priv(E::scalar_size), pub(E::point_size);
    const auto r = E::generate(std::span<std::uint8_t, E::scalar_size>(priv.data(), E::scalar_size),
                               std::span<std::uint8_t, E::point_size>(pub.data(), E::point_size));
    crypto::set_random_source(prev);
    ASSERT_TRUE(r);
    bytes want = replay.fill(E::scalar_size);
    if (std::is_same_v<E, p521>) want[0] &= 1;  // P-521 draws keep only bit 520 of the top byte
    EXPECT_EQ(test::to_hex(priv), test::to_hex(want));
    EXPECT_EQ(test::to_hex(pub), test::to_hex(public_of<E>(priv)));

    // From the operating system's generator: two pairs agree on a secret.
    bytes priv2(E::scalar_size), pub2(E::point_size), k1, k2;
    ASSERT_TRUE(E::generate(std::span<std::uint8_t, E::scalar_size>(priv.data(), E::scalar_size),
                            std::span<std::uint8_t, E::point_size>(pub.data(), E::point_size)));
    ASSERT_TRUE(E::generate(std::span<std::uint8_t, E::scalar_size>(priv2.data(), E::scalar_size),
                            std::span<std::uint8_t, E::point_size>(pub2.data(), E::point_size)));
    EXPECT_NE(priv, priv2);
    ASSERT_TRUE(shared<E>(k1, priv, pub2));
    ASSERT_TRUE(shared<E>(k2, priv2, pub));
    EXPECT_EQ(k1, k2);
  });
}

TEST_F(EcdhNist, GenerateRejectsOutOfRangeDraws) {
  for_each_ecdh_curve([]<class E>() {
    using c = curve_info<E>;
    SCOPED_TRACE(c::name);
    const std::size_t l = E::scalar_size;
    bytes priv(l), pub(E::point_size);
    auto gen = [&] {
      return E::generate(std::span<std::uint8_t, E::scalar_size>(priv.data(), l),
                         std::span<std::uint8_t, E::point_size>(pub.data(), E::point_size));
    };
    // Zero, then n (all ones for P-521 becomes 2^521 - 1 > n after masking),
    // then a valid scalar: the third draw is the key.
    const bytes good = hex(c::i);
    scripted_source src({bytes(l, 0), hex(c::n), bytes(l, 0xff), good});
    auto* prev = crypto::set_random_source(&src);
    const auto r = gen();
    crypto::set_random_source(prev);
    ASSERT_TRUE(r);
    EXPECT_EQ(src.draws(), 4u);
    EXPECT_EQ(test::to_hex(priv), c::i);
    EXPECT_EQ(test::to_hex(pub), test::to_hex(test::concat({{0x04}, hex(c::gix), hex(c::giy)})));

    // A source that only ever gives zeros is broken: the outputs are zeroed.
    scripted_source zeros({bytes(l, 0)});
    prev = crypto::set_random_source(&zeros);
    std::fill(pub.begin(), pub.end(), std::uint8_t{0xa5});
    EXPECT_EQ(gen().error(), crypto_errc::rng_failure);
    crypto::set_random_source(prev);
    EXPECT_TRUE(crypto::ct::is_zero(priv));
    EXPECT_TRUE(crypto::ct::is_zero(pub));

    failing_source bad;
    prev = crypto::set_random_source(&bad);
    std::fill(priv.begin(), priv.end(), std::uint8_t{0xa5});
    std::fill(pub.begin(), pub.end(), std::uint8_t{0xa5});
    EXPECT_EQ(gen().error(), crypto_errc::rng_failure);
    crypto::set_random_source(prev);
    EXPECT_TRUE(crypto::ct::is_zero(priv));
    EXPECT_TRUE(crypto::ct::is_zero(pub));
  });
}

namespace {

// every_kernel_check runs the vectors, the edge scalars, the Wycheproof
// point file, the OpenSSL differential and the structured scalars at every
// CPU level: for the curves with more than one kernel.
template <class E>
void every_kernel_check() {
  test::at_every_level([] {
    SCOPED_TRACE(E::provider());
    rfc5903_section8<E>();
    small_and_edge_scalars<E>();
    wycheproof_ecpoint_file<E>();
    differential_against_openssl<E>();
    structured_scalars_agree_with_openssl<E>();
  });
}

}  // namespace

// P-256 has two kernels (portable, BMI2/ADX).
TEST_F(EcdhNist, P256AtEveryLevel) { every_kernel_check<p256>(); }

// P-521 has two kernels (portable, AVX-512 IFMA).
TEST_F(EcdhNist, P521AtEveryLevel) { every_kernel_check<p521>(); }
