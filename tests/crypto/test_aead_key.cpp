// SPDX-License-Identifier: Apache-2.0
// Keyed AEAD objects (aead_key): one key, many messages, equal to the
// one-shot functions at every CPU level, including a key set up at one level
// and used at another; sealer and opener started from a key; misuse.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/poly1305.hpp>

#include "aead_helpers.hpp"
#include "vectors.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <new>
#include <thread>

using namespace sealwire;
using crypto::aead_algorithm;
using test::bytes;

namespace {

class AeadKey : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(AeadKey);

bytes nonce_for(aead_algorithm alg, std::uint64_t i) {
  bytes n(crypto::properties(alg).nonce_size, 0x5a);
  for (std::size_t b = 0; b < 8 && b < n.size(); ++b) n[n.size() - 1 - b] = static_cast<std::uint8_t>(i >> (8 * b));
  return n;
}

}  // namespace

// Many messages of many lengths under one key object, each equal to the
// one-shot function with the key as bytes, and opened back.
TEST_P(AeadKey, ManyMessagesEqualOneShot) {
  test::seeded_random rng(11);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const auto& p = crypto::properties(alg);
    const bytes key = rng.fill(p.key_size);
    auto k = crypto::aead_key::make(alg, key);
    ASSERT_TRUE(k) << to_string(alg);
    EXPECT_TRUE(k->keyed());
    EXPECT_EQ(k->algorithm(), alg);
    for (std::uint64_t i = 0; i < 60; ++i) {
      const bytes nonce = nonce_for(alg, i);
      const bytes pt = rng.fill(i < 40 ? i * 7 : rng.uniform(5000));
      const bytes aad = p.supports_aad ? rng.fill(rng.uniform(40)) : bytes{};
      bytes ours(pt.size() + 16), ref(pt.size() + 16);
      ASSERT_EQ(k->seal(ours, pt, associated_data(aad), nonce).value(), pt.size() + 16);
      ASSERT_TRUE(crypto::aead_seal(alg, ref, pt, associated_data(aad), nonce, key));
      ASSERT_EQ(test::to_hex(ours), test::to_hex(ref)) << to_string(alg) << " message " << i;
      bytes back(pt.size());
      ASSERT_EQ(k->open(back, ours, associated_data(aad), nonce).value(), pt.size());
      ASSERT_EQ(back, pt);
      if (!pt.empty()) {
        ours[rng.uniform(ours.size())] ^= 0x10;
        EXPECT_EQ(k->open(back, ours, associated_data(aad), nonce).error(), crypto_errc::authentication_failed);
        EXPECT_EQ(back, bytes(pt.size(), 0)) << "a failed open leaves zeros";
      }
    }
  }
}

// A key set up at one CPU level (AES-GCM's powers of H exist for the clmul
// kernels only) must give the same results when used at every other level.
TEST(AeadKeyLevels, KeyedAtOneLevelUsedAtAnother) {
  test::seeded_random rng(12);
  for (aead_algorithm alg : {aead_algorithm::aes128_gcm, aead_algorithm::aes256_gcm, aead_algorithm::chacha20_poly1305}) {
    const bytes key = rng.fill(crypto::properties(alg).key_size), nonce = rng.fill(12), aad = rng.fill(13);
    const bytes pt = rng.fill(1000);
    bytes ref(pt.size() + 16);
    ASSERT_TRUE(crypto::aead_seal(alg, ref, pt, associated_data(aad), nonce, key));
    for (auto keyed_at : test::cpu_levels()) {
      crypto::aead_key k;
      {
        test::scoped_cpu_level level(keyed_at);
        ASSERT_TRUE(k.init(alg, key));
      }
      for (auto used_at : test::cpu_levels()) {
        test::scoped_cpu_level level(used_at);
        bytes out(pt.size() + 16);
        ASSERT_TRUE(k.seal(out, pt, associated_data(aad), nonce));
        EXPECT_EQ(out, ref) << to_string(alg) << " keyed at " << crypto::cpu::name(keyed_at) << ", used at "
                            << crypto::cpu::name(used_at);
        // The incremental opener started from the key, fed in pieces.
        crypto::aead_opener o;
        ASSERT_TRUE(o.init(k, nonce, crypto::tag_position::trailing));
        o.aad(aad);
        bytes back;
        for (std::size_t at = 0; at < out.size(); at += 333) {
          const auto piece = std::span(out).subspan(at, std::min<std::size_t>(333, out.size() - at));
          bytes chunk(o.output_size(piece.size()));
          ASSERT_TRUE(o.update(chunk, piece));
          back.insert(back.end(), chunk.begin(), chunk.end());
        }
        ASSERT_TRUE(o.finish());
        EXPECT_EQ(back, pt);
      }
    }
  }
}

TEST_P(AeadKey, SealerStartedFromAKeyEqualsOneShot) {
  test::seeded_random rng(13);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const bytes key = rng.fill(crypto::properties(alg).key_size);
    const auto k = crypto::aead_key::make(alg, key).value();
    for (int i = 0; i < 10; ++i) {
      const bytes nonce = nonce_for(alg, static_cast<std::uint64_t>(i)), pt = rng.fill(rng.uniform(3000));
      crypto::aead_sealer s;
      ASSERT_TRUE(s.init(k, nonce));
      bytes ct(pt.size()), tag(16);
      ASSERT_TRUE(s.update(ct, pt));
      s.finish(std::span<std::uint8_t, 16>(tag.data(), 16));
      const auto ref = test::seal_detached(alg, key, nonce, {}, pt);
      ASSERT_TRUE(ref);
      EXPECT_EQ(ct, ref->ct);
      EXPECT_EQ(tag, ref->tag);
    }
  }
}

// The keyed objects at every address alignment: a GCC 12 coroutine frame (a
// record::stream local to a coroutine) places them only 16-byte aligned,
// whatever alignment they ask for, and the vector kernels must not assume
// more. Each object is built at offsets 8 to 56 of a 64-byte aligned buffer,
// used with messages long enough for the widest kernels, and moved to an
// object at another offset.
TEST_P(AeadKey, ObjectsWorkAtEveryAlignment) {
  test::seeded_random rng(17);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const bytes key = rng.fill(crypto::properties(alg).key_size);
    const bytes nonce = nonce_for(alg, 3), pt = rng.fill(4000), aad = rng.fill(20);
    const bool with_aad = crypto::properties(alg).supports_aad;
    const bytes ad_bytes = with_aad ? aad : bytes{};
    const associated_data ad(ad_bytes);
    bytes ref(pt.size() + 16);
    ASSERT_TRUE(crypto::aead_seal(alg, ref, pt, ad, nonce, key));
    for (std::size_t offset = 8; offset < 64; offset += 8) {
      alignas(64) unsigned char key_space[sizeof(crypto::aead_key) + 128];
      alignas(64) unsigned char moved_space[sizeof(crypto::aead_key) + 128];
      alignas(64) unsigned char opener_space[sizeof(crypto::aead_opener) + 128];
      auto* k = ::new (key_space + offset) crypto::aead_key(crypto::aead_key::make(alg, key).value());
      bytes ct(pt.size() + 16);
      ASSERT_TRUE(k->seal(ct, pt, ad, nonce));
      EXPECT_EQ(ct, ref) << to_string(alg) << " at offset " << offset;
      // Moved to an object at another alignment, the key still works.
      auto* m = ::new (moved_space + (offset + 24) % 64) crypto::aead_key(std::move(*k));
      bytes again(pt.size() + 16);
      ASSERT_TRUE(m->seal(again, pt, ad, nonce));
      EXPECT_EQ(again, ref) << to_string(alg) << " moved from offset " << offset;
      // The incremental opener, fed one TCP segment's payload at a time
      // (the tag trailing, or first and detached for secretbox).
      const bool tag_first = crypto::properties(alg).tag_first;
      const bytes body(ct.begin() + (tag_first ? 16 : 0), ct.end());
      auto* o = ::new (opener_space + offset) crypto::aead_opener;
      ASSERT_TRUE(o->init(*m, nonce, tag_first ? crypto::tag_position::detached : crypto::tag_position::trailing));
      if (with_aad) o->aad(aad);
      bytes out(body.size());
      std::size_t written = 0;
      for (std::size_t at = 0; at < body.size(); at += 1448) {
        const std::size_t n = std::min<std::size_t>(1448, body.size() - at);
        written += o->update(std::span(out).subspan(written), bytes_view(body.data() + at, n)).value();
      }
      if (tag_first) {
        EXPECT_TRUE(o->finish(bytes_view(ct.data(), 16))) << to_string(alg) << " at offset " << offset;
      } else {
        EXPECT_TRUE(o->finish()) << to_string(alg) << " at offset " << offset;
      }
      out.resize(written);
      EXPECT_EQ(out, pt);
      o->~aead_opener();
      m->~aead_key();
      k->~aead_key();
    }
  }
}

TEST_P(AeadKey, Poly1305AndStreamCiphersWorkAtEveryAlignment) {
  test::seeded_random rng(19);
  const bytes key = rng.fill(32), msg = rng.fill(5000), nonce = rng.fill(12);
  std::array<std::uint8_t, 16> ref_tag{};
  crypto::poly1305::mac(ref_tag, msg, std::span<const std::uint8_t, 32>(key.data(), 32));
  bytes ref_stream(msg.size());
  {
    crypto::chacha c;
    ASSERT_TRUE(c.init(key, nonce));
    ASSERT_TRUE(c.keystream(ref_stream));
  }
  for (std::size_t offset = 8; offset < 64; offset += 8) {
    alignas(64) unsigned char mac_space[sizeof(crypto::poly1305) + 128];
    auto* p = ::new (mac_space + offset) crypto::poly1305(std::span<const std::uint8_t, 32>(key.data(), 32));
    p->update(msg);
    std::array<std::uint8_t, 16> tag{};
    p->finish(tag);
    EXPECT_EQ(tag, ref_tag) << "poly1305 at offset " << offset;
    p->~poly1305();

    alignas(64) unsigned char stream_space[sizeof(crypto::chacha) + 128];
    auto* c = ::new (stream_space + offset) crypto::chacha;
    ASSERT_TRUE(c->init(key, nonce));
    bytes ks(msg.size());
    ASSERT_TRUE(c->keystream(ks));
    EXPECT_EQ(ks, ref_stream) << "chacha20 at offset " << offset;
    c->~chacha();
  }
}

TEST(AeadKeyMisuse, EmptyWrongAndMovedKeys) {
  crypto::aead_key empty;
  EXPECT_FALSE(empty.keyed());
  bytes out(32), nonce(12);
  EXPECT_EQ(empty.seal(out, bytes(4), {}, nonce).error(), crypto_errc::not_keyed);
  EXPECT_EQ(empty.open(out, bytes(20), {}, nonce).error(), crypto_errc::not_keyed);
  crypto::aead_sealer s;
  EXPECT_EQ(s.init(empty, nonce).error(), crypto_errc::not_keyed);
  crypto::aead_opener o;
  EXPECT_EQ(o.init(empty, nonce).error(), crypto_errc::not_keyed);

  EXPECT_EQ(crypto::aead_key::make(aead_algorithm::aes128_gcm, bytes(32)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(crypto::aead_key::make(aead_algorithm::chacha20_poly1305, bytes(16)).error(), crypto_errc::invalid_key);
  auto k = crypto::aead_key::make(aead_algorithm::aes256_gcm, bytes(32, 1)).value();
  EXPECT_EQ(k.seal(out, bytes(4), {}, bytes(11)).error(), crypto_errc::invalid_nonce);
  EXPECT_EQ(k.seal(std::span(out).first(19), bytes(4), {}, nonce).error(), crypto_errc::buffer_too_small);
  // A failed init leaves the object empty, not holding the old key.
  EXPECT_EQ(k.init(aead_algorithm::aes256_gcm, bytes(5)).error(), crypto_errc::invalid_key);
  EXPECT_FALSE(k.keyed());

  auto a = crypto::aead_key::make(aead_algorithm::chacha20_poly1305, bytes(32, 2)).value();
  crypto::aead_key b = std::move(a);
  EXPECT_FALSE(a.keyed());  // NOLINT(bugprone-use-after-move): moved-from keys are empty by contract
  EXPECT_TRUE(b.keyed());
  EXPECT_EQ(a.seal(out, bytes(4), {}, nonce).error(), crypto_errc::not_keyed);
  EXPECT_TRUE(b.seal(out, bytes(4), {}, nonce));
  b.wipe();
  EXPECT_FALSE(b.keyed());

  // Secretbox authenticates no associated data.
  auto sb = crypto::aead_key::make(aead_algorithm::xsalsa20_poly1305, bytes(32, 3)).value();
  EXPECT_EQ(sb.seal(out, bytes(4), associated_data(bytes(1)), bytes(24)).error(), crypto_errc::invalid_argument);
}

// One key object sealing from several threads at once (it is read-only
// after init); every output matches the one-shot function.
TEST(AeadKeyThreads, ConcurrentSealsShareOneKey) {
  const bytes key(16, 7);
  const auto k = crypto::aead_key::make(aead_algorithm::aes128_gcm, key).value();
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::uint64_t i = 0; i < 200; ++i) {
        const bytes nonce = nonce_for(aead_algorithm::aes128_gcm, static_cast<std::uint64_t>(t) * 1000 + i);
        const bytes pt(static_cast<std::size_t>(i * 5), static_cast<std::uint8_t>(t));
        bytes a(pt.size() + 16), b(pt.size() + 16);
        if (!k.seal(a, pt, {}, nonce) || !crypto::aead_seal(aead_algorithm::aes128_gcm, b, pt, {}, nonce, key) ||
            a != b)
          ++mismatches;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}
