// SPDX-License-Identifier: Apache-2.0
// HOST:PORT arguments of the examples' command lines ("127.0.0.1:7000",
// "[::1]:7000", ":7000" for every address).
#pragma once

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace sealwire::tools {

// split_host_port splits "HOST:PORT" at the last colon, removing the
// brackets of an IPv6 literal. Throws std::invalid_argument without a colon
// or with a port that is not a number from 0 to 65535.
inline std::pair<std::string, std::uint16_t> split_host_port(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument(text + ": expected HOST:PORT");
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = text.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) > 65535)
    throw std::invalid_argument(text + ": the port must be a number from 0 to 65535");
  return {host, static_cast<std::uint16_t>(std::stoul(port))};
}

// parse_endpoint reads a listening address: HOST must be an IP address (an
// empty HOST listens on every IPv4 address). Throws std::invalid_argument.
inline boost::asio::ip::tcp::endpoint parse_endpoint(const std::string& text) {
  const auto [host, port] = split_host_port(text);
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(host.empty() ? "0.0.0.0" : host, ec);
  if (ec) throw std::invalid_argument(text + ": not an IP address");
  return {address, port};
}

}  // namespace sealwire::tools
