// SPDX-License-Identifier: Apache-2.0
// Names of algorithm identifiers: every id type has to_string (in its own
// namespace, found by argument-dependent lookup) and sealwire::parse<Id>.
//   auto kem = sealwire::parse<sealwire::hpke::kem_id>("x25519");   // result<kem_id>
//   std::string_view name = to_string(*kem);                       // "x25519"
// The ids themselves are in aead.hpp, kdf.hpp, hpke/suite.hpp and
// record/config.hpp, which include this header.
#pragma once

#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace sealwire {

// parse reads an identifier of type Id from its name, as to_string writes it
// (ASCII case ignored). Ids that have a number in a registry (the HPKE and
// record ids) are also read from that number, in decimal or 0x-prefixed
// hexadecimal. Error: crypto_errc::unknown_algorithm. Each id's header
// declares its specialisation.
template <class Id>
[[nodiscard]] result<Id> parse(std::string_view text) noexcept;

// naming holds the table helpers the id headers implement parse with.
namespace naming {

// name_equal compares ASCII case-insensitively.
[[nodiscard]] constexpr bool name_equal(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// parse_number reads a decimal or 0x-prefixed hexadecimal number below 2^32;
// false for anything else (empty, a sign, other characters, overflow).
[[nodiscard]] constexpr bool parse_number(std::string_view text, std::uint32_t& out) noexcept {
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return false;
  std::uint64_t v = 0;
  for (char c : text) {
    unsigned d;
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      d = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return false;
    }
    v = v * base + d;
    if (v > 0xffffffffULL) return false;
  }
  out = static_cast<std::uint32_t>(v);
  return true;
}

// entry pairs an id with its name.
template <class Id>
struct entry {
  Id id;
  std::string_view name;
};

// name_of looks an id up in a table; "unknown" when it is not there.
template <class Id, std::size_t N>
[[nodiscard]] constexpr std::string_view name_of(Id id, const entry<Id> (&table)[N]) noexcept {
  for (const auto& e : table)
    if (e.id == id) return e.name;
  return "unknown";
}

// parse_in reads a name from a table, or (numbered) a number that is the
// value of one of the table's ids.
template <class Id, std::size_t N>
[[nodiscard]] result<Id> parse_in(std::string_view text, const entry<Id> (&table)[N], bool numbered) noexcept {
  for (const auto& e : table)
    if (name_equal(text, e.name)) return e.id;
  std::uint32_t v = 0;
  if (numbered && parse_number(text, v)) {
    for (const auto& e : table)
      if (static_cast<std::uint32_t>(e.id) == v) return e.id;
  }
  return crypto_errc::unknown_algorithm;
}

}  // namespace naming
}  // namespace sealwire
