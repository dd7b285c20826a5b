// SPDX-License-Identifier: Apache-2.0
// Internal: vectors of structures, of byte strings and of 16-bit enums for
// the MLS codec (RFC 9420 2.1.2 length prefixes through reader/writer).
#pragma once

#include <sealwire/record/group/codec.hpp>

#include <cstdint>
#include <vector>

namespace sealwire::record::group::detail {

// write_list writes `T items<V>` with encode(w, item) for each item.
template <class T>
void write_list(writer& w, const std::vector<T>& items) {
  w.vector([&] {
    for (const auto& item : items) encode(w, item);
  });
}

// read_list reads `T items<V>` with decode(sub, item) for each element.
template <class T>
void read_list(reader& r, std::vector<T>& items) {
  items.clear();
  r.vector([&](reader& sub) {
    items.emplace_back();
    decode(sub, items.back());
  });
}

// write_opaque_list writes `opaque items<V><V>`.
inline void write_opaque_list(writer& w, const std::vector<std::vector<std::uint8_t>>& items) {
  w.vector([&] {
    for (const auto& item : items) w.opaque(item);
  });
}

// read_opaque_list reads `opaque items<V><V>`.
inline void read_opaque_list(reader& r, std::vector<std::vector<std::uint8_t>>& items) {
  items.clear();
  r.vector([&](reader& sub) { items.push_back(sub.opaque()); });
}

// write_u16_list writes a vector of 16-bit enum values.
template <class E>
void write_u16_list(writer& w, const std::vector<E>& items) {
  w.vector([&] {
    for (const auto item : items) w.u16(static_cast<std::uint16_t>(item));
  });
}

// read_u16_list reads a vector of 16-bit enum values (every value carried).
template <class E>
void read_u16_list(reader& r, std::vector<E>& items) {
  items.clear();
  r.vector([&](reader& sub) { items.push_back(static_cast<E>(sub.u16())); });
}

}  // namespace sealwire::record::group::detail
