// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the datagram channel's receive path (docs/protocol.md 9.4).
// A receiving channel opens a sequence of datagrams: raw fuzzer bytes, and
// genuine datagrams this target seals itself with the matching sending
// channel (whole, with one byte changed, or replayed later), across key
// updates.
//
// Input: byte 0 picks the AEAD (bits 0-1), 32-bit sequence numbers (bit 2)
// and a 64-record replay window (bit 3). Then operations, each
// u8 op || u8 len || len bytes (shorter at the end):
//   op % 5 == 0: open the bytes as a datagram
//   op % 5 == 1: seal the bytes as one message (two when op bit 7 is set,
//                split in the middle) and open the datagram
//   op % 5 == 2: seal the bytes as one message, change the byte at
//                bytes[0] % size to bytes[1] (when not equal) and open it
//   op % 5 == 3: start a new sending epoch (time moves past the lifetime)
//   op % 5 == 4: open again the datagram sealed bytes[0] seals ago
// Each operation advances time by op >> 3 milliseconds.
//
// The channel's secrets are a hash of the whole input, so the fuzzer cannot
// make a valid record itself (its tag would depend on the key, which
// depends on the tag): genuine records come only from the sealing
// operations, and the invariants are exact.
//
// Invariants beyond the sanitizers: every message released was sealed by
// the sender under the (epoch, sequence number) reported, with the same
// bytes, and is released at most once; a changed datagram never releases
// the changed record; the channel never fails (no integrity limit is near).
#include <sealwire/record/datagram/channel.hpp>

#include "harness.hpp"

#include <array>
#include <chrono>
#include <map>
#include <set>

using namespace sealwire;
using namespace sealwire::record::datagram;

namespace {

const record::record_aead aeads[4] = {record::record_aead::chacha20_poly1305, record::record_aead::xchacha20_poly1305,
                                      record::record_aead::aes128_gcm, record::record_aead::aes256_gcm};

struct peer {
  channel tx, rx;
};

peer make_peers(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t flags = data[0];
  config cfg;
  cfg.sequence_bits = (flags & 4) != 0 ? 32 : 16;
  cfg.replay_window = (flags & 8) != 0 ? 64 : 1024;
  cfg.previous_epoch_lifetime = std::chrono::milliseconds(100);
  // One secret per direction, from the input.
  std::array<std::uint8_t, 32> a{}, b{};
  crypto::sha256::hash(a, std::span(data, size));
  crypto::sha256::hash(b, a);
  auto tx = channel::from_secrets(aeads[flags & 3], hpke::kdf_id::hkdf_sha256, a, b, cfg);
  auto rx = channel::from_secrets(aeads[flags & 3], hpke::kdf_id::hkdf_sha256, b, a, cfg);
  if (!tx || !rx) fuzz::fatal("channel setup failed");
  return {std::move(*tx), std::move(*rx)};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  peer p = make_peers(data, size);
  std::map<std::pair<std::uint64_t, std::uint64_t>, fuzz::bytes> sent;
  std::set<std::pair<std::uint64_t, std::uint64_t>> released;
  std::vector<fuzz::bytes> history;
  clock::time_point now{};
  std::uint64_t seq = 0, epoch = 0;  // the sender's next record

  // open feeds one datagram; `changed` names a record that must not open.
  auto open = [&](fuzz::bytes d, const std::pair<std::uint64_t, std::uint64_t>* changed) {
    std::vector<message> out;
    const auto n = p.rx.open(d, out, now);
    if (!n) fuzz::fatal("open failed: the channel must only drop records");
    if (*n != out.size()) fuzz::fatal("open's count differs from the messages appended");
    for (const auto& m : out) {
      const auto id = std::make_pair(m.epoch, m.sequence);
      const auto it = sent.find(id);
      if (it == sent.end()) fuzz::fatal("released a message never sealed");
      if (!std::equal(m.data.begin(), m.data.end(), it->second.begin(), it->second.end())) {
        fuzz::fatal("released a message with other bytes than sealed");
      }
      if (changed != nullptr && id == *changed) fuzz::fatal("released a changed record");
      if (!released.insert(id).second) fuzz::fatal("released a message twice");
    }
  };
  auto seal = [&](std::span<const std::uint8_t> m, bool two) {
    const std::size_t half = two ? m.size() / 2 : m.size();
    const record::bytes_view parts[2] = {m.first(half), m.subspan(half)};
    fuzz::bytes d(1200);
    const auto n = p.tx.seal(d, std::span<const record::bytes_view>(parts, two ? 2 : 1));
    if (!n) fuzz::fatal("seal failed");
    d.resize(*n);
    epoch = p.tx.send_epoch();
    for (int i = 0; i < (two ? 2 : 1); ++i) {
      sent[{epoch, seq}] = fuzz::bytes(parts[i].begin(), parts[i].end());
      ++seq;
    }
    history.push_back(d);
    return d;
  };

  std::size_t pos = 1;
  while (pos + 2 <= size) {
    const std::uint8_t op = data[pos];
    const std::size_t len = std::min<std::size_t>(data[pos + 1], size - pos - 2);
    const std::span<const std::uint8_t> arg(data + pos + 2, len);
    pos += 2 + len;
    now += std::chrono::milliseconds(op >> 3);
    switch (op % 5) {
      case 0: open(fuzz::bytes(arg.begin(), arg.end()), nullptr); break;
      case 1: open(seal(arg, (op & 0x80) != 0), nullptr); break;
      case 2: {
        const auto id = std::make_pair(p.tx.send_epoch(), seq);
        fuzz::bytes d = seal(arg, false);
        if (len >= 2 && d[arg[0] % d.size()] != arg[1]) {
          d[arg[0] % d.size()] = arg[1];
          open(std::move(d), &id);
        }
        break;
      }
      case 3:
        now += std::chrono::milliseconds(100);
        if (!p.tx.update_keys(now)) fuzz::fatal("update_keys refused after the lifetime");
        seq = 0;
        break;
      case 4:
        if (!history.empty() && len >= 1) {
          const std::size_t back = arg[0] % history.size();
          open(history[history.size() - 1 - back], nullptr);
        }
        break;
    }
  }
  if (p.rx.error()) fuzz::fatal("the channel failed");
  return 0;
}
