// SPDX-License-Identifier: Apache-2.0
// The sealwire-hpke batch protocol: one JSON request per line in, one JSON
// response per line out (docs/hpke-tool.md). Byte strings are hex, suite ids
// integers. Malformed input gets an error response, never a crash. JSON is
// read and written with nlohmann-json, held to the protocol's limits.
#pragma once

#include <sealwire/hpke/hpke.hpp>

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace sealwire::tool {

// The protocol's limits: a request line (without its newline) of at most
// max_line_size bytes, and JSON nested at most max_depth arrays and objects
// deep. Past either the request gets an error response.
inline constexpr std::size_t max_line_size = std::size_t{4} << 20;
inline constexpr int max_depth = 32;

// handle_batch_line answers one request line (without its newline) with one
// response line (without a newline): a JSON object, always.
[[nodiscard]] std::string handle_batch_line(std::string_view line);

// run_batch answers every line of `in` on `out`, one response line each,
// flushed per line; blank lines are skipped. A line longer than
// max_line_size is answered with an error without being held in memory.
// Returns 0 at the end of the input.
int run_batch(std::istream& in, std::ostream& out);

// errc_name is the snake_case name of an HPKE error ("open_failed", ...).
[[nodiscard]] std::string_view errc_name(std::error_code ec);

}  // namespace sealwire::tool
