// SPDX-License-Identifier: Apache-2.0
// Seeds of fuzz_group_decode: real MLS structures from the interop vectors'
// messages.json, each behind its selector byte (group_seeds.hpp), and the
// structures nested inside them re-encoded on their own.
#include "group_seeds.hpp"

#include <sealwire/crypto/hex.hpp>
#include <sealwire/record/group/message.hpp>
#include <sealwire/record/group/proposals.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace sealwire::fuzz {

using namespace sealwire::record::group;

namespace {

namespace fs = std::filesystem;
using seed_bytes = std::vector<std::uint8_t>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "group seeds: %s\n", what.c_str());
  std::exit(1);
}

class seed_dir {
 public:
  explicit seed_dir(const fs::path& dir) : dir_(dir) { fs::create_directories(dir_); }
  void add(group_kind kind, std::span<const std::uint8_t> encoding, std::uint8_t high = 0) {
    char name[32];
    std::snprintf(name, sizeof name, "seed-%03d", count_++);
    const auto selector = static_cast<std::uint8_t>(
        static_cast<unsigned>(kind) + high * static_cast<unsigned>(group_kind::count));
    std::ofstream out(dir_ / name, std::ios::binary);
    out.put(static_cast<char>(selector));
    out.write(reinterpret_cast<const char*>(encoding.data()), static_cast<std::streamsize>(encoding.size()));
  }
  template <class T>
  void add_value(group_kind kind, const T& v) {
    const auto out = serialize(v);
    if (!out) fail("a seed structure does not encode");
    add(kind, *out);
  }

 private:
  fs::path dir_;
  int count_ = 0;
};

}  // namespace

void group_decode_seeds(const std::filesystem::path& root, const std::filesystem::path& vectors_dir) {
  const auto file = vectors_dir / "mls" / "messages.json";
  std::ifstream in(file);
  if (!in) fail("cannot read " + file.string());
  const auto cases = nlohmann::json::parse(in);
  const std::map<std::string, group_kind> kinds = {
      {"mls_welcome", group_kind::mls_message},
      {"mls_group_info", group_kind::mls_message},
      {"mls_key_package", group_kind::mls_message},
      {"public_message_application", group_kind::mls_message},
      {"public_message_proposal", group_kind::mls_message},
      {"public_message_commit", group_kind::mls_message},
      {"private_message", group_kind::mls_message},
      {"ratchet_tree", group_kind::ratchet_tree},
      {"group_secrets", group_kind::group_secrets},
      {"add_proposal", group_kind::add},
      {"update_proposal", group_kind::update},
      {"remove_proposal", group_kind::remove},
      {"pre_shared_key_proposal", group_kind::pre_shared_key},
      {"re_init_proposal", group_kind::reinit},
      {"external_init_proposal", group_kind::external_init},
      {"group_context_extensions_proposal", group_kind::group_context_extensions},
      {"commit", group_kind::commit},
  };
  seed_dir seeds(root / "fuzz_group_decode");
  // The first cases cover every cipher suite's sizes; more only slows the fuzzer's start.
  const std::size_t n = std::min<std::size_t>(cases.size(), 8);
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& [name, value] : cases[i].items()) {
      const auto it = kinds.find(name);
      if (it == kinds.end()) fail("messages.json field without a selector: " + name);
      const auto raw = crypto::from_hex(value.get<std::string>());
      if (!raw) fail("bad hex in messages.json field " + name);
      seeds.add(it->second, *raw);
      if (it->second != group_kind::mls_message) continue;
      const auto msg = deserialize<mls_message>(*raw);
      if (!msg) fail("messages.json field " + name + " does not decode");
      // The nested structures, each on its own.
      if (const auto* kp = std::get_if<key_package>(&msg->body)) {
        seeds.add_value(group_kind::key_package, *kp);
        seeds.add_value(group_kind::leaf_node, kp->leaf_node);
      } else if (const auto* gi = std::get_if<group_info>(&msg->body)) {
        seeds.add_value(group_kind::group_info, *gi);
        seeds.add_value(group_kind::group_context, gi->group_context);
      } else if (const auto* w = std::get_if<welcome>(&msg->body)) {
        seeds.add_value(group_kind::welcome, *w);
      } else if (const auto* pm = std::get_if<public_message>(&msg->body)) {
        seeds.add_value(group_kind::authenticated_content,
                        authenticated_content{wire_format::mls_public_message, pm->content, pm->auth});
        // The same content and auth as a PrivateMessage's plaintext, with padding.
        const private_message_content pmc{pm->content.content, pm->auth, i % 3 * 7};
        const auto type = static_cast<std::uint8_t>(pm->content.type());
        const auto out = serialize(pmc);
        if (!out) fail("a PrivateMessageContent seed does not encode");
        seeds.add(group_kind::private_message_content, *out, type);
      }
    }
    seeds.add_value(group_kind::sender_data,
                    sender_data{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(1000 * i), {1, 2, 3, 4}});
  }
}

}  // namespace sealwire::fuzz
