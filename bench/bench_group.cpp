// SPDX-License-Identifier: Apache-2.0
// RFC 9420 group framing: PrivateMessage protect and unprotect of 64 B,
// 1 KiB and 16 KiB application messages for cipher suites 1 and 3, beside
// the raw AEAD seal/open plus Ed25519 sign/verify they contain ("raw"), and
// the secret-tree derivation of generation 1000 of a leaf in a 1024-leaf tree;
// group sessions: producing and processing a Commit that adds one member to
// groups of 2, 10, 100 and 1000, beside the HPKE work it contains.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/ed25519.hpp>
#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_framing.hpp>
#include <sealwire/record/group/group_session.hpp>

#include "common.hpp"

#include <array>
#include <chrono>
#include <optional>
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

// session_case is a group of n members of suite 1: the committer (leaf 0)
// and one receiver are sessions; the others exist as leaves only.
struct session_case {
  const suite_algorithms suite{cipher_suite_id::x25519_aes128gcm_sha256_ed25519};
  std::optional<record::group::group_session> committer, receiver;

  explicit session_case(std::size_t n) {
    using namespace record::group;
    committer = group_session::create(bundle("c"), pattern(16, 13)).value();
    if (n < 2) return;
    auto recv = bundle("r");
    std::vector<key_package> kps{recv.package};
    for (std::size_t i = 2; i < n; ++i) kps.push_back(bundle("m" + std::to_string(i)).package);
    const auto out = committer->commit_add(kps).value();
    (void)committer->merge_pending_commit().value();
    receiver = group_session::join(out.welcome, std::move(recv)).value();
  }
  record::group::key_package_bundle bundle(const std::string& name) const {
    return record::group::make_key_package(suite, bytes(name.begin(), name.end()),
                                           signature_private_key::generate(suite.signature()).value())
        .value();
  }
};

// manual runs `iterations` rounds of setup (untimed), body (timed in TSC
// cycles and wall time) and teardown (untimed): a Commit moves the group to
// a new epoch, so each round undoes the last one's change.
template <class Setup, class Body, class Teardown>
void manual(benchmark::State& st, Setup&& setup, Body&& body, Teardown&& teardown) {
  std::uint64_t ticks = 0;
  for (auto _ : st) {
    setup();
    const auto w0 = std::chrono::steady_clock::now();
    const std::uint64_t t0 = __rdtsc();
    body();
    ticks += __rdtsc() - t0;
    st.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
    teardown();
  }
  st.counters["cycles_per_op"] = static_cast<double>(ticks) / static_cast<double>(st.iterations());
}

void register_sessions() {
  for (const std::size_t n : {2U, 10U, 100U, 1000U}) {
    const int rounds = n >= 1000 ? 5 : (n >= 100 ? 20 : 50);
    const std::string size = std::to_string(n);
    // Producing a Commit that adds one member: n - 1 EncryptWithLabel of the
    // commit secret, the Welcome, the tree hash, signatures (discarded after).
    benchmark::RegisterBenchmark(("group.session.commit_add/" + size + "/sealwire").c_str(),
                                 [n](benchmark::State& st) {
                                   session_case c(n);
                                   const auto joiner = c.bundle("j");
                                   const std::vector<record::group::key_package> kps{joiner.package};
                                   manual(
                                       st, [] {},
                                       [&] { benchmark::DoNotOptimize(c.committer->commit_add(kps).value()); },
                                       [&] { c.committer->discard_pending_commit(); });
                                 })
        ->Iterations(rounds)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    // Processing it (one receiver): membership tag, signatures, key package
    // validation, tree hash, one DecryptWithLabel, key schedule. The joiner
    // is removed again (untimed) after each round.
    benchmark::RegisterBenchmark(("group.session.process_add/" + size + "/sealwire").c_str(),
                                 [n](benchmark::State& st) {
                                   session_case c(n);
                                   const auto joiner = c.bundle("j");
                                   const std::vector<record::group::key_package> kps{joiner.package};
                                   bytes wire;
                                   std::uint32_t added = 0;
                                   manual(
                                       st, [&] { wire = c.committer->commit_add(kps).value().commit; },
                                       [&] { added = c.receiver->process(wire).value().added.at(0); },
                                       [&] {
                                         (void)c.committer->merge_pending_commit().value();
                                         const std::vector<std::uint32_t> rm{added};
                                         const auto out = c.committer->commit_remove(rm).value();
                                         (void)c.committer->merge_pending_commit().value();
                                         (void)c.receiver->process(out.commit).value();
                                       });
                                 })
        ->Iterations(rounds)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    // What the Commit cannot avoid without TreeKEM: n - 1 EncryptWithLabel
    // of a 32-byte secret (producing) and one DecryptWithLabel (processing).
    add("group.session.commit_add", n, "raw_hpke", [n](benchmark::State& st) {
      const suite_algorithms suite(cipher_suite_id::x25519_aes128gcm_sha256_ed25519);
      const auto pair = hpke::derive_key_pair(suite.hpke().kem, pattern(32, 14)).value();
      const bytes secret = pattern(32, 15), context = pattern(100, 16);
      measure(st, 0, [&] {
        for (std::size_t i = 1; i < n; ++i) {
          benchmark::DoNotOptimize(
              record::group::encrypt_with_label(suite, pair.pub, "UpdatePathNode", context, secret).value());
        }
      });
    });
    add("group.session.process_add", n, "raw_hpke", [](benchmark::State& st) {
      const suite_algorithms suite(cipher_suite_id::x25519_aes128gcm_sha256_ed25519);
      const auto pair = hpke::derive_key_pair(suite.hpke().kem, pattern(32, 14)).value();
      const bytes secret = pattern(32, 15), context = pattern(100, 16);
      const auto ct = record::group::encrypt_with_label(suite, pair.pub, "UpdatePathNode", context, secret).value();
      measure(st, 0, [&] {
        benchmark::DoNotOptimize(record::group::decrypt_with_label(suite, pair.priv, "UpdatePathNode", context,
                                                                   ct.kem_output, ct.ciphertext)
                                     .value());
      });
    });
  }
}

const registrar reg(&register_group);
const registrar sessions(&register_sessions);

}  // namespace
}  // namespace sealwire::bench
