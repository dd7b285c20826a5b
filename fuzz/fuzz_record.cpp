// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the record layer's receive path. The first byte picks the
// configuration (client auth, AEAD, KDF, KEM), the second the receiving role
// and whether the handshake is done first, the third the fragmentation; the
// rest is fed to the receiver in those fragments. Built twice: as
// fuzz_record (bytes after a completed handshake, or before it when flag bit
// 1 is set) and, with SEALWIRE_FUZZ_HANDSHAKE, as fuzz_handshake (always a
// peer's handshake flight: the handshake message parsers).
//
// Invariants checked beyond the sanitizers: no more plaintext than input
// bytes, plaintext only from a connection whose handshake completed, and a
// failed connection stays failed.
#include "harness.hpp"

using namespace sealwire;

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
