// SPDX-License-Identifier: Apache-2.0
// Uses sealwire::record (the sans-IO core, no Boost) from an installed
// package: a client and a server connection joined in memory.
#include <sealwire/record/connection.hpp>

#include <cstdio>
#include <memory>

namespace {
void pump(sealwire::record::connection& from, sealwire::record::connection& to) {
  const auto p = from.pending();
  std::size_t used = 0;
  while (used < p.size()) used += to.receive(p.subspan(used)).value();
  from.consume(p.size());
}
}  // namespace

int main() {
  using namespace sealwire;
  auto key = std::make_shared<const hpke::private_key>(hpke::generate_key_pair().value().priv);
  auto sc = std::make_shared<record::server_config>();
  sc->static_key = key;
  auto cc = std::make_shared<record::client_config>();
  cc->server_key = key->public_key();
  auto client = record::connection::client(cc).value();
  auto server = record::connection::server(sc).value();
  pump(client, server);
  pump(server, client);
  pump(client, server);
  (void)client.write(bytes_of("hello")).value();
  pump(client, server);
  const bool ok = server.handshake_complete() && server.readable() == 5;
  std::printf("record: %d\n", ok);
  return ok ? 0 : 1;
}
