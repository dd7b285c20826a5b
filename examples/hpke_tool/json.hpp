// SPDX-License-Identifier: Apache-2.0
// A small JSON reader and writer for the sealwire-hpke batch protocol: the
// subset the protocol uses (objects, arrays, strings, integers, booleans,
// null), strict about syntax, with a nesting limit, and no exceptions on
// malformed input.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sealwire::tool::json {

struct value;
using array = std::vector<value>;
using object = std::vector<std::pair<std::string, value>>;

struct value {
  std::variant<std::nullptr_t, bool, std::int64_t, std::string, array, object> v = nullptr;

  value() = default;
  value(std::nullptr_t) {}                                   // NOLINT(implicit)
  value(bool b) : v(b) {}                                    // NOLINT(implicit)
  value(std::int64_t i) : v(i) {}                            // NOLINT(implicit)
  value(std::string s) : v(std::move(s)) {}                  // NOLINT(implicit)
  value(const char* s) : v(std::string(s)) {}                // NOLINT(implicit)
  value(array a) : v(std::move(a)) {}                        // NOLINT(implicit)
  value(object o) : v(std::move(o)) {}                       // NOLINT(implicit)

  [[nodiscard]] const object* as_object() const { return std::get_if<object>(&v); }
  [[nodiscard]] const array* as_array() const { return std::get_if<array>(&v); }
  [[nodiscard]] const std::string* as_string() const { return std::get_if<std::string>(&v); }
  [[nodiscard]] const std::int64_t* as_int() const { return std::get_if<std::int64_t>(&v); }
  // find returns the member `key` of an object, or nullptr.
  [[nodiscard]] const value* find(std::string_view key) const;
};

struct parse_error {
  std::string message;
  std::size_t offset = 0;
};

// parse reads one JSON document (surrounding whitespace allowed). Integers
// must fit in 64 bits; fractions and exponents are refused (the protocol has
// none); nesting deeper than 32 levels is refused.
[[nodiscard]] std::variant<value, parse_error> parse(std::string_view text);

// dump writes compact JSON (no spaces), members in insertion order.
[[nodiscard]] std::string dump(const value& v);

}  // namespace sealwire::tool::json
