// SPDX-License-Identifier: Apache-2.0
// The MLS codec's primitives: RFC 9420 2.1.2 variable-length integers (every
// length form and its edges, non-minimal and 0b11 forms refused),
// truncation, trailing bytes, optional<T>'s presence octet, nesting and size
// limits, and deserialization.json.
#include <sealwire/record/group/codec.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

namespace sealwire::record::group {
namespace {

using test::bytes;
using test::hex;

bytes write_varint(std::uint64_t v) {
  writer w;
  w.varint(v);
  EXPECT_TRUE(w.ok()) << v;
  return w.take();
}

TEST(GroupCodec, VarintForms) {
  // RFC 9420 2.1.2: 1 byte up to 63, 2 bytes up to 16383, 4 bytes up to 2^30 - 1.
  const struct {
    std::uint32_t value;
    const char* wire;
  } cases[] = {
      {0, "00"},         {37, "25"},        {63, "3f"},        {64, "4040"},          {15293, "7bbd"},
      {16383, "7fff"},   {16384, "80004000"}, {494878333, "9d7f3e7d"}, {max_varint, "bfffffff"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(write_varint(c.value), hex(c.wire)) << c.value;
    const auto in = hex(c.wire);
    reader r(in);
    EXPECT_EQ(r.varint(), c.value) << c.wire;
    r.finish();
    EXPECT_TRUE(r.ok()) << c.wire << ": " << r.error().message();
  }
}

TEST(GroupCodec, VarintTooLargeToWrite) {
  writer w;
  w.varint(std::uint64_t{max_varint} + 1);
  EXPECT_EQ(w.error(), codec_errc::too_large);
}

TEST(GroupCodec, VarintNonMinimalRefused) {
  for (const char* wire : {"4000", "4025", "403f", "80000000", "8000003f", "80003fff"}) {
    const auto in = hex(wire);
    reader r(in);
    EXPECT_EQ(r.varint(), 0u);
    EXPECT_EQ(r.error(), codec_errc::non_minimal_varint) << wire;
  }
}

TEST(GroupCodec, VarintReservedPrefixRefused) {
  for (const char* wire : {"c0", "c000000000000000", "ff", "ffffffffffffffff"}) {
    const auto in = hex(wire);
    reader r(in);
    (void)r.varint();
    EXPECT_EQ(r.error(), codec_errc::invalid_varint) << wire;
  }
}

TEST(GroupCodec, VarintTruncated) {
  for (const char* wire : {"", "40", "80", "8000", "800040"}) {
    const auto in = hex(wire);
    reader r(in);
    (void)r.varint();
    EXPECT_EQ(r.error(), codec_errc::truncated) << wire;
  }
}

// deserialization.json: each vlbytes_header is the length prefix of an
// opaque<V> holding `length` bytes; it decodes to that length and encodes back.
TEST(GroupCodec, DeserializationVectors) {
  const auto path = test::find_vector("mls/deserialization.json");
  ASSERT_TRUE(path) << test::missing_vector_message("mls/deserialization.json");
  const auto cases = test::load_json(*path);
  ASSERT_EQ(cases.size(), 14u);
  for (const auto& c : cases) {
    const auto header = hex(c.at("vlbytes_header").get<std::string>());
    const auto length = c.at("length").get<std::uint32_t>();
    reader r(header);
    EXPECT_EQ(r.varint(), length);
    r.finish();
    EXPECT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(write_varint(length), header);
    // The same header in front of `length` bytes is one whole opaque<V>; one
    // byte fewer is truncated. (The 2^30 - 1 case is checked with a short
    // body only: a gigabyte buffer is not worth its test time.)
    if (length <= 65536) {
      bytes whole = header;
      whole.resize(header.size() + length, 0xa5);
      reader o(whole);
      EXPECT_EQ(o.opaque().size(), length);
      o.finish();
      EXPECT_TRUE(o.ok()) << o.error().message();
      whole.pop_back();
      reader s(whole);
      (void)s.opaque();
      EXPECT_EQ(s.error(), codec_errc::truncated);
    } else {
      bytes short_body = header;
      short_body.resize(header.size() + 3, 0xa5);
      reader s(short_body);
      EXPECT_TRUE(s.opaque().empty());
      EXPECT_EQ(s.error(), codec_errc::truncated);
    }
  }
}

TEST(GroupCodec, IntegersBigEndian) {
  writer w;
  w.u8(0x01);
  w.u16(0x0203);
  w.u32(0x04050607);
  w.u64(0x08090a0b0c0d0e0full);
  const auto out = w.take();
  EXPECT_EQ(out, hex("01 0203 04050607 08090a0b0c0d0e0f"));
  reader r(out);
  EXPECT_EQ(r.u8(), 0x01);
  EXPECT_EQ(r.u16(), 0x0203);
  EXPECT_EQ(r.u32(), 0x04050607u);
  EXPECT_EQ(r.u64(), 0x08090a0b0c0d0e0full);
  r.finish();
  EXPECT_TRUE(r.ok());
}

TEST(GroupCodec, TruncatedFieldsReturnZeroAndStaySticky) {
  const auto in = hex("0102");
  reader r(in);
  EXPECT_EQ(r.u32(), 0u);
  EXPECT_EQ(r.error(), codec_errc::truncated);
  // Nothing is read after the first error, even what would fit.
  EXPECT_EQ(r.u8(), 0u);
  EXPECT_EQ(r.error(), codec_errc::truncated);
}

TEST(GroupCodec, OpaqueLengthBeyondInputIsTruncatedWithoutAllocating) {
  // A 2^30 - 1 length with three bytes behind it.
  const auto in = hex("bfffffff 010203");
  reader r(in);
  EXPECT_TRUE(r.opaque().empty());
  EXPECT_EQ(r.error(), codec_errc::truncated);
}

TEST(GroupCodec, TrailingBytesRefused) {
  const auto in = hex("03 616263 00");
  reader r(in);
  EXPECT_EQ(r.opaque(), test::to_bytes("abc"));
  r.finish();
  EXPECT_EQ(r.error(), codec_errc::trailing_bytes);
}

TEST(GroupCodec, PresenceOctet) {
  for (const auto& [wire, present, ok] : {std::tuple{"00", false, true}, {"01", true, true}, {"02", false, false},
                                           {"ff", false, false}}) {
    const auto in = hex(wire);
    reader r(in);
    EXPECT_EQ(r.presence(), present) << wire;
    EXPECT_EQ(r.ok(), ok) << wire;
    if (!ok) {
      EXPECT_EQ(r.error(), codec_errc::invalid_value);
    }
  }
}

// A vector of uint16 values, as Capabilities carries.
std::vector<std::uint16_t> read_u16s(reader& r) {
  std::vector<std::uint16_t> out;
  r.vector([&](reader& sub) { out.push_back(sub.u16()); });
  return out;
}

TEST(GroupCodec, VectorElementsMustFillTheVector) {
  {
    const auto in = hex("04 0001 0002");
    reader r(in);
    EXPECT_EQ(read_u16s(r), (std::vector<std::uint16_t>{1, 2}));
    r.finish();
    EXPECT_TRUE(r.ok());
  }
  {
    // Three bytes cannot hold whole uint16 elements: the last one is truncated.
    const auto in = hex("03 0001 00");
    reader r(in);
    (void)read_u16s(r);
    EXPECT_EQ(r.error(), codec_errc::truncated);
  }
}

TEST(GroupCodec, VectorWriterPrefixesEachLengthForm) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{63}, std::size_t{64}, std::size_t{16383},
                              std::size_t{16384}, std::size_t{70000}}) {
    writer w;
    w.u8(0xee);
    w.vector([&] { w.fixed(bytes(n, 0x11)); });
    w.u8(0xff);
    const auto out = w.take();
    reader r(out);
    EXPECT_EQ(r.u8(), 0xee);
    const auto body = r.opaque();
    EXPECT_EQ(body, bytes(n, 0x11)) << n;
    EXPECT_EQ(r.u8(), 0xff);
    r.finish();
    EXPECT_TRUE(r.ok()) << n;
    const std::size_t prefix = n < 64 ? 1 : n < 16384 ? 2 : 4;
    EXPECT_EQ(out.size(), 2 + prefix + n);
  }
}

TEST(GroupCodec, NestingLimit) {
  // Vectors nested `depth` deep: 01 01 ... 00 would not fill; build it exactly.
  auto nested = [](std::size_t depth) {
    writer w;
    std::function<void(std::size_t)> level = [&](std::size_t d) {
      if (d == 0) return;
      w.vector([&] { level(d - 1); });
    };
    level(depth);
    return w.take();
  };
  std::function<void(reader&)> descend = [&](reader& r) { r.vector([&](reader& sub) { descend(sub); }); };
  codec_limits limits;
  limits.max_depth = 4;
  {
    const auto in = nested(4);
    reader r(in, limits);
    descend(r);
    r.finish();
    EXPECT_TRUE(r.ok()) << r.error().message();
  }
  {
    const auto in = nested(5);
    reader r(in, limits);
    descend(r);
    EXPECT_EQ(r.error(), codec_errc::too_deep);
  }
}

TEST(GroupCodec, InputAndItemLimits) {
  codec_limits limits;
  limits.max_input = 3;
  const auto four = hex("00000000");
  reader big(four, limits);
  EXPECT_EQ(big.error(), codec_errc::too_large);
  EXPECT_EQ(big.u8(), 0u);

  limits = {};
  limits.max_items = 3;
  const auto in = hex("08 0001 0002 0003 0004");
  reader r(in, limits);
  (void)read_u16s(r);
  EXPECT_EQ(r.error(), codec_errc::too_large);
}

TEST(GroupCodec, ErrorCategoryNamesEveryCode) {
  for (int e = 1; e <= static_cast<int>(codec_errc::invalid_value); ++e) {
    const auto ec = make_error_code(static_cast<codec_errc>(e));
    EXPECT_EQ(ec.category().name(), std::string("sealwire.group.codec"));
    EXPECT_EQ(ec.message().rfind("unknown sealwire", 0), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace sealwire::record::group
