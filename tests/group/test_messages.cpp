// SPDX-License-Identifier: Apache-2.0
// RFC 9420's wire structures against the interop vectors' messages.json:
// every field of every one of the 300 cases decodes and re-encodes byte for
// byte; and each of them refuses truncation and trailing bytes.
#include <sealwire/record/group/commit.hpp>
#include <sealwire/record/group/framing.hpp>
#include <sealwire/record/group/proposals.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sealwire::record::group {
namespace {

using test::bytes;
using test::hex;

// A decoder-and-encoder pair for one messages.json field: decode `in`
// strictly, encode the result, and report the re-encoding (or the error).
using round_trip_fn = std::function<result<bytes>(std::span<const std::uint8_t>)>;

template <class T>
round_trip_fn round_trip_of() {
  return [](std::span<const std::uint8_t> in) -> result<bytes> {
    auto v = deserialize<T>(in);
    if (!v) return v.error();
    return serialize(*v);
  };
}

// MLSMessage's first four bytes are the version and the wire format; the
// framing tests before message.hpp read the body behind them.
template <class T>
round_trip_fn body_round_trip_of() {
  return [](std::span<const std::uint8_t> in) -> result<bytes> {
    if (in.size() < 4) return codec_errc::truncated;
    auto v = deserialize<T>(in.subspan(4));
    if (!v) return v.error();
    auto out = serialize(*v);
    if (!out) return out.error();
    bytes whole(in.begin(), in.begin() + 4);
    whole.insert(whole.end(), out->begin(), out->end());
    return whole;
  };
}

const nlohmann::json& messages() {
  static const nlohmann::json cases = [] {
    const auto path = test::find_vector("mls/messages.json");
    if (!path) throw std::runtime_error(test::missing_vector_message("mls/messages.json"));
    return test::load_json(*path);
  }();
  return cases;
}

// Every field of messages.json and how to decode it.
const std::map<std::string, round_trip_fn>& fields() {
  static const std::map<std::string, round_trip_fn> table = {
      {"add_proposal", round_trip_of<add>()},
      {"update_proposal", round_trip_of<update>()},
      {"remove_proposal", round_trip_of<remove>()},
      {"pre_shared_key_proposal", round_trip_of<pre_shared_key>()},
      {"re_init_proposal", round_trip_of<reinit>()},
      {"external_init_proposal", round_trip_of<external_init>()},
      {"group_context_extensions_proposal", round_trip_of<group_context_extensions>()},
      {"commit", round_trip_of<commit>()},
      {"public_message_application", body_round_trip_of<public_message>()},
      {"public_message_proposal", body_round_trip_of<public_message>()},
      {"public_message_commit", body_round_trip_of<public_message>()},
      {"private_message", body_round_trip_of<private_message>()},
  };
  return table;
}

TEST(GroupMessages, EveryCaseRoundTrips) {
  const auto& cases = messages();
  ASSERT_EQ(cases.size(), 300u);
  std::size_t checked = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    for (const auto& [name, value] : cases[i].items()) {
      const auto it = fields().find(name);
      if (it == fields().end()) continue;
      const auto in = hex(value.get<std::string>());
      const auto out = it->second(in);
      ASSERT_TRUE(out) << "case " << i << " " << name << ": " << out.error().message();
      ASSERT_EQ(*out, in) << "case " << i << " " << name;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 300 * fields().size());
}

// Truncation at every length and one trailing byte, for every field of the
// first cases (all 300 would cost seconds under ASan for no more coverage).
TEST(GroupMessages, TruncatedOrTrailingRefused) {
  const auto& cases = messages();
  for (std::size_t i = 0; i < 6; ++i) {
    for (const auto& [name, fn] : fields()) {
      const auto in = hex(cases[i].at(name).get<std::string>());
      for (std::size_t n = 0; n < in.size(); ++n) {
        const auto out = fn(std::span(in).first(n));
        ASSERT_FALSE(out) << "case " << i << " " << name << " truncated to " << n;
      }
      bytes longer = in;
      longer.push_back(0);
      const auto out = fn(longer);
      ASSERT_FALSE(out) << "case " << i << " " << name << " with a trailing byte";
    }
  }
}

}  // namespace
}  // namespace sealwire::record::group
