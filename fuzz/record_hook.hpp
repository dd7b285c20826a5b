// SPDX-License-Identifier: Apache-2.0
// The record fuzz target's hook into a connection (the friend the
// connection declares for tests): sealing a record whose inner plaintext is
// whatever the fuzzer chose, inner type and padding included, with the
// connection's sending key, IV and sequence number (docs/protocol.md 3.1).
// The public API only seals well-formed inner plaintexts, so without this
// the parser behind the tag is reached only by records from the seeds.
#pragma once

#include <sealwire/crypto/aead.hpp>
#include <sealwire/record/connection.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace sealwire::record::detail {

struct connection_test_access {
  // seal_inner returns the record `type || u24 length || AEAD-Seal(inner)`
  // under c's sending direction and advances its sequence number. The
  // nonce is built here from the specification, not by the library.
  static std::vector<std::uint8_t> seal_inner(connection& c, std::uint8_t type, bytes_view inner) {
    direction_keys& tx = c.tx_;
    const std::size_t body = inner.size() + record_tag_size;
    std::vector<std::uint8_t> out(record_header_size + body);
    out[0] = type;
    out[1] = static_cast<std::uint8_t>(body >> 16);
    out[2] = static_cast<std::uint8_t>(body >> 8);
    out[3] = static_cast<std::uint8_t>(body);
    std::uint8_t nonce[24];
    std::memcpy(nonce, tx.iv.span().data(), tx.nonce_size);
    for (std::size_t i = 0; i < 8; ++i)
      nonce[tx.nonce_size - 8 + i] ^= static_cast<std::uint8_t>(tx.seq >> (56 - 8 * i));
    crypto::aead_sealer s;
    if (!s.init(tx.key, bytes_view(nonce, tx.nonce_size))) std::abort();
    s.aad(bytes_view(out.data(), record_header_size));
    std::uint8_t* ct = out.data() + record_header_size;
    if (!inner.empty() && !s.update(std::span<std::uint8_t>(ct, inner.size()), inner)) std::abort();
    s.finish(std::span<std::uint8_t, record_tag_size>(ct + inner.size(), record_tag_size));
    ++tx.seq;
    return out;
  }
};

}  // namespace sealwire::record::detail
