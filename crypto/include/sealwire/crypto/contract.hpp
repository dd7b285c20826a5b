// SPDX-License-Identifier: Apache-2.0
// Contract failures: API misuse (wrong call order, a length limit a caller must
// respect) is a programming error, reported through one replaceable handler.
// result.hpp includes it; an application only installs a handler, if any.
#pragma once

#include <sealwire/crypto/export.hpp>

namespace sealwire {

// contract_violation describes a failed precondition.
struct contract_violation {
  const char* condition;  // the failed condition, as written in the source
  const char* file;       // the source file of the check
  int line;               // its line
  const char* function;   // the function that made the check
};

// contract_handler is called on a contract failure. It must not return (it may
// log and abort, or exit); if it returns, std::abort is called. Primitives are
// noexcept, so a handler that throws terminates the program.
using contract_handler = void (*)(const contract_violation&) noexcept;

// set_contract_handler installs h (nullptr restores the default, which prints
// the violation to stderr and aborts) and returns the previous handler.
SEALWIRE_API contract_handler set_contract_handler(contract_handler h) noexcept;

// contract_failure reports a violation to the installed handler.
[[noreturn]] SEALWIRE_API void contract_failure(const char* condition, const char* file, int line,
                                   const char* function) noexcept;

}  // namespace sealwire

// SEALWIRE_EXPECTS checks a precondition in every build type.
#define SEALWIRE_EXPECTS(cond)                                                   \
  ((cond) ? static_cast<void>(0)                                               \
          : ::sealwire::contract_failure(#cond, __FILE__, __LINE__, __func__))
