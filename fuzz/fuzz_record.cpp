// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the record layer's receive path. The first byte picks the
// configuration (client auth, AEAD, KDF, KEM), the second the receiving role
// (bit 0), whether the handshake is done first (bit 1) and the mode (bit 2),
// the third the fragmentation; the rest is fed to the receiver in those
// fragments. Built twice: as
// fuzz_record (bytes after a completed handshake, or before it when flag bit
// 1 is set) and, with SEALWIRE_FUZZ_HANDSHAKE, as fuzz_handshake (always a
// peer's handshake flight: the handshake message parsers).
//
// Invariants checked beyond the sanitizers: no more plaintext than input
// bytes, plaintext only from a connection whose handshake completed, and a
// failed connection stays failed.
//
// fuzz_record has a second mode (flag bit 2, after the handshake): the rest
// is a list of records whose inner plaintexts the fuzzer writes itself
// (record_inner.hpp), sealed by the peer's keys through the test hook, so
// that the hidden inner type, padding, key-update and close bodies (and
// close reasons) are fuzzed behind a valid tag. There the receiver must release exactly the
// application bytes, and end in exactly the error, that docs/protocol.md
// prescribes.
#include "harness.hpp"
#include "record_hook.hpp"
#include "record_inner.hpp"

using namespace sealwire;

namespace {

using hook = record::detail::connection_test_access;

// fuzz_inner seals the fuzzer's records from the peer of `target` and checks
// what `target` makes of them against the specification.
void fuzz_inner(record::connection& target, record::connection& peer, record::bytes_view input,
                const record::test::splitter& split) {
  const auto records = fuzz::parse_inner_records(input);
  record::test::pump_bytes wire;
  for (const auto& r : records) {
    const auto sealed = hook::seal_inner(peer, fuzz::record_protected, r.inner);
    wire.insert(wire.end(), sealed.begin(), sealed.end());
    if (fuzz::inner_type(r.inner) == fuzz::record_key_update) {
      // The peer's own key_update (sealed and dropped) moves its sending
      // direction to the next secret, as the receiver will on opening ours.
      if (!peer.update_keys()) fuzz::fatal("update_keys on a healthy connection");
      static_cast<void>(record::test::take_pending(peer));
    }
  }
  const auto expected = fuzz::expected_receive(records, fuzz::small_limits());

  record::test::pump_bytes plaintext;
  std::error_code e = record::test::deliver(target, wire, split, &plaintext);
  if (!e) {
    const auto end = target.end_of_input();
    if (!end) e = end.error();
  }
  if (e != expected.error) {
    std::fprintf(stderr, "receiver: %s; specification: %s\n", e.message().c_str(), expected.error.message().c_str());
    fuzz::fatal("the receiver's verdict on the inner plaintexts differs from docs/protocol.md");
  }
  if (plaintext != expected.plaintext) fuzz::fatal("the receiver released other application bytes than it should");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const auto options = fuzz::record_options::from(data[0]);
  const std::uint8_t flags = data[1];
  const bool to_server = (flags & 1) != 0;
#if defined(SEALWIRE_FUZZ_HANDSHAKE)
  const bool before_handshake = true;
#else
  const bool before_handshake = (flags & 2) != 0;
#endif
  const auto split = fuzz::splits(data[2]);
  const record::bytes_view input(data + 3, size - 3);

  auto ep = fuzz::make_endpoints(options, 7);
  if (!before_handshake && record::test::run_handshake(ep.client, ep.server))
    fuzz::fatal("the handshake between honest endpoints failed");
  record::connection& target = to_server ? ep.server : ep.client;
#if !defined(SEALWIRE_FUZZ_HANDSHAKE)
  if (!before_handshake && (flags & 4) != 0) {
    fuzz_inner(target, to_server ? ep.client : ep.server, input, split);
    return 0;
  }
#endif

  record::test::pump_bytes plaintext;
  const std::error_code e = record::test::deliver(target, input, split, &plaintext);
  if (!e) static_cast<void>(target.end_of_input());

  if (plaintext.size() > input.size()) fuzz::fatal("more plaintext than input");
  if (!plaintext.empty() && !target.handshake_complete()) fuzz::fatal("plaintext before the handshake completed");
  if (target.error()) {
    const std::uint8_t one = 0;
    auto again = target.receive(record::bytes_view(&one, 1));
    if (again) fuzz::fatal("a failed connection accepted more input");
    if (target.readable() != 0) fuzz::fatal("a failed connection released plaintext");
  }
  return 0;
}
