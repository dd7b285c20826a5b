// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the sealwire-hpke batch request parser and dispatcher. Any line
// must get exactly one JSON object back (a result or an error), never a crash.
#include "batch.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const std::string reply = sealwire::tool::handle_batch_line(line);
  if (reply.size() < 2 || reply.front() != '{' || reply.back() != '}') {
    __builtin_printf("batch reply is not a JSON object: %s\n", reply.c_str());
    std::abort();
  }
  if (reply.find('\n') != std::string::npos) std::abort();  // one line per reply
  return 0;
}
