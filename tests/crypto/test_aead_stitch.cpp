// SPDX-License-Identifier: Apache-2.0
// ChaCha20-Poly1305 around the stitched kernels' boundaries: the key block
// computed beside the first 1024 bytes, the 1024-byte steps that run the
// cipher and MAC together (sealer one step behind, opener in step, in place
// or not), and pieces that start off those boundaries, against libsodium at
// every CPU level, with tampering; and the opener in pieces of every length
// from 1 to 200 bytes, a TCP segment's 1448, either side of a step and random
// splits, against OpenSSL; and the sealer's two-part update; and all-0xff
// ciphertext over long messages (the MAC lanes' largest limbs).
#include <sealwire/crypto/aead.hpp>

#include "oracles.hpp"
#include "vectors.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

using namespace sealwire;
using crypto::aead_algorithm;
using sealwire::associated_data;
using crypto::tag_position;
using test::bytes;

namespace {

// Lengths on both sides of one, two and several 1024-byte steps, and with
// 1-64 bytes (3083, 3136: a sealer's first step computes the block they
// need) or 65 (3137) after the steps that follow the key block's 1024.
constexpr std::size_t stitch_lengths[] = {960, 1023, 1024, 1025, 2048, 2049, 3083, 3136, 3137, 5120};
// Associated data that leaves the MAC on and off its 128-byte lane groups.
constexpr std::size_t aad_lengths[] = {0, 13, 100, 128};

// reference seals with libsodium: ciphertext then tag.
bytes reference(aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad, const bytes& pt) {
  bytes out(pt.size() + 16);
  unsigned long long n = 0;
  if (alg == aead_algorithm::chacha20_poly1305) {
    crypto_aead_chacha20poly1305_ietf_encrypt(out.data(), &n, pt.data(), pt.size(), aad.data(), aad.size(), nullptr,
                                              nonce.data(), key.data());
  } else {
    crypto_aead_xchacha20poly1305_ietf_encrypt(out.data(), &n, pt.data(), pt.size(), aad.data(), aad.size(), nullptr,
                                               nonce.data(), key.data());
  }
  EXPECT_EQ(n, out.size());
  return out;
}

TEST(AeadStitch, OneShotMatchesLibsodiumInPlaceOrNotAndRejectsTampering) {
  ASSERT_GE(sodium_init(), 0);
  test::seeded_random rng(0x5717c4);
  test::at_every_level([&] {
    for (const auto alg : {aead_algorithm::chacha20_poly1305, aead_algorithm::xchacha20_poly1305}) {
      const auto& p = crypto::properties(alg);
      for (const std::size_t len : stitch_lengths) {
        for (const std::size_t aad_len : aad_lengths) {
          SCOPED_TRACE(testing::Message() << p.name << " length " << len << " aad " << aad_len);
          const bytes key = rng.fill(32), nonce = rng.fill(p.nonce_size), aad = rng.fill(aad_len);
          const bytes pt = rng.fill(len);
          const bytes ref = reference(alg, key, nonce, aad, pt);

          bytes sealed(len + 16);
          ASSERT_TRUE(crypto::aead_seal(alg, sealed, pt, associated_data(aad), nonce, key));
          ASSERT_EQ(sealed, ref);
          bytes in_place = pt;
          in_place.resize(len + 16);
          ASSERT_TRUE(crypto::aead_seal(alg, in_place, {in_place.data(), len}, associated_data(aad), nonce, key));
          ASSERT_EQ(in_place, ref);

          bytes opened(len);
          const auto n = crypto::aead_open(alg, opened, ref, associated_data(aad), nonce, key);
          ASSERT_TRUE(n);
          ASSERT_EQ(*n, len);
          ASSERT_EQ(opened, pt);
          bytes ct = ref;
          ASSERT_TRUE(crypto::aead_open_detached(alg, {ct.data(), len}, {ct.data(), len}, {ct.data() + len, 16},
                                                 associated_data(aad), nonce, key));
          ASSERT_TRUE(std::equal(pt.begin(), pt.end(), ct.begin()));

          // One flipped bit, in the first step, a later one, or the tag:
          // refused, and the output (in place too) is all zeros.
          for (const std::size_t at : {std::size_t{5}, len / 2 + 1030 * (len > 2048), len + 3}) {
            bytes bad = ref;
            bad[at % bad.size()] ^= 0x20;
            bytes out(len, 0xaa);
            EXPECT_FALSE(crypto::aead_open(alg, out, bad, associated_data(aad), nonce, key));
            EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0; }));
            EXPECT_FALSE(crypto::aead_open_detached(alg, {bad.data(), len}, {bad.data(), len},
                                                    {bad.data() + len, 16}, associated_data(aad), nonce, key));
            EXPECT_TRUE(std::all_of(bad.begin(), bad.begin() + static_cast<std::ptrdiff_t>(len),
                                    [](std::uint8_t b) { return b == 0; }));
          }
        }
      }
    }
  });
}

// Ciphertext of all-0xff bytes (the largest limbs a block can put in the
// MAC's lanes) over long messages, many stitched steps in a row, so that a
// limb bound the IFMA step gets wrong shows up as a wrong tag: seal (the
// plaintext is the keystream inverted) and open, one shot and in place,
// against libsodium at every CPU level.
TEST(AeadStitch, AllOnesCiphertextOverLongMessagesMatchesLibsodium) {
  ASSERT_GE(sodium_init(), 0);
  test::seeded_random rng(0xff0ff);
  const bytes key = rng.fill(32), nonce = rng.fill(12), aad = rng.fill(16);
  test::at_every_level([&] {
    for (const std::size_t len : {std::size_t{16384}, std::size_t{65536 + 100}, std::size_t{200000}}) {
      SCOPED_TRACE(testing::Message() << "length " << len);
      // The keystream (libsodium sealing zeros), inverted: it encrypts to 0xff.
      bytes pt = reference(aead_algorithm::chacha20_poly1305, key, nonce, aad, bytes(len, 0));
      pt.resize(len);
      for (auto& b : pt) b = static_cast<std::uint8_t>(~b);
      const bytes ref = reference(aead_algorithm::chacha20_poly1305, key, nonce, aad, pt);
      ASSERT_TRUE(std::all_of(ref.begin(), ref.begin() + static_cast<std::ptrdiff_t>(len),
                              [](std::uint8_t b) { return b == 0xff; }));
      bytes sealed(len + 16);
      ASSERT_TRUE(crypto::aead_seal(aead_algorithm::chacha20_poly1305, sealed, pt, associated_data(aad), nonce, key));
      ASSERT_EQ(sealed, ref);
      bytes opened(len);
      ASSERT_TRUE(crypto::aead_open(aead_algorithm::chacha20_poly1305, opened, ref, associated_data(aad), nonce, key));
      ASSERT_EQ(opened, pt);
      bytes ct = ref;
      ASSERT_TRUE(crypto::aead_open_detached(aead_algorithm::chacha20_poly1305, {ct.data(), len}, {ct.data(), len},
                                             {ct.data() + len, 16}, associated_data(aad), nonce, key));
      ASSERT_EQ(bytes(ct.begin(), ct.begin() + static_cast<std::ptrdiff_t>(len)), pt);
    }
  });
}

// Pieces that leave the cipher mid-block and the MAC off its lane groups
// before a run of whole steps, so that the stitched kernel must decline or
// pick up exactly where the drivers left off.
TEST(AeadStitch, PiecesOffTheStepBoundariesMatchLibsodium) {
  ASSERT_GE(sodium_init(), 0);
  test::seeded_random rng(0x5717c5);
  constexpr std::size_t splits[][3] = {{7, 2048 + 9, 4096}, {1024, 3000, 1}, {16, 128, 5000}, {2100, 2048, 64}};
  test::at_every_level([&] {
    for (const std::size_t aad_len : {std::size_t{13}, std::size_t{200}}) {
      for (const auto& split : splits) {
        const std::size_t len = 10000;
        SCOPED_TRACE(testing::Message() << "aad " << aad_len << " first piece " << split[0]);
        const bytes key = rng.fill(32), nonce = rng.fill(12), aad = rng.fill(aad_len), pt = rng.fill(len);
        const bytes ref = reference(aead_algorithm::chacha20_poly1305, key, nonce, aad, pt);

        crypto::aead_sealer s;
        ASSERT_TRUE(s.init(aead_algorithm::chacha20_poly1305, key, nonce));
        s.aad(aad);
        bytes sealed(len + 16);
        std::size_t at = 0;
        for (int i = 0; at < len; ++i) {
          const std::size_t piece = std::min(len - at, split[i % 3]);
          ASSERT_TRUE(s.update({sealed.data() + at, piece}, {pt.data() + at, piece}));
          at += piece;
        }
        s.finish(std::span<std::uint8_t, 16>(sealed.data() + len, 16));
        ASSERT_EQ(sealed, ref);

        for (const auto position : {tag_position::detached, tag_position::trailing}) {
          crypto::aead_opener o;
          ASSERT_TRUE(o.init(aead_algorithm::chacha20_poly1305, key, nonce, position));
          o.aad(aad);
          const std::size_t total = position == tag_position::detached ? len : len + 16;
          bytes in = ref, out(len + 16);
          std::size_t got = 0;
          at = 0;
          for (int i = 0; at < total; ++i) {
            const std::size_t piece = std::min(total - at, split[(i + 1) % 3]);
            // In place for the detached opener, apart for the trailing one.
            std::uint8_t* dst = position == tag_position::detached ? in.data() + at : out.data() + got;
            const auto n = o.update({dst, piece}, {in.data() + at, piece});
            ASSERT_TRUE(n);
            got += *n;
            at += piece;
          }
          if (position == tag_position::detached) {
            ASSERT_TRUE(o.finish({ref.data() + len, 16}));
            ASSERT_TRUE(std::equal(pt.begin(), pt.end(), in.begin()));
          } else {
            ASSERT_TRUE(o.finish());
            ASSERT_EQ(got, len);
            ASSERT_TRUE(std::equal(pt.begin(), pt.end(), out.begin()));
          }
        }
      }
    }
  });
}

// The sealer's two-part update (a record's content, then its trailer) equals
// one message sealed whole, with b in place after a or apart, a in place or
// apart: a spans whole steps with 0-65 bytes after them (b takes the last
// step's extra block when a's rest and b fit in one block) or none.
TEST(AeadStitch, SealerTwoPartUpdateMatchesLibsodium) {
  ASSERT_GE(sodium_init(), 0);
  test::seeded_random rng(0x5717c8);
  constexpr std::size_t a_lengths[] = {0, 100, 3072, 3080, 16384};
  constexpr std::size_t b_lengths[] = {0, 1, 56, 64, 65, 300};
  test::at_every_level([&] {
    for (const auto alg : {aead_algorithm::chacha20_poly1305, aead_algorithm::xchacha20_poly1305}) {
      const auto& p = crypto::properties(alg);
      for (const std::size_t an : a_lengths) {
        for (const std::size_t bn : b_lengths) {
          // a and b each in place at their position in out, or apart.
          for (const int placement : {0, 1, 2, 3}) {
            const bool a_in_place = (placement & 1) != 0, b_in_place = (placement & 2) != 0;
            SCOPED_TRACE(testing::Message() << p.name << " a " << an << " b " << bn << " in place " << a_in_place
                                            << b_in_place);
            const bytes key = rng.fill(32), nonce = rng.fill(p.nonce_size), aad = rng.fill(5);
            const bytes pt = rng.fill(an + bn);
            const bytes ref = reference(alg, key, nonce, aad, pt);
            crypto::aead_sealer s;
            ASSERT_TRUE(s.init(alg, key, nonce));
            s.aad(aad);
            bytes sealed(an + bn + 16, 0xaa);
            const bytes a(pt.begin(), pt.begin() + static_cast<std::ptrdiff_t>(an));
            const bytes b(pt.begin() + static_cast<std::ptrdiff_t>(an), pt.end());
            if (a_in_place) std::copy(a.begin(), a.end(), sealed.begin());
            if (b_in_place) std::copy(b.begin(), b.end(), sealed.begin() + static_cast<std::ptrdiff_t>(an));
            const bytes_view av = a_in_place ? bytes_view(sealed.data(), an) : bytes_view(a);
            const bytes_view bv = b_in_place ? bytes_view(sealed.data() + an, bn) : bytes_view(b);
            const auto n = s.update({sealed.data(), an + bn}, av, bv);
            ASSERT_TRUE(n);
            ASSERT_EQ(*n, an + bn);
            s.finish(std::span<std::uint8_t, 16>(sealed.data() + an + bn, 16));
            ASSERT_EQ(sealed, ref);
          }
        }
      }
    }
  });
  // A short output buffer changes nothing: the call can be repeated.
  crypto::aead_sealer s;
  const bytes key = rng.fill(32), nonce = rng.fill(12), pt = rng.fill(3073);
  ASSERT_TRUE(s.init(aead_algorithm::chacha20_poly1305, key, nonce));
  bytes sealed(pt.size() + 16);
  EXPECT_FALSE(s.update({sealed.data(), pt.size() - 1}, {pt.data(), 3072}, {pt.data() + 3072, 1}));
  ASSERT_TRUE(s.update({sealed.data(), pt.size()}, {pt.data(), 3072}, {pt.data() + 3072, 1}));
  s.finish(std::span<std::uint8_t, 16>(sealed.data() + pt.size(), 16));
  EXPECT_EQ(sealed, reference(aead_algorithm::chacha20_poly1305, key, nonce, {}, pt));
}

// open_in_pieces opens `sealed` (ct || tag) in the given pieces: the
// detached opener in place or apart, the trailing one apart (its held-back
// bytes take the other paths). It reports finish's verdict; the plaintext
// goes to `pt`.
bool open_in_pieces(const bytes& key, const bytes& nonce, const bytes& aad, const bytes& sealed,
                    const std::vector<std::size_t>& pieces, tag_position position, bool in_place, bytes& pt) {
  const std::size_t len = sealed.size() - 16;
  crypto::aead_opener o;
  EXPECT_TRUE(o.init(aead_algorithm::chacha20_poly1305, key, nonce, position));
  o.aad(aad);
  bytes in = sealed, out(sealed.size());
  const std::size_t total = position == tag_position::detached ? len : sealed.size();
  std::size_t at = 0, got = 0;
  for (std::size_t i = 0; at < total; ++i) {
    const std::size_t piece = std::min(total - at, pieces[i % pieces.size()]);
    std::uint8_t* dst = in_place ? in.data() + at : out.data() + got;
    const auto n = o.update({dst, piece}, {in.data() + at, piece});
    EXPECT_TRUE(n);
    if (!n) return false;
    if (in_place) {
      EXPECT_EQ(*n, piece);  // in place, the output must keep pace with the input
    }
    got += *n;
    at += piece;
  }
  EXPECT_EQ(got, len);
  const bool ok = position == tag_position::detached ? static_cast<bool>(o.finish({in.data() + len, 16}))
                                                     : static_cast<bool>(o.finish());
  const bytes& src = in_place ? in : out;
  pt.assign(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(len));
  return ok;
}

// The opener fed pieces that start anywhere in a keystream block and a MAC
// block: every piece length from 1 to 200 (at the best level; a sample at
// the others), stitch_lengths around a step and a TCP segment's 1448, and random
// splits; associated data that leaves the MAC at or off a cipher block's
// alignment (600 bytes); in place and apart. Each opening equals OpenSSL's
// plaintext, and a flipped tag bit is refused.
TEST(AeadStitch, OpenerPiecesOfEveryLengthMatchOpenSSL) {
  test::seeded_random rng(0x5717c6);
  constexpr std::size_t len = 4000;
  const std::size_t levels = test::cpu_levels().size();
  std::size_t level = 0;
  test::at_every_level([&] {
    const bool best = ++level == levels;
    std::vector<std::vector<std::size_t>> splits;
    for (std::size_t p = 1; p <= 200; ++p)
      if (best || p % 23 == 0) splits.push_back({p});
    for (const std::size_t p : {255, 256, 257, 300, 383, 1000, 1023, 1024, 1025, 1448, 2047, 2049})
      splits.push_back({p});
    for (int r = 0; r < 6; ++r) {
      std::vector<std::size_t> v;  // pieces of 1 to 1600 bytes, small ones between
      for (int i = 0; i < 24; ++i) v.push_back(rng.uniform(4) == 0 ? 1 + rng.uniform(40) : 1 + rng.uniform(1600));
      splits.push_back(v);
    }
    for (const std::size_t aad_len : {std::size_t{13}, std::size_t{600}}) {
      const bytes key = rng.fill(32), nonce = rng.fill(12), aad = rng.fill(aad_len), pt = rng.fill(len);
      const auto sealed = test::oracle::evp_aead_seal("ChaCha20-Poly1305", key, nonce, aad, pt);
      ASSERT_TRUE(sealed);
      bytes one_shot(len);
      ASSERT_TRUE(crypto::aead_open(aead_algorithm::chacha20_poly1305, one_shot, *sealed, associated_data(aad),
                                    nonce, key));
      ASSERT_EQ(one_shot, pt);
      for (std::size_t i = 0; i < splits.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "aad " << aad_len << " split " << i << " first piece " << splits[i][0]);
        bytes got;
        // Pieces of 1 to 200 bytes alternate in place and apart; the longer
        // and the random splits (whole steps in a piece) run both ways.
        const bool both_ways = splits[i].size() > 1 || splits[i][0] > 200;
        for (const bool in_place : {i % 2 == 0, i % 2 != 0}) {
          if (in_place != (i % 2 == 0) && !both_ways) continue;
          EXPECT_TRUE(open_in_pieces(key, nonce, aad, *sealed, splits[i], tag_position::detached, in_place, got))
              << (in_place ? "in place" : "apart");
          EXPECT_EQ(got, pt) << (in_place ? "in place" : "apart");
        }
        EXPECT_TRUE(open_in_pieces(key, nonce, aad, *sealed, splits[i], tag_position::trailing, false, got));
        EXPECT_EQ(got, pt);
        if (i % 4 == 0 || splits[i].size() > 1) {
          bytes bad = *sealed;
          bad[len + rng.uniform(16)] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
          EXPECT_FALSE(open_in_pieces(key, nonce, aad, bad, splits[i], tag_position::detached, i % 2 != 0, got));
          EXPECT_FALSE(open_in_pieces(key, nonce, aad, bad, splits[i], tag_position::trailing, false, got));
        }
      }
    }
  });
}

// The opener stages the ciphertext of small pieces (and the MAC's tail of
// a larger one) until its next keystream refill. A long message in runs of
// small pieces between large ones (a stage that fills past ten groups
// before a refill, a large piece that takes a staged head, pieces of one
// byte), the opener moved to a new object every few pieces, in place and
// apart, both tag positions: each equals OpenSSL's plaintext, and one
// flipped ciphertext bit anywhere in the text is refused.
TEST(AeadStitch, StagedMacSurvivesMovesAndMixedPieces) {
  test::seeded_random rng(0x57a9e);
  constexpr std::size_t len = 20000;
  const std::vector<std::size_t> schedule = {1500, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50,
                                             50,   50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50,
                                             300,  7,  2000, 100, 100, 100, 100, 100, 100, 100, 100, 100,
                                             100,  100, 100, 1448, 1, 255, 256, 17, 3000, 200, 200};
  test::at_every_level([&] {
    const bytes key = rng.fill(32), nonce = rng.fill(12), aad = rng.fill(13), pt = rng.fill(len);
    const auto sealed = test::oracle::evp_aead_seal("ChaCha20-Poly1305", key, nonce, aad, pt);
    ASSERT_TRUE(sealed);
    const auto open_moving = [&](const bytes& input, tag_position position, bool in_place, bytes& got) {
      auto o = std::make_unique<crypto::aead_opener>();
      EXPECT_TRUE(o->init(aead_algorithm::chacha20_poly1305, key, nonce, position));
      o->aad(aad);
      bytes in = input, out(input.size());
      const std::size_t total = position == tag_position::detached ? len : input.size();
      std::size_t at = 0, done = 0;
      for (std::size_t i = 0; at < total; ++i) {
        if (i % 5 == 4) o = std::make_unique<crypto::aead_opener>(std::move(*o));  // the old one is wiped
        const std::size_t piece = std::min(total - at, schedule[i % schedule.size()]);
        std::uint8_t* dst = in_place ? in.data() + at : out.data() + done;
        const auto n = o->update({dst, piece}, {in.data() + at, piece});
        if (!n) return false;
        done += *n;
        at += piece;
      }
      EXPECT_EQ(done, len);
      const bool ok = position == tag_position::detached ? static_cast<bool>(o->finish({in.data() + len, 16}))
                                                         : static_cast<bool>(o->finish());
      const bytes& src = in_place && position == tag_position::detached ? in : out;
      got.assign(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(len));
      return ok;
    };
    for (const bool in_place : {false, true}) {
      bytes got;
      EXPECT_TRUE(open_moving(*sealed, tag_position::detached, in_place, got)) << in_place;
      EXPECT_EQ(got, pt) << in_place;
    }
    bytes got;
    EXPECT_TRUE(open_moving(*sealed, tag_position::trailing, false, got));
    EXPECT_EQ(got, pt);
    for (int t = 0; t < 4; ++t) {
      bytes bad = *sealed;
      bad[rng.uniform(len)] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
      EXPECT_FALSE(open_moving(bad, tag_position::detached, t % 2 == 0, got));
      EXPECT_FALSE(open_moving(bad, tag_position::trailing, false, got));
    }
    // Flips in the staged 50-byte pieces that the 300-byte piece's refill
    // step takes as its head of groups (2950-2999), and in that piece's own
    // head, which completes the last staged group (3000-3055). Only the
    // pieces opened apart take that path: in place, the head is flushed first.
    for (const std::size_t at : {std::size_t{2951}, std::size_t{2999}, std::size_t{3000}, std::size_t{3030}}) {
      bytes bad = *sealed;
      bad[at] ^= 0x10;
      EXPECT_FALSE(open_moving(bad, tag_position::detached, at % 2 == 0, got)) << at;
      EXPECT_FALSE(open_moving(bad, tag_position::trailing, false, got)) << at;
    }
  });
}

// Empty pieces (null pointers, and empty views into the message) between
// small staged pieces change nothing, in both tag positions; a flipped bit
// in the bytes the stage holds until finish (the last 1408 of the text, the
// last one of all) still fails the tag.
TEST(AeadStitch, EmptyPiecesAndTheLastStagedBytesAreSafe) {
  test::seeded_random rng(0xe4471);
  constexpr std::size_t len = 3000;
  const std::size_t pieces[] = {200, 0, 100, 0, 0, 1448, 0, 60, 0};
  test::at_every_level([&] {
    const bytes key = rng.fill(32), nonce = rng.fill(12), aad = rng.fill(7), pt = rng.fill(len);
    const auto sealed = test::oracle::evp_aead_seal("ChaCha20-Poly1305", key, nonce, aad, pt);
    ASSERT_TRUE(sealed);
    const auto open = [&](const bytes& input, tag_position position, bytes& got) {
      crypto::aead_opener o;
      EXPECT_TRUE(o.init(aead_algorithm::chacha20_poly1305, key, nonce, position));
      o.aad(aad);
      got.assign(input.size(), 0);
      const std::size_t total = position == tag_position::detached ? len : input.size();
      std::size_t at = 0, done = 0;
      for (std::size_t i = 0; at < total; ++i) {
        const std::size_t piece = std::min(total - at, pieces[i % std::size(pieces)]);
        const auto n = piece == 0 && i % 2 == 0
                           ? o.update({}, std::span<const std::uint8_t>{})
                           : o.update({got.data() + done, got.size() - done}, {input.data() + at, piece});
        if (!n) return false;
        done += *n;
        at += piece;
      }
      EXPECT_EQ(done, len);
      got.resize(len);
      return position == tag_position::detached ? static_cast<bool>(o.finish({input.data() + len, 16}))
                                                : static_cast<bool>(o.finish());
    };
    for (const auto position : {tag_position::detached, tag_position::trailing}) {
      bytes got;
      EXPECT_TRUE(open(*sealed, position, got));
      EXPECT_EQ(got, pt);
      for (const std::size_t at : {len - 1, len - 700, len - 1400}) {
        bytes bad = *sealed;
        bad[at] ^= 0x10;
        EXPECT_FALSE(open(bad, position, got)) << at;
      }
    }
  });
}

}  // namespace
