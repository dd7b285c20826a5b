// SPDX-License-Identifier: Apache-2.0
// RFC 9420 group framing: PrivateMessage protect and unprotect of 64 B,
// 1 KiB and 16 KiB application messages for cipher suites 1 and 3, beside
// the raw AEAD seal/open plus Ed25519 sign/verify they contain ("raw"), and
// the secret-tree derivation of generation 1000 of a leaf in a 1024-leaf tree.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/ed25519.hpp>
#include <sealwire/record/group/group_framing.hpp>

#include "common.hpp"

#include <array>
#include <string>
#include <vector>

namespace sealwire::bench {
namespace {

using record::group::cipher_suite_id;
using record::group::group_framing;
using record::group::private_message;
using record::group::signature_private_key;
using record::group::suite_algorithms;

struct group_case {
  record::group::group_context context;
  bytes secret = pattern(32, 1), sender_data = pattern(32, 2), membership = pattern(32, 3);
  signature_private_key key =
      signature_private_key::from_bytes(record::group::signature_scheme::ed25519, pattern(32, 4)).value();
  std::vector<bytes> members;

  explicit group_case(cipher_suite_id id) {
    context.cipher_suite = static_cast<record::group::cipher_suite>(id);
    context.group_id = pattern(16, 5);
    context.epoch = 1;
    context.tree_hash = pattern(32, 6);
    context.confirmed_transcript_hash = pattern(32, 7);
    members.emplace_back(key.public_key().begin(), key.public_key().end());
    members.push_back(pattern(32, 8));  // leaf 1: another member (never signs here)
  }
  group_framing framing() const {
    return group_framing::create(context, {secret, sender_data, membership}, members).value();
  }
};

const char* suite_name(cipher_suite_id id) {
  return id == cipher_suite_id::x25519_aes128gcm_sha256_ed25519 ? "suite1" : "suite3";
}

void register_suite(cipher_suite_id id, std::size_t size) {
  const std::string name = suite_name(id);
  add("group." + name + ".protect", size, "sealwire", [id, size](benchmark::State& st) {
    group_case c(id);
    auto sender = c.framing();
    const bytes msg = pattern(size, 9);
    measure(st, size, [&] {
      auto m = sender.protect_private(0, c.key, msg);
      benchmark::DoNotOptimize(m);
    });
  });
  add("group." + name + ".protect", size, "raw", [id, size](benchmark::State& st) {
    // What protect cannot avoid: one AEAD seal of the content and one signature.
    const auto suite = suite_algorithms(id);
    const auto ed = crypto::ed25519::signing_key::from_seed(pattern(32, 4)).value();
    const bytes msg = pattern(size, 9), key = pattern(suite.key_size(), 10), nonce = pattern(12, 11);
    bytes out(size + 16);
    std::array<std::uint8_t, 64> sig{};
    measure(st, size, [&] {
      ed.sign(sig, msg);
      benchmark::DoNotOptimize(crypto::aead_seal(suite.aead(), out, msg, {}, nonce, key).has_value());
      benchmark::DoNotOptimize(sig);
    });
  });
  add("group." + name + ".unprotect", size, "sealwire", [id, size](benchmark::State& st) {
    group_case c(id);
    auto sender = c.framing();
    const bytes msg = pattern(size, 9);
    const std::size_t pool = size > 4096 ? 128 : 512;
    std::vector<private_message> sent;
    for (std::size_t i = 0; i < pool; ++i) sent.push_back(sender.protect_private(0, c.key, msg).value());
    auto receiver = c.framing();
    std::size_t next = 0;
    measure(st, size, [&] {
      if (next == pool) {  // a fresh receiver takes the same messages again
        receiver = c.framing();
        next = 0;
      }
      auto got = receiver.unprotect_private(sent[next++]);
      benchmark::DoNotOptimize(got);
    });
  });
  add("group." + name + ".unprotect", size, "raw", [id, size](benchmark::State& st) {
    const auto suite = suite_algorithms(id);
    const auto ed = crypto::ed25519::signing_key::from_seed(pattern(32, 4)).value();
    const bytes msg = pattern(size, 9), key = pattern(suite.key_size(), 10), nonce = pattern(12, 11);
    bytes sealed(size + 16), out(size);
    (void)crypto::aead_seal(suite.aead(), sealed, msg, {}, nonce, key);
    std::array<std::uint8_t, 64> sig{};
    ed.sign(sig, msg);
    measure(st, size, [&] {
      benchmark::DoNotOptimize(crypto::aead_open(suite.aead(), out, sealed, {}, nonce, key).has_value());
      benchmark::DoNotOptimize(crypto::ed25519::verify(ed.public_key(), msg, sig).has_value());
    });
  });
}

void register_group() {
  for (auto id : {cipher_suite_id::x25519_aes128gcm_sha256_ed25519,
                  cipher_suite_id::x25519_chacha20poly1305_sha256_ed25519}) {
    for (std::size_t size : {64U, 1024U, 16384U}) register_suite(id, size);
  }
  // Generation 1000 of leaf 517 in a 1024-leaf tree: ten tree levels, the
  // two ratchet secrets, 1000 ratchet steps and the key and nonce.
  add("group.secret_tree.gen1000", 1024, "sealwire", [](benchmark::State& st) {
    const suite_algorithms suite(cipher_suite_id::x25519_aes128gcm_sha256_ed25519);
    const bytes secret = pattern(32, 12);
    measure(st, 0, [&] {
      auto tree = record::group::secret_tree::create(suite, secret, 1024).value();
      auto key = tree.key_for(517, record::group::ratchet_type::application, 1000);
      benchmark::DoNotOptimize(key);
    });
  });
}

const registrar reg(&register_group);

}  // namespace
}  // namespace sealwire::bench
