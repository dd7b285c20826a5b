// SPDX-License-Identifier: Apache-2.0
// The datagram_errc error category.
#include <sealwire/record/datagram/error.hpp>

#include <string>

namespace sealwire {
namespace {

class datagram_category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "sealwire.datagram"; }
  std::string message(int ev) const override {
    switch (static_cast<datagram_errc>(ev)) {
      case datagram_errc::message_too_large: return "message does not fit in one datagram";
      case datagram_errc::buffer_too_small: return "output buffer too small for the datagram";
      case datagram_errc::integrity_limit_reached: return "too many forged records under one key; channel closed";
      case datagram_errc::update_too_soon: return "key update sooner than the previous epoch's lifetime";
      case datagram_errc::bad_state: return "operation not valid in this state";
      case datagram_errc::invalid_config: return "datagram configuration value out of range";
    }
    return "unknown sealwire.datagram error " + std::to_string(ev);
  }
  std::error_condition default_error_condition(int ev) const noexcept override {
    switch (static_cast<datagram_errc>(ev)) {
      case datagram_errc::message_too_large:
      case datagram_errc::integrity_limit_reached: return condition::limit_reached;
      default: return {ev, *this};
    }
  }
};

}  // namespace

const std::error_category& datagram_category() noexcept {
  static const datagram_category_impl cat;
  return cat;
}

}  // namespace sealwire
