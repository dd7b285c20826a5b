// SPDX-License-Identifier: Apache-2.0
// The contract-failure handler.
#include <sealwire/crypto/contract.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace sealwire {
namespace {

void default_handler(const contract_violation& v) noexcept {
  std::fprintf(stderr, "sealwire: contract violated: %s (%s:%d, in %s)\n", v.condition, v.file, v.line,
               v.function);
  std::abort();
}

std::atomic<contract_handler> g_handler{&default_handler};

}  // namespace

contract_handler set_contract_handler(contract_handler h) noexcept {
  return g_handler.exchange(h ? h : &default_handler);
}

void contract_failure(const char* condition, const char* file, int line, const char* function) noexcept {
  const contract_violation v{condition, file, line, function};
  g_handler.load()(v);
  std::abort();  // a handler must not return
}

}  // namespace sealwire
