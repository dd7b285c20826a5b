// SPDX-License-Identifier: Apache-2.0
// The record_errc error category.
#include <sealwire/record/error.hpp>

#include <string>

namespace sealwire {
namespace {

class record_category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "sealwire.record"; }
  std::string message(int ev) const override {
    switch (static_cast<record_errc>(ev)) {
      case record_errc::bad_record_mac: return "record authentication failed";
      case record_errc::record_too_large: return "record too large";
      case record_errc::unexpected_record: return "unexpected record";
      case record_errc::truncated: return "stream truncated (no close record)";
      case record_errc::handshake_failed: return "handshake failed";
      case record_errc::bad_handshake_message: return "malformed handshake message";
      case record_errc::unsupported_version: return "unsupported protocol version";
      case record_errc::no_common_suite: return "no cipher suite in common";
      case record_errc::server_key_mismatch: return "server key does not match the pinned key";
      case record_errc::client_auth_required: return "client authentication required";
      case record_errc::too_many_empty_records: return "too many consecutive empty records";
      case record_errc::sequence_exhausted: return "sequence number exhausted";
      case record_errc::no_application_protocol: return "no application protocol in common";
      case record_errc::unknown_server_key: return "the client pinned none of the server's keys";
      case record_errc::peer_error_close: return "the peer closed the connection with an error reason";
      case record_errc::closed: return "connection closed";
      case record_errc::bad_state: return "operation not valid in this state";
      case record_errc::send_buffer_full: return "send buffer full";
      case record_errc::missing_key: return "configuration lacks a key (the pinned server key, or the server's static key)";
      case record_errc::kem_mismatch: return "configuration keys belong to different KEMs";
      case record_errc::unsupported_algorithm: return "configuration names an algorithm the record protocol does not offer";
      case record_errc::invalid_algorithm_list:
        return "configuration list is empty or too long (algorithms, pinned keys or application protocols)";
      case record_errc::invalid_limit: return "configuration limit out of range";
      case record_errc::missing_client_policy:
        return "configuration requires client authentication without a client policy (set accept_client or "
               "accept_any_client_key)";
      case record_errc::out_of_memory: return "a connection buffer could not be allocated";
    }
    return "unknown sealwire.record error " + std::to_string(ev);
  }
  std::error_condition default_error_condition(int ev) const noexcept override {
    switch (static_cast<record_errc>(ev)) {
      case record_errc::bad_record_mac:
      case record_errc::server_key_mismatch:
      case record_errc::unknown_server_key: return condition::authentication_failed;
      case record_errc::missing_key:
      case record_errc::kem_mismatch: return condition::invalid_key;
      case record_errc::record_too_large:
      case record_errc::too_many_empty_records:
      case record_errc::sequence_exhausted: return condition::limit_reached;
      default: return {ev, *this};
    }
  }
};

}  // namespace

const std::error_category& record_category() noexcept {
  static const record_category_impl cat;
  return cat;
}

}  // namespace sealwire
