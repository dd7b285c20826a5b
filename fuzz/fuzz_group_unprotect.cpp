// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: RFC 9420 message unprotection (group_framing). The
// first byte picks the mode:
//   0: the rest is an MLSMessage, decoded and unprotected as it is;
//   1, 2: a genuine PrivateMessage (1) or PublicMessage (2) of a fixed group
//      is made (content size and padding from bytes 1-2), the rest of the
//      input is XORed into its encoding from an offset in byte 3, and the
//      result is decoded and unprotected.
// Invariants: nothing crashes or reads out of bounds; a message that
// unprotects is exactly the genuine one (no forgery gets through, nothing
// but the genuine content is released); the unmodified message unprotects.
#include <sealwire/record/group/group_framing.hpp>
#include <sealwire/record/group/message.hpp>

#include "harness.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

using namespace sealwire;
using namespace sealwire::record::group;

namespace {

struct fixture {
  group_context context;
  bytes encryption_secret = bytes(32, 0x31), sender_data_secret = bytes(32, 0x32), membership_key = bytes(32, 0x33);
  std::vector<signature_private_key> keys;
  std::vector<bytes> members;

  fixture() {
    context.cipher_suite = static_cast<cipher_suite>(cipher_suite_id::x25519_aes128gcm_sha256_ed25519);
    context.group_id = bytes{'f', 'u', 'z', 'z'};
    context.epoch = 42;
    context.tree_hash = bytes(32, 1);
    context.confirmed_transcript_hash = bytes(32, 2);
    for (std::uint8_t i = 0; i < 3; ++i) {
      const std::array<std::uint8_t, 32> seed{static_cast<std::uint8_t>(i + 1)};
      auto k = signature_private_key::from_bytes(signature_scheme::ed25519, seed);
      if (!k) fuzz::fatal("fixed signature key");
      members.emplace_back(k->public_key().begin(), k->public_key().end());
      keys.push_back(std::move(*k));
    }
  }
  group_framing framing() const {
    auto f = group_framing::create(context, {encryption_secret, sender_data_secret, membership_key}, members);
    if (!f) fuzz::fatal("group_framing::create");
    return std::move(*f);
  }
};

const fixture& fixed() {
  static const fixture f;
  return f;
}

void unprotect_any(group_framing& f, const mls_message& m) {
  if (const auto* pub = std::get_if<public_message>(&m.body)) {
    (void)f.unprotect_public(*pub);
  } else if (const auto* priv = std::get_if<private_message>(&m.body)) {
    (void)f.unprotect_private(*priv);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  fuzz::install_deterministic_random(size);
  const fixture& fx = fixed();
  auto receiver = fx.framing();
  const std::uint8_t mode = data[0] % 3;
  if (mode == 0) {
    auto m = deserialize<mls_message>(std::span<const std::uint8_t>(data + 1, size - 1));
    if (m) unprotect_any(receiver, *m);
    return 0;
  }
  if (size < 4) return 0;
  const std::size_t length = data[1];
  protect_options options;
  options.padding = data[2] % 64;
  const std::uint32_t leaf = data[1] % 3;
  auto sender = fx.framing();
  mls_message genuine;
  if (mode == 1) {
    auto p = sender.protect_private(leaf, fx.keys[leaf], bytes(length, 0x5a), options);
    if (!p) fuzz::fatal("protect_private");
    genuine.body = std::move(*p);
  } else {
    proposal prop;
    prop.value = record::group::remove{1};
    auto p = sender.protect_public(leaf, fx.keys[leaf], prop, options);
    if (!p) fuzz::fatal("protect_public");
    genuine.body = std::move(*p);
  }
  auto wire = serialize(genuine);
  if (!wire) fuzz::fatal("serialize");
  bytes mutated = *wire;
  const std::size_t offset = data[3] % mutated.size();
  for (std::size_t i = 4; i < size && offset + i - 4 < mutated.size(); ++i) mutated[offset + i - 4] ^= data[i];
  auto decoded = deserialize<mls_message>(mutated);
  if (!decoded) return 0;
  if (auto* priv = std::get_if<private_message>(&decoded->body)) {
    const auto got = receiver.unprotect_private(*priv);
    if (got && mutated != *wire) fuzz::fatal("a modified PrivateMessage unprotected");
    if (!got && mutated == *wire) fuzz::fatal("the genuine PrivateMessage was refused");
    if (got && (got->leaf_index != leaf || std::get<bytes>(got->content.content.content) != bytes(length, 0x5a))) {
      fuzz::fatal("released content differs from what was sent");
    }
  } else if (auto* pub = std::get_if<public_message>(&decoded->body)) {
    const auto got = receiver.unprotect_public(*pub);
    if (got && mutated != *wire) fuzz::fatal("a modified PublicMessage unprotected");
    if (!got && mutated == *wire) fuzz::fatal("the genuine PublicMessage was refused");
  } else {
    unprotect_any(receiver, *decoded);
  }
  return 0;
}
