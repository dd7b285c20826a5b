// SPDX-License-Identifier: Apache-2.0
// Parsers for the third-party vector formats in tests/vectors/stream:
// Botan .vec, Crypto++ TestVectors text, ECRYPT eSTREAM, Strombergson ChaCha;
// and the X-Wing draft's JSON vectors (tests/vectors/pq).
#pragma once

#include "vectors.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sealwire::test {

// botan_entry is one blank-line-separated record of a Botan .vec file.
struct botan_entry {
  std::string section;                        // the [Section] it is in
  std::map<std::string, std::string> fields;  // Key = value (raw text)
  int line = 0;
  [[nodiscard]] bool has(const std::string& k) const { return fields.count(k) != 0; }
  [[nodiscard]] bytes get(const std::string& k) const;  // hex, empty when absent
};
[[nodiscard]] std::vector<botan_entry> parse_botan_vec(const std::string& text);

// cryptopp_test is one "Test:" record of a Crypto++ TestVectors file, with
// every field in effect at that point: fields persist between tests, except
// the positions (Seek, Seek64, InitialBlock), which apply to one test; Name
// starts afresh.
struct cryptopp_test {
  std::map<std::string, std::string> fields;  // raw values, continuations joined
  std::string test;                           // Encrypt, Resync, Verify, NotVerify, ...
  int line = 0;
  [[nodiscard]] bool has(const std::string& k) const { return fields.count(k) != 0; }
  [[nodiscard]] bytes data(const std::string& k) const;             // decoded bytes
  [[nodiscard]] std::uint64_t number(const std::string& k) const;   // decimal or 0x hex
};
[[nodiscard]] std::vector<cryptopp_test> parse_cryptopp(const std::string& text);
// cryptopp_decode decodes a Crypto++ value: hex (spaces, 0x allowed),
// "quoted text", and "rN XX" for XX repeated N times.
[[nodiscard]] bytes cryptopp_decode(const std::string& value);

// estream_vector is one ECRYPT test vector: keystream segments of the
// encryption of zeros, and the XOR of all 64-byte blocks of that stream.
struct estream_segment {
  std::size_t begin = 0, end = 0;  // inclusive byte range
  bytes data;
};
struct estream_vector {
  int set = 0, index = 0;
  bytes key, iv, xor_digest;
  std::vector<estream_segment> segments;
};
[[nodiscard]] std::vector<estream_vector> parse_estream(const std::string& text);

// strombergson_vector is one original-ChaCha case with keystream blocks 0 and 1.
struct strombergson_vector {
  bytes key, iv;
  unsigned rounds = 0;
  bytes block0, block1;
};
[[nodiscard]] std::vector<strombergson_vector> parse_strombergson(const std::string& text);

// xwing_vector is one case of pq/xwing-test-vectors.json (hex fields decoded).
struct xwing_vector {
  bytes seed, sk, eseed, pk, ct, ss;
};
[[nodiscard]] std::vector<xwing_vector> read_xwing_vectors(const std::filesystem::path& p);

}  // namespace sealwire::test
