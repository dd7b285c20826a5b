// SPDX-License-Identifier: Apache-2.0
// Internal: the handshake (docs/protocol.md 4) as a unit the connection
// drives. It takes the peer's handshake messages one at a time, hands the
// messages to send to a sink, and once the traffic secrets exist hands them
// over (take_keys) and wipes everything else it derived.
#pragma once

#include <sealwire/crypto/secret.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/record/config.hpp>
#include <sealwire/record/connection.hpp>

#include "kdf.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sealwire::record::detail {

// message_sink takes one handshake message to send (it frames it).
struct message_sink {
  void* ctx = nullptr;
  void (*put)(void* ctx, bytes_view msg) noexcept = nullptr;
  void operator()(bytes_view msg) const noexcept { put(ctx, msg); }
};

// handshake_keys is what a handshake hands its connection: the choices and
// both directions' first traffic secrets.
struct handshake_keys {
  record_aead aead = record_aead::chacha20_poly1305;
  hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256;
  std::size_t nh = 0;
  crypto::secret_array<64> c_traffic;  // client to server
  crypto::secret_array<64> s_traffic;  // server to client
  crypto::secret_array<64> exporter;   // docs/protocol.md 5
  std::string app_protocol;            // the application protocol chosen (4.3)
  std::array<std::uint8_t, 8> server_key_id{};
};

// key_id writes a public key's id (docs/protocol.md 2).
void key_id(std::span<std::uint8_t, 8> out, const hpke::public_key& pk) noexcept;

class handshake {
 public:
  enum class stage : std::uint8_t {
    client_wait_server_hello,
    client_wait_server_finished,
    server_wait_client_hello,
    server_wait_client_finished,
    done,
  };

  // client builds the ClientHello and hands it to `out`. Errors: the
  // configuration's (checked by the connection before), or an HPKE failure.
  [[nodiscard]] static result<std::unique_ptr<handshake>> client(const client_config& cfg, std::size_t max_message,
                                                                 message_sink out) noexcept;
  // server waits for a ClientHello.
  [[nodiscard]] static result<std::unique_ptr<handshake>> server(const server_config& cfg) noexcept;

  // on_message handles one complete handshake message of the peer and puts
  // any reply into `out`. The error is a record_errc; the handshake is then
  // unusable (the connection drops it).
  [[nodiscard]] result<void> on_message(bytes_view msg, message_sink out) noexcept;

  // keys_ready: the traffic secrets exist; take_keys moves them out (once).
  [[nodiscard]] bool keys_ready() const noexcept { return keys_ready_; }
  [[nodiscard]] handshake_keys take_keys() noexcept;
  // complete: the peer's Finished verified.
  [[nodiscard]] bool complete() const noexcept { return at_ == stage::done; }
  // peer_key is the client's static key (server side), proven once complete
  // (and accepted by the server's policy).
  [[nodiscard]] std::vector<std::uint8_t>& peer_key() noexcept { return client_key_; }

  handshake(hpke::kdf_id kdf) noexcept : th_(kdf) {}

 private:
  result<void> client_on_server_hello(bytes_view msg) noexcept;
  result<void> client_on_server_finished(bytes_view msg, message_sink out) noexcept;
  result<void> server_on_client_hello(bytes_view msg, message_sink out) noexcept;
  result<void> server_on_client_finished(bytes_view msg) noexcept;
  result<void> check_finished(bytes_view msg, std::uint8_t type, record_errc mismatch) const noexcept;
  void finished_mac(std::string_view label, bytes_view th, std::span<std::uint8_t> out) const noexcept;
  void derive_traffic(bytes_view th2) noexcept;
  void wipe_secrets() noexcept;

  const client_config* client_cfg_ = nullptr;
  const server_config* server_cfg_ = nullptr;
  stage at_ = stage::client_wait_server_hello;
  hpke::suite suite_{};
  hpke::kem_sizes sizes_{};
  std::size_t nh_ = 0;
  transcript th_;
  // ss1 for each pinned key (client), or for the key used (server: [0]).
  crypto::secret_array<64> ss1_[max_pinned_server_keys];
  std::array<std::uint8_t, 8> ids_[max_pinned_server_keys] = {};
  std::size_t n_keys_ = 0;
  crypto::secret_array<64> hs_;
  crypto::secret_array<64> expected_mac_;  // the peer's Finished MAC we expect
  hpke::private_key eph_;                   // the client's ephemeral key
  std::vector<std::uint8_t> client_key_;    // the static key a client announced (server side)
  bool keys_ready_ = false;
  handshake_keys keys_;
};

}  // namespace sealwire::record::detail
