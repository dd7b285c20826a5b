// SPDX-License-Identifier: Apache-2.0
// The incremental sealer and opener: every split, both tag positions,
// in-place operation, bit flips, buffer errors, failure states and misuse.
#include <sealwire/crypto/aead.hpp>

#include "aead_helpers.hpp"
#include "detail/aead_core.hpp"
#include "vectors.hpp"

#include <cstring>
#include <functional>
#include <new>
#include <unordered_map>

namespace sealwire::crypto::detail {
// Test hook: move an opener or sealer close to its message limit.
struct aead_test_access {
  static void set_text_len(aead_opener& o, std::uint64_t n) { o.st().core.text_len = n; }
  static void set_text_len(aead_sealer& s, std::uint64_t n) { s.core().text_len = n; }
};
}  // namespace sealwire::crypto::detail

using namespace sealwire;
using crypto::aead_algorithm;
using crypto::tag_position;
using test::bytes;

namespace {

// Message lengths around the 16-byte MAC block, the 64-byte cipher block and
// the 16-byte held-back tag.
constexpr std::size_t lengths[] = {0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 79, 80, 127, 128, 129, 255, 256, 513, 1000};

struct setup {
  aead_algorithm alg;
  bytes key, nonce, aad;
};

setup make_setup(aead_algorithm alg, test::seeded_random& rng) {
  const auto& p = crypto::properties(alg);
  return {alg, rng.fill(p.key_size), rng.fill(p.nonce_size), p.supports_aad ? rng.fill(1 + rng.uniform(40)) : bytes{}};
}

struct sealed {
  bytes ct, tag;
};

sealed reference(const setup& s, const bytes& pt) {
  sealed r{bytes(pt.size()), bytes(16)};
  EXPECT_TRUE(crypto::aead_seal_detached(s.alg, r.ct, std::span<std::uint8_t, 16>(r.tag.data(), 16), pt, associated_data(s.aad),
                                         s.nonce, s.key));
  return r;
}

using splitter = std::function<std::vector<std::size_t>(std::size_t)>;

splitter fixed(std::size_t piece) {
  return [piece](std::size_t n) {
    std::vector<std::size_t> v;
    for (std::size_t done = 0; done < n; done += piece) v.push_back(std::min(piece, n - done));
    return v;
  };
}

splitter random_split(test::seeded_random& rng) {
  return [&rng](std::size_t n) {
    std::vector<std::size_t> v;
    std::size_t done = 0;
    while (done < n) {
      std::size_t p = rng.uniform(3) == 0 ? 1 : rng.uniform(100);  // singles, and empty pieces too
      p = std::min(p, n - done);
      v.push_back(p);
      done += p;
    }
    return v;
  };
}

void feed_aad(auto& machine, const bytes& aad) {
  const std::size_t half = aad.size() / 2;
  machine.aad(std::span(aad).first(half));
  machine.aad(std::span(aad).subspan(half));
}

sealed seal_pieces(const setup& s, const bytes& pt, const std::vector<std::size_t>& pieces) {
  crypto::aead_sealer sealer;
  EXPECT_TRUE(sealer.init(s.alg, s.key, s.nonce));
  feed_aad(sealer, s.aad);
  sealed r{bytes(pt.size()), bytes(16)};
  std::size_t pos = 0;
  for (std::size_t p : pieces) {
    const auto w = sealer.update(std::span(r.ct).subspan(pos, p), std::span(pt).subspan(pos, p));
    EXPECT_TRUE(w);
    EXPECT_EQ(*w, crypto::aead_sealer::output_size(p));
    pos += p;
  }
  sealer.finish(std::span<std::uint8_t, 16>(r.tag.data(), 16));
  return r;
}

// open_pieces decrypts `input` given in pieces and returns the plaintext and
// finish's verdict. For the trailing position input is ct || tag; each call
// gets an output buffer of exactly output_size() bytes.
std::pair<bytes, result<void>> open_pieces(const setup& s, tag_position pos, const bytes& input, const bytes& tag,
                                           const std::vector<std::size_t>& pieces) {
  crypto::aead_opener opener;
  EXPECT_TRUE(opener.init(s.alg, s.key, s.nonce, pos));
  feed_aad(opener, s.aad);
  bytes out;
  std::size_t at = 0;
  for (std::size_t p : pieces) {
    const std::size_t expect = opener.output_size(p);
    bytes chunk(expect);
    const auto w = opener.update(chunk, std::span(input).subspan(at, p));
    EXPECT_TRUE(w);
    EXPECT_EQ(*w, expect);
    out.insert(out.end(), chunk.begin(), chunk.end());
    at += p;
  }
  result<void> verdict = pos == tag_position::detached ? opener.finish(tag) : opener.finish();
  return {out, verdict};
}

bytes with_tag(const sealed& s) {
  bytes v = s.ct;
  v.insert(v.end(), s.tag.begin(), s.tag.end());
  return v;
}

class AeadStream : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(AeadStream);

}  // namespace

TEST_P(AeadStream, EverySplitBothPositions) {
  test::seeded_random rng(2024);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    for (std::size_t len : lengths) {
      const setup s = make_setup(alg, rng);
      const bytes pt = rng.fill(len);
      const sealed want = reference(s, pt);
      const bytes stream = with_tag(want);
      std::vector<splitter> splits;
      for (std::size_t piece = 1; piece <= 161; ++piece) splits.push_back(fixed(piece));
      for (int i = 0; i < 50; ++i) splits.push_back(random_split(rng));
      for (const auto& split : splits) {
        const sealed got = seal_pieces(s, pt, split(len));
        ASSERT_EQ(got.ct, want.ct) << crypto::properties(alg).name << " len " << len;
        ASSERT_EQ(got.tag, want.tag);
        const auto [pt_detached, ok_detached] = open_pieces(s, tag_position::detached, want.ct, want.tag, split(len));
        ASSERT_TRUE(ok_detached) << crypto::properties(alg).name << " len " << len;
        ASSERT_EQ(pt_detached, pt);
        const auto [pt_trailing, ok_trailing] = open_pieces(s, tag_position::trailing, stream, {}, split(stream.size()));
        ASSERT_TRUE(ok_trailing) << crypto::properties(alg).name << " len " << len;
        ASSERT_EQ(pt_trailing, pt);
      }
    }
  }
}

TEST_P(AeadStream, InPlaceEverywhere) {
  test::seeded_random rng(7);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    for (std::size_t len : {0u, 5u, 64u, 100u, 1000u, 5000u}) {
      const setup s = make_setup(alg, rng);
      const bytes pt = rng.fill(len);
      const sealed want = reference(s, pt);
      for (int trial = 0; trial < 10; ++trial) {
        const auto pieces = random_split(rng)(len);
        // sealer in place
        crypto::aead_sealer sealer;
        ASSERT_TRUE(sealer.init(alg, s.key, s.nonce));
        sealer.aad(s.aad);
        bytes buf = pt;
        std::size_t at = 0;
        for (std::size_t p : pieces) {
          ASSERT_TRUE(sealer.update(std::span(buf).subspan(at, p), std::span(buf).subspan(at, p)));
          at += p;
        }
        bytes tag(16);
        sealer.finish(std::span<std::uint8_t, 16>(tag.data(), 16));
        ASSERT_EQ(buf, want.ct);
        ASSERT_EQ(tag, want.tag);
        // detached opener in place
        crypto::aead_opener opener;
        ASSERT_TRUE(opener.init(alg, s.key, s.nonce));
        opener.aad(s.aad);
        at = 0;
        for (std::size_t p : pieces) {
          ASSERT_TRUE(opener.update(std::span(buf).subspan(at, p), std::span(buf).subspan(at, p)));
          at += p;
        }
        ASSERT_TRUE(opener.finish(tag));
        ASSERT_EQ(buf, pt);
      }
      // trailing opener in place: each piece is decrypted where it lies and the
      // plaintext lands at the piece's start.
      const bytes stream = with_tag(want);
      for (int trial = 0; trial < 10; ++trial) {
        crypto::aead_opener opener;
        ASSERT_TRUE(opener.init(alg, s.key, s.nonce, tag_position::trailing));
        opener.aad(s.aad);
        bytes out;
        std::size_t at = 0;
        for (std::size_t p : random_split(rng)(stream.size())) {
          bytes piece(stream.begin() + static_cast<long>(at), stream.begin() + static_cast<long>(at + p));
          const std::size_t expect = opener.output_size(p);
          const auto w = opener.update(piece, piece);
          ASSERT_TRUE(w);
          ASSERT_EQ(*w, expect);
          out.insert(out.end(), piece.begin(), piece.begin() + static_cast<long>(expect));
          at += p;
        }
        ASSERT_TRUE(opener.finish());
        ASSERT_EQ(out, pt);
      }
      // one-shot in place, in the attached layout
      const bool tag_first = crypto::properties(alg).tag_first;
      bytes buf(len + 16);
      std::copy(pt.begin(), pt.end(), buf.begin() + (tag_first ? 16 : 0));
      const auto sealed_n = crypto::aead_seal(alg, buf, std::span(buf).subspan(tag_first ? 16 : 0, len), associated_data(s.aad), s.nonce, s.key);
      ASSERT_TRUE(sealed_n);
      const auto opened_n = crypto::aead_open(alg, std::span(buf).subspan(tag_first ? 16 : 0, len), buf, associated_data(s.aad), s.nonce, s.key);
      ASSERT_TRUE(opened_n);
      ASSERT_EQ(bytes(buf.begin() + (tag_first ? 16 : 0), buf.begin() + (tag_first ? 16 : 0) + static_cast<long>(len)), pt);
    }
  }
}

TEST_P(AeadStream, EveryBitFlipIsRejectedAndReleasesNothing) {
  test::seeded_random rng(31);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const setup s = make_setup(alg, rng);
    const bytes pt = rng.fill(70);
    const sealed want = reference(s, pt);
    const bool tag_first = crypto::properties(alg).tag_first;
    bytes attached(pt.size() + 16);
    ASSERT_TRUE(crypto::aead_seal(alg, attached, pt, associated_data(s.aad), s.nonce, s.key));

    auto expect_rejected = [&](const bytes& input, const bytes& aad, const char* what, std::size_t bit) {
      bytes out(pt.size(), 0xcc);
      const auto r = crypto::aead_open(alg, out, input, associated_data(aad), s.nonce, s.key);
      ASSERT_EQ(r.error(), crypto_errc::authentication_failed) << what << " bit " << bit;
      // The output the text would have occupied is wiped; nothing else is touched.
      const std::size_t n = input.size() - 16;
      ASSERT_EQ(bytes(out.begin(), out.begin() + static_cast<long>(n)), bytes(n, 0)) << "output must be wiped";
      ASSERT_EQ(bytes(out.begin() + static_cast<long>(n), out.end()), bytes(pt.size() - n, 0xcc));
      // The incremental opener in the trailing position reaches the same verdict.
      crypto::aead_opener o;
      ASSERT_TRUE(o.init(alg, s.key, s.nonce, tag_position::trailing));
      o.aad(aad);
      bytes scratch(input.size());
      const bytes stream = tag_first ? bytes{} : input;
      if (!tag_first) {
        ASSERT_TRUE(o.update(scratch, stream));
        ASSERT_EQ(o.finish().error(), crypto_errc::authentication_failed) << what << " bit " << bit;
      }
    };
    for (std::size_t bit = 0; bit < attached.size() * 8; ++bit) {
      bytes bad = attached;
      bad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      expect_rejected(bad, s.aad, "text or tag", bit);
    }
    for (std::size_t bit = 0; bit < s.aad.size() * 8; ++bit) {
      bytes bad_aad = s.aad;
      bad_aad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      expect_rejected(attached, bad_aad, "aad", bit);
    }
    // Truncated or extended inputs fail too.
    expect_rejected(bytes(attached.begin(), attached.end() - 1), s.aad, "truncated", 0);
    bytes longer = attached;
    longer.push_back(0);
    bytes out(longer.size());
    EXPECT_EQ(crypto::aead_open(alg, out, longer, associated_data(s.aad), s.nonce, s.key).error(), crypto_errc::authentication_failed);
  }
}

TEST_P(AeadStream, ShortOutputBufferMidStreamThenContinue) {
  test::seeded_random rng(55);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const setup s = make_setup(alg, rng);
    const bytes pt = rng.fill(300);
    const sealed want = reference(s, pt);
    const bytes stream = with_tag(want);
    for (tag_position pos : {tag_position::detached, tag_position::trailing}) {
      const bytes& input = pos == tag_position::detached ? want.ct : stream;
      crypto::aead_opener o;
      ASSERT_TRUE(o.init(alg, s.key, s.nonce, pos));
      o.aad(s.aad);
      bytes out;
      std::size_t at = 0;
      while (at < input.size()) {
        const std::size_t p = std::min<std::size_t>(37, input.size() - at);
        const auto in = std::span(input).subspan(at, p);
        const std::size_t need = o.output_size(p);
        if (need > 0) {
          bytes small(need - 1);
          ASSERT_EQ(o.update(small, in).error(), crypto_errc::buffer_too_small);
          ASSERT_EQ(o.output_size(p), need) << "a refused call must not change the state";
        }
        bytes chunk(need + 5);  // larger than needed is fine
        const auto w = o.update(chunk, in);
        ASSERT_TRUE(w);
        ASSERT_EQ(*w, need);
        out.insert(out.end(), chunk.begin(), chunk.begin() + static_cast<long>(need));
        at += p;
      }
      ASSERT_TRUE(pos == tag_position::detached ? o.finish(want.tag) : o.finish());
      ASSERT_EQ(out, pt);
    }
    crypto::aead_sealer sealer;
    ASSERT_TRUE(sealer.init(alg, s.key, s.nonce));
    sealer.aad(s.aad);
    bytes ct(pt.size());
    bytes small(10);
    ASSERT_EQ(sealer.update(small, std::span(pt).first(11)).error(), crypto_errc::buffer_too_small);
    ASSERT_TRUE(sealer.update(ct, pt));
    bytes tag(16);
    sealer.finish(std::span<std::uint8_t, 16>(tag.data(), 16));
    EXPECT_EQ(ct, want.ct);
    EXPECT_EQ(tag, want.tag);
  }
}

TEST_P(AeadStream, FailureIsStickyAndWipes) {
  test::seeded_random rng(66);
  const setup s = make_setup(aead_algorithm::chacha20_poly1305, rng);
  const bytes pt = rng.fill(50);
  sealed want = reference(s, pt);
  want.tag[3] ^= 1;
  crypto::aead_opener o;
  ASSERT_TRUE(o.init(s.alg, s.key, s.nonce));
  o.aad(s.aad);
  bytes out(50);
  ASSERT_TRUE(o.update(out, want.ct));
  EXPECT_EQ(o.finish(want.tag).error(), crypto_errc::authentication_failed);
  EXPECT_EQ(o.update(out, want.ct).error(), crypto_errc::authentication_failed);
  EXPECT_EQ(o.finish(want.tag).error(), crypto_errc::authentication_failed);
  // init starts afresh
  want.tag[3] ^= 1;
  ASSERT_TRUE(o.init(s.alg, s.key, s.nonce));
  o.aad(s.aad);
  ASSERT_TRUE(o.update(out, want.ct));
  EXPECT_TRUE(o.finish(want.tag));
  EXPECT_EQ(out, pt);

  // A trailing stream shorter than a tag cannot be authentic.
  crypto::aead_opener t;
  ASSERT_TRUE(t.init(s.alg, s.key, s.nonce, tag_position::trailing));
  bytes none;
  ASSERT_TRUE(t.update(none, bytes(15, 0)));
  EXPECT_EQ(t.finish().error(), crypto_errc::authentication_failed);
}

TEST_P(AeadStream, MessageLimitIsAnErrorForTheOpener) {
  test::seeded_random rng(67);
  for (aead_algorithm alg : {aead_algorithm::chacha20_poly1305, aead_algorithm::xchacha20_poly1305,
                             aead_algorithm::aes128_gcm, aead_algorithm::aes256_gcm}) {
    const setup s = make_setup(alg, rng);
    const std::uint64_t max = crypto::properties(alg).max_message_size;
    crypto::aead_opener o;
    ASSERT_TRUE(o.init(alg, s.key, s.nonce));
    crypto::detail::aead_test_access::set_text_len(o, max - 10);
    bytes out(11);
    ASSERT_TRUE(o.update(std::span(out).first(10), bytes(10, 0)));  // exactly up to the limit
    EXPECT_EQ(o.update(std::span(out).first(1), bytes(1, 0)).error(), crypto_errc::message_too_long);
    EXPECT_EQ(o.finish(bytes(16, 0)).error(), crypto_errc::message_too_long) << "the failure is sticky";
  }
}

// ---- misuse is a contract failure ----

TEST(AeadContracts, WrongCallOrderAborts) {
  const bytes key(32, 1), nonce(12, 2);
  bytes buf(32);
  EXPECT_DEATH(
      {
        crypto::aead_sealer s;
        (void)s.update(buf, buf);
      },
      "contract violated");
  EXPECT_DEATH(
      {
        crypto::aead_sealer s;
        (void)s.init(aead_algorithm::chacha20_poly1305, key, nonce);
        (void)s.update(buf, buf);
        s.aad(buf);
      },
      "contract violated");
  EXPECT_DEATH(
      {
        crypto::aead_sealer s;
        (void)s.init(aead_algorithm::chacha20_poly1305, key, nonce);
        std::uint8_t tag[16];
        s.finish(tag);
        s.finish(tag);
      },
      "contract violated");
  EXPECT_DEATH(
      {
        crypto::aead_sealer s;
        (void)s.init(aead_algorithm::xsalsa20_poly1305, key, bytes(24, 0));
        s.aad(buf);
      },
      "contract violated");
  EXPECT_DEATH(
      {
        crypto::aead_opener o;
        (void)o.init(aead_algorithm::chacha20_poly1305, key, nonce);
        (void)o.finish();  // trailing finish on a detached opener
      },
      "contract violated");
  EXPECT_DEATH(
      {
        crypto::aead_sealer s;
        (void)s.init(aead_algorithm::chacha20_poly1305, key, nonce);
        crypto::detail::aead_test_access::set_text_len(s, crypto::properties(aead_algorithm::chacha20_poly1305).max_message_size);
        (void)s.update(std::span(buf).first(1), std::span(buf).first(1));
      },
      "contract violated");
}

TEST(AeadContracts, OpenerAfterSuccessAborts) {
  test::seeded_random rng(9);
  const setup s = make_setup(aead_algorithm::chacha20_poly1305, rng);
  const sealed want = reference(s, bytes(3, 1));
  EXPECT_DEATH(
      {
        crypto::aead_opener o;
        (void)o.init(s.alg, s.key, s.nonce);
        o.aad(s.aad);
        bytes out(3);
        (void)o.update(out, want.ct);
        (void)o.finish(want.tag);
        (void)o.update(out, want.ct);
      },
      "contract violated");
}

TEST(AeadMove, MovedSealerContinuesAndSourceIsWiped) {
  test::seeded_random rng(10);
  const setup s = make_setup(aead_algorithm::xchacha20_poly1305, rng);
  const bytes pt = rng.fill(200);
  const sealed want = reference(s, pt);
  crypto::xchacha20_poly1305::sealer a;
  a.init(std::span<const std::uint8_t, 32>(s.key.data(), 32), std::span<const std::uint8_t, 24>(s.nonce.data(), 24));
  a.aad(s.aad);
  bytes ct(200);
  ASSERT_TRUE(a.update(std::span(ct).first(77), std::span(pt).first(77)));
  crypto::aead_sealer b(std::move(a));
  ASSERT_TRUE(b.update(std::span(ct).subspan(77), std::span(pt).subspan(77)));
  bytes tag(16);
  b.finish(std::span<std::uint8_t, 16>(tag.data(), 16));
  EXPECT_EQ(ct, want.ct);
  EXPECT_EQ(tag, want.tag);
  EXPECT_DEATH((void)a.update(ct, pt), "contract violated");  // NOLINT(bugprone-use-after-move)
}

// ---- negative cases: tag lengths, nonce and key bits ----

// A detached tag that is not 16 bytes long fails authentication: empty, the
// right tag's first 15 bytes, and the right tag with one byte appended. The
// failure is sticky and the right 16 bytes open the same message (so each
// refusal is about the length).
TEST_P(AeadStream, OpenerFinishRefusesTagsOfTheWrongLength) {
  test::seeded_random rng(68);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const setup s = make_setup(alg, rng);
    const bytes pt = rng.fill(45);
    const sealed want = reference(s, pt);
    bytes longer = want.tag;
    longer.push_back(0);
    const bytes prefix(want.tag.begin(), want.tag.end() - 1);
    for (const bytes& tag : {bytes{}, prefix, longer}) {
      SCOPED_TRACE(std::string(crypto::properties(alg).name) + " tag of " + std::to_string(tag.size()) + " bytes");
      crypto::aead_opener o;
      ASSERT_TRUE(o.init(alg, s.key, s.nonce));
      o.aad(s.aad);
      bytes out(pt.size());
      ASSERT_TRUE(o.update(out, want.ct));
      EXPECT_EQ(o.finish(tag).error(), crypto_errc::authentication_failed);
      EXPECT_EQ(o.finish(want.tag).error(), crypto_errc::authentication_failed) << "the failure is sticky";
      EXPECT_EQ(o.update(out, want.ct).error(), crypto_errc::authentication_failed);
      // The one-shot detached open and a keyed object refuse the same length
      // and release nothing.
      bytes one_shot(pt.size(), 0xcc);
      EXPECT_EQ(crypto::aead_open_detached(alg, one_shot, want.ct, tag, associated_data(s.aad), s.nonce, s.key).error(),
                crypto_errc::authentication_failed);
      EXPECT_EQ(one_shot, bytes(pt.size(), 0));
      auto key = crypto::aead_key::make(alg, s.key);
      ASSERT_TRUE(key);
      EXPECT_EQ(key->open_detached(one_shot, want.ct, tag, associated_data(s.aad), s.nonce).error(),
                crypto_errc::authentication_failed);
    }
    crypto::aead_opener good;
    ASSERT_TRUE(good.init(alg, s.key, s.nonce));
    good.aad(s.aad);
    bytes out(pt.size());
    ASSERT_TRUE(good.update(out, want.ct));
    EXPECT_TRUE(good.finish(want.tag));
    EXPECT_EQ(out, pt);
  }
}

// Opening under a nonce or a key that differs from the sealer's in a single
// bit fails, for every bit, one-shot and incrementally; the one-shot output
// is wiped.
TEST_P(AeadStream, EveryFlippedNonceOrKeyBitFailsToOpen) {
  test::seeded_random rng(69);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const setup s = make_setup(alg, rng);
    const bytes pt = rng.fill(33);
    const sealed want = reference(s, pt);
    auto expect_refused = [&](const bytes& key, const bytes& nonce, const char* what, std::size_t bit) {
      bytes out(pt.size(), 0xcc);
      EXPECT_EQ(crypto::aead_open_detached(alg, out, want.ct, want.tag, associated_data(s.aad), nonce, key).error(),
                crypto_errc::authentication_failed)
          << crypto::properties(alg).name << " " << what << " bit " << bit;
      EXPECT_EQ(out, bytes(pt.size(), 0)) << "a failed open releases nothing";
      crypto::aead_opener o;
      ASSERT_TRUE(o.init(alg, key, nonce));
      o.aad(s.aad);
      ASSERT_TRUE(o.update(out, want.ct));
      EXPECT_EQ(o.finish(want.tag).error(), crypto_errc::authentication_failed)
          << crypto::properties(alg).name << " incremental, " << what << " bit " << bit;
    };
    for (std::size_t bit = 0; bit < s.nonce.size() * 8; ++bit) {
      bytes nonce = s.nonce;
      nonce[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      expect_refused(s.key, nonce, "nonce", bit);
    }
    for (std::size_t bit = 0; bit < s.key.size() * 8; ++bit) {
      bytes key = s.key;
      key[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      expect_refused(key, s.nonce, "key", bit);
    }
    // The unaltered key and nonce open it (the refusals above are the flips').
    bytes out(pt.size());
    ASSERT_TRUE(crypto::aead_open_detached(alg, out, want.ct, want.tag, associated_data(s.aad), s.nonce, s.key));
    EXPECT_EQ(out, pt);
  }
}

// Associated data after the opener has started on the text is a contract
// failure, in both tag positions, including a trailing-tag update that
// released nothing yet (its bytes are held back as the possible tag).
TEST(AeadContracts, OpenerAadAfterUpdateAborts) {
  const bytes key(32, 1), nonce(12, 2), aad(8, 3);
  bytes buf(32);
  EXPECT_DEATH(
      {
        crypto::aead_opener o;
        (void)o.init(aead_algorithm::chacha20_poly1305, key, nonce);
        (void)o.update(buf, std::span(buf).first(20));
        o.aad(aad);
      },
      "contract violated");
  EXPECT_DEATH(
      {
        crypto::aead_opener o;
        (void)o.init(aead_algorithm::aes256_gcm, key, nonce, tag_position::trailing);
        o.aad(aad);
        (void)o.update(buf, std::span(buf).first(5));  // all 5 bytes held back
        o.aad(aad);
      },
      "contract violated");
  // The same calls in the documented order are fine (the deaths above are
  // about the order).
  crypto::aead_opener o;
  ASSERT_TRUE(o.init(aead_algorithm::chacha20_poly1305, key, nonce));
  o.aad(aad);
  o.aad(aad);
  EXPECT_TRUE(o.update(buf, std::span(buf).first(20)));
}

// Long messages in the piece sizes sockets return (100 bytes, 1000, a TCP
// segment's 1448, random up to 3000) cross the ChaCha keystream buffer, the
// Poly1305 lanes kept live between calls and the AES-GCM unit buffers at
// every offset; sealing and both openers must equal one-shot at every level.
TEST_P(AeadStream, LongMessagesInSocketSizedPiecesEqualOneShot) {
  test::seeded_random rng(1448);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    for (std::size_t len : {std::size_t{5000}, std::size_t{16384 + 37}}) {
      const setup s = make_setup(alg, rng);
      const bytes pt = rng.fill(len);
      const sealed want = reference(s, pt);
      const bytes stream = with_tag(want);
      splitter big_random = [&rng](std::size_t n) {
        std::vector<std::size_t> v;
        for (std::size_t done = 0; done < n;) {
          const std::size_t p = std::min<std::size_t>(1 + rng.uniform(3000), n - done);
          v.push_back(p);
          done += p;
        }
        return v;
      };
      for (const auto& split : {fixed(100), fixed(1000), fixed(1448), big_random}) {
        const sealed got = seal_pieces(s, pt, split(len));
        ASSERT_EQ(got.ct, want.ct) << crypto::properties(alg).name << " len " << len;
        ASSERT_EQ(got.tag, want.tag);
        const auto [pt_detached, ok_detached] = open_pieces(s, tag_position::detached, want.ct, want.tag, split(len));
        ASSERT_TRUE(ok_detached) << crypto::properties(alg).name << " len " << len;
        ASSERT_EQ(pt_detached, pt);
        const auto [pt_trailing, ok_trailing] = open_pieces(s, tag_position::trailing, stream, {}, split(stream.size()));
        ASSERT_TRUE(ok_trailing) << crypto::properties(alg).name << " len " << len;
        ASSERT_EQ(pt_trailing, pt);
      }
    }
  }
}

namespace {

// holds_keystream reports whether any 16-byte piece of `keystream` (at a
// 16-byte offset) appears anywhere in [p, p + n).
bool holds_keystream(const unsigned char* p, std::size_t n, const bytes& keystream) {
  std::unordered_map<std::uint64_t, std::size_t> prefixes;  // first 8 bytes -> offset
  for (std::size_t k = 0; k + 16 <= keystream.size(); k += 16) {
    std::uint64_t v;
    std::memcpy(&v, keystream.data() + k, 8);
    prefixes.emplace(v, k);
  }
  for (std::size_t i = 0; i + 16 <= n; ++i) {
    std::uint64_t v;
    std::memcpy(&v, p + i, 8);
    const auto it = prefixes.find(v);
    if (it != prefixes.end() && std::memcmp(p + i, keystream.data() + it->second, 16) == 0) return true;
  }
  return false;
}

}  // namespace

// The opener generates keystream ahead of the text (ChaCha's buffer, the
// AES-GCM unit): it is secret and must be gone after finish, after a failed
// finish and after destruction. The keystream is found by sealing zeros
// under the same key and nonce; the check first shows it can see the
// keystream while the opener holds it.
TEST_P(AeadStream, KeystreamGeneratedAheadIsWiped) {
  test::seeded_random rng(77);
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const setup s = make_setup(alg, rng);
    constexpr std::size_t len = 1400;
    const bytes zeros(len + 2048, 0);
    bytes keystream(zeros.size()), unused_tag(16);
    ASSERT_TRUE(crypto::aead_seal_detached(alg, keystream, std::span<std::uint8_t, 16>(unused_tag.data(), 16), zeros,
                                           associated_data(s.aad), s.nonce, s.key));
    const bytes pt = rng.fill(len);
    sealed want = reference(s, pt);
    // Pieces of 100 bytes, and one of 1400 (its keystream, and the Poly1305
    // key block, come from the wide kernel: key_deferred).
    for (const std::size_t piece : {std::size_t{100}, len})
    for (const bool tamper : {false, true}) {
      want.tag[0] ^= tamper ? 1 : 0;
      alignas(64) unsigned char mem[sizeof(crypto::aead_opener)];
      auto* o = ::new (mem) crypto::aead_opener;
      ASSERT_TRUE(o->init(s.alg, s.key, s.nonce));
      feed_aad(*o, s.aad);
      bytes out(len);
      for (std::size_t at = 0; at < len; at += piece) ASSERT_TRUE(o->update(std::span(out).subspan(at, piece), std::span(want.ct).subspan(at, piece)));
      EXPECT_TRUE(holds_keystream(mem, sizeof mem, keystream)) << crypto::properties(alg).name << ": the check sees nothing";
      EXPECT_EQ(static_cast<bool>(o->finish(want.tag)), !tamper);
      EXPECT_FALSE(holds_keystream(mem, sizeof mem, keystream)) << crypto::properties(alg).name << " tamper " << tamper;
      // Destruction mid-message wipes it too, after a first piece of either
      // size (1400: the deferred key's buffer of sixteen blocks).
      ASSERT_TRUE(o->init(s.alg, s.key, s.nonce));
      feed_aad(*o, s.aad);
      ASSERT_TRUE(o->update(std::span(out).first(piece), std::span(want.ct).first(piece)));
      EXPECT_TRUE(holds_keystream(mem, sizeof mem, keystream)) << crypto::properties(alg).name << ": nothing held mid-message";
      o->~aead_opener();
      EXPECT_FALSE(holds_keystream(mem, sizeof mem, keystream)) << crypto::properties(alg).name << " destroyed";
      want.tag[0] ^= tamper ? 1 : 0;
    }
  }
}

// Pieces of a TCP segment's size and around the AES-GCM unit (256 bytes):
// whole units of a piece go through the lagged kernels, hashed beside the
// unit the piece completes and the keystream its tail needs. Both openers,
// separate buffers and in place, and a flipped ciphertext bit in the middle
// of a piece is caught.
TEST_P(AeadStream, LargePieces) {
  test::seeded_random rng(1448);
  constexpr std::size_t piece_sizes[] = {255, 256, 257, 300, 511, 777, 1000, 1448};
  for (aead_algorithm alg : test::all_aead_algorithms) {
    const std::size_t len = 4096 + 7;
    const setup s = make_setup(alg, rng);
    const bytes pt = rng.fill(len);
    const sealed want = reference(s, pt);
    const bytes stream = with_tag(want);
    std::vector<std::vector<std::size_t>> splits;
    for (std::size_t p : piece_sizes) splits.push_back(fixed(p)(len));
    for (int i = 0; i < 4; ++i) {
      std::vector<std::size_t> v;  // pieces of 1 to 1600 bytes, small ones between
      for (std::size_t done = 0; done < len;) {
        const std::size_t p = std::min<std::size_t>(rng.uniform(4) == 0 ? 1 + rng.uniform(20) : 200 + rng.uniform(1400), len - done);
        v.push_back(p);
        done += p;
      }
      splits.push_back(v);
    }
    for (const auto& pieces : splits) {
      const auto [got, ok] = open_pieces(s, tag_position::detached, want.ct, want.tag, pieces);
      ASSERT_TRUE(ok) << crypto::properties(alg).name << " first piece " << pieces[0];
      ASSERT_EQ(got, pt) << crypto::properties(alg).name << " first piece " << pieces[0];
      std::vector<std::size_t> with_tag_pieces = pieces;
      with_tag_pieces.back() += 16;
      const auto [got_t, ok_t] = open_pieces(s, tag_position::trailing, stream, {}, with_tag_pieces);
      ASSERT_TRUE(ok_t) << crypto::properties(alg).name << " trailing, first piece " << pieces[0];
      ASSERT_EQ(got_t, pt);

      // In place, detached: each piece decrypted where it lies.
      bytes buf = want.ct;
      crypto::aead_opener o;
      ASSERT_TRUE(o.init(s.alg, s.key, s.nonce));
      feed_aad(o, s.aad);
      std::size_t at = 0;
      for (std::size_t p : pieces) {
        ASSERT_TRUE(o.update(std::span(buf).subspan(at, p), std::span(buf).subspan(at, p)));
        at += p;
      }
      ASSERT_TRUE(o.finish(want.tag));
      ASSERT_EQ(buf, pt) << crypto::properties(alg).name << " in place";

      // A flipped bit in the second piece fails, and nothing is released by finish.
      bytes bad = want.ct;
      bad[pieces[0] + pieces[1] / 2] ^= 0x10;
      const auto [unused, verdict] = open_pieces(s, tag_position::detached, bad, want.tag, pieces);
      ASSERT_FALSE(verdict) << crypto::properties(alg).name;
    }
  }
}

// The incremental opener keys Poly1305 at its first text (ChaCha20 and
// XChaCha20 at the AVX-512 level: beside the first piece's keystream when
// that piece is 256 bytes or more), holding the associated data until then,
// or keying as soon as the associated data outgrows the 1408 bytes it can
// hold. Every algorithm and level must equal one-shot for associated data
// around that size, given whole or in parts, first pieces on both sides of
// 256 bytes and of two steps (2048), both openers, in place, after a move, and for no text at all;
// a flipped associated-data bit fails.
TEST_P(AeadStream, DeferredKeyingHoldsTheAssociatedData) {
  test::seeded_random rng(256);
  constexpr std::size_t dk_aad_sizes[] = {0, 1, 40, 1408, 1409, 3000};
  constexpr std::size_t dk_first_pieces[] = {100, 255, 256, 272, 1448, 2047, 2048};
  for (aead_algorithm alg : test::all_aead_algorithms) {
    if (!crypto::properties(alg).supports_aad) continue;
    for (std::size_t aad_size : dk_aad_sizes) {
      setup s = make_setup(alg, rng);
      s.aad = rng.fill(aad_size);
      for (std::size_t len : {std::size_t{0}, std::size_t{3000}}) {
        const bytes pt = rng.fill(len);
        const sealed want = reference(s, pt);
        const bytes stream = with_tag(want);
        for (std::size_t first : dk_first_pieces) {
          std::vector<std::size_t> pieces;
          for (std::size_t done = 0; done < len;) {
            const std::size_t p = std::min(done == 0 ? first : std::size_t{1000}, len - done);
            pieces.push_back(p);
            done += p;
          }
          const std::string what = std::string(crypto::properties(alg).name) + " aad " + std::to_string(aad_size) +
                                   " len " + std::to_string(len) + " first " + std::to_string(first);
          // feed_aad gives it in two parts.
          const auto [got, ok] = open_pieces(s, tag_position::detached, want.ct, want.tag, pieces);
          ASSERT_TRUE(ok) << what;
          ASSERT_EQ(got, pt) << what;
          std::vector<std::size_t> t_pieces = pieces;
          if (t_pieces.empty()) t_pieces.push_back(0);
          t_pieces.back() += 16;
          const auto [got_t, ok_t] = open_pieces(s, tag_position::trailing, stream, {}, t_pieces);
          ASSERT_TRUE(ok_t) << what << " trailing";
          ASSERT_EQ(got_t, pt) << what << " trailing";

          // In place, the associated data in three parts (one empty), the
          // opener moved before its first text.
          for (const bool flip : {false, true}) {
            bytes ad = s.aad;
            if (flip && ad.empty()) continue;
            if (flip) ad[ad.size() / 2] ^= 0x01;
            bytes buf = want.ct;
            crypto::aead_opener o;
            ASSERT_TRUE(o.init(s.alg, s.key, s.nonce));
            const std::size_t third = ad.size() / 3;
            o.aad(std::span(ad).first(third));
            o.aad({});
            o.aad(std::span(ad).subspan(third));
            crypto::aead_opener moved = std::move(o);
            std::size_t at = 0;
            for (std::size_t p : pieces) {
              ASSERT_TRUE(moved.update(std::span(buf).subspan(at, p), std::span(buf).subspan(at, p)));
              at += p;
            }
            ASSERT_EQ(static_cast<bool>(moved.finish(want.tag)), !flip) << what << " in place, flip " << flip;
            if (!flip) {
              ASSERT_EQ(buf, pt) << what << " in place";
            }
          }
        }
      }
    }
  }
}

// A ChaCha20-Poly1305 opener whose CPU level changes between pieces keeps
// working (cpu.hpp: the change takes effect at the next operation): the
// first piece runs at the highest level, so the opener's piece path has
// recorded the MAC's IFMA lanes when a lower level arrives. Detached (apart
// and in place) and trailing, pieces of 300, 1448 and 1..3000 bytes.
TEST(AeadStreamLevels, ChaChaOpenerSwitchingLevelsMidMessage) {
  const auto levels = test::cpu_levels();
  test::seeded_random rng(0x1e7e1);
  for (aead_algorithm alg : {aead_algorithm::chacha20_poly1305, aead_algorithm::xchacha20_poly1305}) {
    const setup s = make_setup(alg, rng);
    const bytes pt = rng.fill(12000 + rng.uniform(64));
    const sealed want = reference(s, pt);
    const bytes stream = with_tag(want);
    for (int mode = 0; mode < 3; ++mode) {  // detached apart, detached in place, trailing
      for (std::size_t fixed_piece : {std::size_t{300}, std::size_t{1448}, std::size_t{0}}) {
        const tag_position pos = mode == 2 ? tag_position::trailing : tag_position::detached;
        const bytes& input = mode == 2 ? stream : want.ct;
        crypto::aead_opener o;
        ASSERT_TRUE(o.init(s.alg, s.key, s.nonce, pos));
        feed_aad(o, s.aad);
        bytes buf = input, out;
        std::size_t at = 0;
        for (std::size_t i = 0; at < input.size(); ++i) {
          test::scoped_cpu_level l(levels[(levels.size() - 1 + i) % levels.size()]);
          const std::size_t p =
              std::min<std::size_t>(fixed_piece != 0 ? fixed_piece : 1 + rng.uniform(3000), input.size() - at);
          if (mode == 1) {
            const auto w = o.update(std::span(buf).subspan(at, p), std::span(buf).subspan(at, p));
            ASSERT_TRUE(w);
          } else {
            bytes chunk(o.output_size(p));
            const auto w = o.update(chunk, std::span(input).subspan(at, p));
            ASSERT_TRUE(w);
            out.insert(out.end(), chunk.begin(), chunk.begin() + static_cast<long>(*w));
          }
          at += p;
        }
        const auto verdict = pos == tag_position::detached ? o.finish(want.tag) : o.finish();
        ASSERT_TRUE(verdict) << crypto::properties(alg).name << " mode " << mode << " pieces " << fixed_piece;
        EXPECT_EQ(mode == 1 ? buf : out, pt) << crypto::properties(alg).name << " mode " << mode;
      }
    }
  }
  test::report_levels("ChaCha opener switching levels mid-message");
}
