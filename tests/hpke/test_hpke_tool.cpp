// SPDX-License-Identifier: Apache-2.0
// The sealwire-hpke batch protocol: round trips, an official vector through
// the batch seal, failures reported with their index, and malformed input
// answered with an error (never a crash).
#include "batch.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

using sealwire::test::bytes;
using nlohmann::json;

namespace {

json ask(const json& request) { return json::parse(sealwire::tool::handle_batch_line(request.dump())); }
json ask_raw(std::string_view line) { return json::parse(sealwire::tool::handle_batch_line(line)); }

}  // namespace

TEST(HpkeBatch, KeygenSealOpenRoundTripAllModes) {
  for (int kem : {32, 33}) {
    const int kdf = kem == 32 ? 1 : 3;
    const json r = ask({{"op", "keygen"}, {"kem", kem}, {"id", "r"}});
    const json s = ask({{"op", "derive"}, {"kem", kem}, {"ikm", std::string(64, '4')}});
    ASSERT_FALSE(r.contains("error")) << r.dump();
    EXPECT_EQ(r["id"], "r");
    for (int mode = 0; mode < 4; ++mode) {
      json seal = {{"op", "seal"}, {"mode", mode}, {"kem", kem}, {"kdf", kdf}, {"aead", 3}, {"pkR", r["pkR"]},
                   {"info", "696e666f"}, {"aad", {"", "01"}}, {"pt", {"68656c6c6f", ""}},
                   {"exports", {{{"ctx", "00"}, {"len", 16}}}}};
      json open = {{"op", "open"}, {"mode", mode}, {"kem", kem}, {"kdf", kdf}, {"aead", 3}, {"skR", r["skR"]},
                   {"info", "696e666f"}, {"aad", {"", "01"}}, {"exports", {{{"ctx", "00"}, {"len", 16}}}}};
      if (mode == 1 || mode == 3) {
        seal["psk"] = open["psk"] = std::string(64, 'a');
        seal["psk_id"] = open["psk_id"] = "6964";
      }
      if (mode >= 2) {
        seal["skS"] = s["skR"];
        open["pkS"] = s["pkR"];
      }
      const json sealed = ask(seal);
      ASSERT_FALSE(sealed.contains("error")) << sealed.dump();
      open["enc"] = sealed["enc"];
      open["ct"] = sealed["ct"];
      const json opened = ask(open);
      ASSERT_FALSE(opened.contains("error")) << opened.dump();
      EXPECT_EQ(opened["pt"], json({"68656c6c6f", ""}));
      EXPECT_EQ(opened["exports"], sealed["exports"]);
    }
  }
}

TEST(HpkeBatch, OfficialVectorThroughBatchSeal) {
  SEALWIRE_REQUIRE_VECTOR(path, "hpke/test-vectors.json");
  const auto all = sealwire::test::load_json(path);
  int done = 0;
  for (const auto& v : all) {
    if (v["kem_id"] != 32 || v["aead_id"] != 3) continue;
    json seal = {{"op", "seal"}, {"mode", v["mode"]}, {"kem", 32}, {"kdf", v["kdf_id"]}, {"aead", 3},
                 {"pkR", v["pkRm"]}, {"info", v["info"]}, {"ikmE", v["ikmE"]}};
    if (v.contains("psk")) {
      seal["psk"] = v["psk"];
      seal["psk_id"] = v["psk_id"];
    }
    if (v.contains("skSm")) seal["skS"] = v["skSm"];
    json aads = json::array(), pts = json::array();
    for (int i = 0; i < 3; ++i) {
      aads.push_back(v["encryptions"][i]["aad"]);
      pts.push_back(v["encryptions"][i]["pt"]);
    }
    seal["aad"] = aads;
    seal["pt"] = pts;
    const json out = ask(seal);
    ASSERT_FALSE(out.contains("error")) << out.dump();
    EXPECT_EQ(out["enc"], v["enc"]);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(out["ct"][i], v["encryptions"][i]["ct"]);
    ++done;
  }
  EXPECT_EQ(done, 8);
}

TEST(HpkeBatch, OpenFailureReportsIndexAndEarlierPlaintexts) {
  const json r = ask({{"op", "derive"}, {"kem", 32}, {"ikm", "0102"}});
  const json sealed = ask({{"op", "seal"}, {"kem", 32}, {"kdf", 1}, {"aead", 3}, {"pkR", r["pkR"]},
                           {"pt", {"aa", "bb", "cc"}}});
  json cts = sealed["ct"];
  std::string bad = cts[1];
  bad[0] = bad[0] == '0' ? '1' : '0';
  cts[1] = bad;
  const json opened = ask({{"op", "open"}, {"id", 7}, {"kem", 32}, {"kdf", 1}, {"aead", 3}, {"skR", r["skR"]},
                           {"enc", sealed["enc"]}, {"ct", cts}});
  EXPECT_EQ(opened["id"], 7);
  EXPECT_EQ(opened["error_type"], "open_failed");
  EXPECT_EQ(opened["index"], 1);
  EXPECT_EQ(opened["pt"], json({"aa"}));
}

TEST(HpkeBatch, MalformedRequestsGetErrors) {
  const std::vector<std::string> lines = {
      "", "{", "[]", "null", "{\"op\":1}", "{\"op\":\"nope\"}", "{\"op\":\"keygen\"}",
      "{\"op\":\"keygen\",\"kem\":\"32\"}", "{\"op\":\"keygen\",\"kem\":70000}", "{\"op\":\"derive\",\"kem\":32}",
      "{\"op\":\"derive\",\"kem\":32,\"ikm\":\"zz\"}", "{\"op\":\"seal\",\"kem\":32,\"kdf\":1,\"aead\":3}",
      "{\"op\":\"seal\",\"kem\":32,\"kdf\":1,\"aead\":3,\"pkR\":\"" + std::string(64, '1') + "\",\"pt\":[1]}",
      "{\"op\":\"seal\",\"kem\":32,\"kdf\":1,\"aead\":3,\"mode\":9,\"pkR\":\"" + std::string(64, '1') + "\"}",
      "{\"op\":\"open\",\"kem\":32,\"kdf\":1,\"aead\":3,\"skR\":\"00\",\"enc\":\"00\"}",
      "{\"op\":\"keygen\",\"kem\":32,\"x\":1.5}", "{\"op\":\"keygen\",\"kem\":32} trailing",
      "{\"op\":\"\xff\xfe\"}", "{\"op\":\"\xc0\xaf\"}",
      std::string(100, '[') + std::string(100, ']'), "\"\\ud800\"", "{\"op\":\"keygen\",\"kem\":32,\"kem\":33}",
  };
  for (const auto& line : lines) {
    const json r = ask_raw(line);
    if (line == "{\"op\":\"keygen\",\"kem\":32,\"kem\":33}") {
      EXPECT_FALSE(r.contains("error")) << "duplicate members: the first wins";
      continue;
    }
    EXPECT_TRUE(r.contains("error")) << line << " -> " << r.dump();
    EXPECT_TRUE(r.contains("error_type")) << line;
  }
}

TEST(HpkeBatch, StrictnessKeptOnNlohmannJson) {
  const std::string derive = R"({"op":"derive","kem":32,"ikm":"00")";
  // Nesting: max_depth levels are read; one more is refused as a parse error.
  auto nested = [&](int levels) {
    return derive + ",\"x\":" + std::string(static_cast<std::size_t>(levels - 1), '[') +
           std::string(static_cast<std::size_t>(levels - 1), ']') + "}";
  };
  EXPECT_FALSE(ask_raw(nested(sealwire::tool::max_depth)).contains("error")) << nested(sealwire::tool::max_depth);
  const json deep = ask_raw(nested(sealwire::tool::max_depth + 1));
  EXPECT_EQ(deep["error_type"], "parse_error");
  EXPECT_NE(deep["error"].get<std::string>().find("nesting"), std::string::npos) << deep.dump();
  // Integers only, within 64 signed bits.
  for (const char* n : {"1.5", "1e2", "-0.0", "9223372036854775808", "18446744073709551616", "7e348", "-1e999"}) {
    const json r = ask_raw(derive + ",\"x\":" + n + "}");
    EXPECT_EQ(r["error_type"], "parse_error") << n << " -> " << r.dump();
  }
  EXPECT_FALSE(ask_raw(derive + ",\"x\":-9223372036854775808}").contains("error"));
  EXPECT_FALSE(ask_raw(derive + ",\"x\":9223372036854775807}").contains("error"));
  // Invalid UTF-8 anywhere in a string, and unpaired surrogates, are parse errors.
  for (const std::string bad : {"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\\udc00", "\xe2\x82"}) {
    const json r = ask_raw(derive + ",\"x\":\"a" + bad + "\"}");
    EXPECT_EQ(r["error_type"], "parse_error") << r.dump();
  }
  EXPECT_FALSE(ask_raw(derive + ",\"x\":\"\u00e9\\ud83d\\ude00\"}").contains("error"));
  // Duplicate members: the first one wins (in nested objects too).
  const json first = ask({{"op", "derive"}, {"kem", 32}, {"ikm", "00"}});
  const json dup = ask_raw(R"({"op":"derive","kem":32,"ikm":"00","x":{"a":1,"a":{"b":1}},"ikm":"01"})");
  EXPECT_EQ(dup, first);
  // The request's id comes first in the response; members keep their order.
  const std::string line = sealwire::tool::handle_batch_line(R"({"op":"derive","ikm":"00","kem":32,"id":"z"})");
  EXPECT_EQ(line.rfind(R"({"id":"z","skR":")", 0), 0u) << line;
  // Over the line limit: refused before parsing.
  const json big = ask_raw(std::string(sealwire::tool::max_line_size + 1, ' '));
  EXPECT_EQ(big["error_type"], "parse_error");
  EXPECT_NE(big["error"].get<std::string>().find("longer than"), std::string::npos);
}

TEST(HpkeBatch, RunBatchAnswersEveryLineAndBoundsLongOnes) {
  const std::string ok = R"({"id":1,"op":"derive","kem":32,"ikm":"00"})";
  std::string too_long = R"({"id":2,"op":"derive","kem":32,"ikm":")";
  too_long += std::string(sealwire::tool::max_line_size, '0') + "\"}";
  std::istringstream in(ok + "\r\n\n  \t\n" + too_long + "\n{\n" + ok);  // the last line has no newline
  std::ostringstream out;
  EXPECT_EQ(sealwire::tool::run_batch(in, out), 0);
  std::istringstream replies(out.str());
  std::vector<json> r;
  for (std::string l; std::getline(replies, l);) r.push_back(json::parse(l));
  ASSERT_EQ(r.size(), 4u) << out.str().substr(0, 2000);
  EXPECT_EQ(r[0]["id"], 1);
  EXPECT_FALSE(r[0].contains("error"));
  EXPECT_EQ(r[1]["error_type"], "parse_error");
  EXPECT_NE(r[1]["error"].get<std::string>().find("longer than"), std::string::npos);
  EXPECT_EQ(r[2]["error_type"], "parse_error");
  EXPECT_EQ(r[3], r[0]);
}

TEST(HpkeBatch, RandomBytesNeverCrash) {
  sealwire::test::seeded_random rng(9180);
  const std::string valid = R"({"op":"derive","kem":32,"ikm":"0011223344"})";
  for (int i = 0; i < 3000; ++i) {
    std::string line = valid;
    const int edits = 1 + static_cast<int>(rng.uniform(4));
    for (int e = 0; e < edits; ++e) line[rng.uniform(line.size())] = static_cast<char>(rng.uniform(256));
    if (i % 3 == 0) line.resize(rng.uniform(line.size()));
    const std::string out = sealwire::tool::handle_batch_line(line);
    EXPECT_NO_THROW(static_cast<void>(json::parse(out).size())) << "the response is always JSON: " << out;
  }
}


// The post-quantum KEM ids (draft-ietf-hpke-pq) through the batch protocol:
// keygen and derive, base and psk round trips, the draft's key sizes, and the
// auth modes refused by name.
TEST(HpkeBatch, PostQuantumKemIds) {
  struct row {
    int kem;
    std::size_t npk, nenc, nsk;
  };
  for (const row& k : {row{0x40, 800, 768, 64}, row{0x41, 1184, 1088, 64}, row{0x42, 1568, 1568, 64},
                       row{0x647a, 1216, 1120, 32}}) {
    const json r = ask({{"op", "keygen"}, {"kem", k.kem}});
    ASSERT_FALSE(r.contains("error")) << r.dump();
    EXPECT_EQ(r["pkR"].get<std::string>().size(), 2 * k.npk);
    EXPECT_EQ(r["skR"].get<std::string>().size(), 2 * k.nsk);
    const json d = ask({{"op", "derive"}, {"kem", k.kem}, {"ikm", std::string(64, '7')}});
    EXPECT_EQ(d, ask({{"op", "derive"}, {"kem", k.kem}, {"ikm", std::string(64, '7')}}));
    for (int mode : {0, 1}) {
      json seal = {{"op", "seal"}, {"mode", mode}, {"kem", k.kem}, {"kdf", 1}, {"aead", 1}, {"pkR", r["pkR"]},
                   {"pt", {"7071"}}, {"exports", {{{"ctx", ""}, {"len", 8}}}}};
      json open = {{"op", "open"}, {"mode", mode}, {"kem", k.kem}, {"kdf", 1}, {"aead", 1}, {"skR", r["skR"]},
                   {"exports", {{{"ctx", ""}, {"len", 8}}}}};
      if (mode == 1) {
        seal["psk"] = open["psk"] = std::string(64, 'b');
        seal["psk_id"] = open["psk_id"] = "6964";
      }
      const json sealed = ask(seal);
      ASSERT_FALSE(sealed.contains("error")) << sealed.dump();
      EXPECT_EQ(sealed["enc"].get<std::string>().size(), 2 * k.nenc);
      open["enc"] = sealed["enc"];
      open["ct"] = sealed["ct"];
      const json opened = ask(open);
      ASSERT_FALSE(opened.contains("error")) << opened.dump();
      EXPECT_EQ(opened["pt"], json({"7071"}));
      EXPECT_EQ(opened["exports"], sealed["exports"]);
    }
    const json auth = ask({{"op", "seal"}, {"mode", 2}, {"kem", k.kem}, {"kdf", 1}, {"aead", 1}, {"pkR", r["pkR"]},
                           {"skS", d["skR"]}, {"pt", {"00"}}});
    EXPECT_EQ(auth["error_type"], "auth_not_supported") << auth.dump();
  }
}
