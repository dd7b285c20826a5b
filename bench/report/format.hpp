// SPDX-License-Identifier: Apache-2.0
// How the report writes figures and names: speeds, cycles, sizes, and the
// display names of the implementations a benchmark name carries.
#pragma once

#include "results.hpp"

#include <string>

namespace sealwire::bench::report {

// fmt formats one number with a printf format.
std::string fmt(const char* format, double v);

// speed: "4.16 GB/s" or "26.8 MB/s" for throughput, else the time per
// operation ("435.5 ns", "29.82 µs", "1.20 ms").
std::string speed(const entry& e);
// spread: " ±12%" when the entry is noisy (see results.hpp), else "".
std::string spread(const entry& e);
// cycles: "0.50 c/B" per byte for throughput, else "62513 c/op".
std::string cycles(const entry& e);
// ratio of b's time to a's ("1.08x"): how many times faster a is than b.
std::string ratio(const entry& a, const entry& b);
// gbps: throughput in 10^9 bytes per second (0 when not a throughput entry).
double gbps(const entry& e);

// size_label: "64 B", "1448 B", "16 KiB", "1 MiB".
std::string size_label(long bytes);

// is_ours: sealwire or one of its variants ("sealwire-trailing").
bool is_ours(const std::string& impl);
// is_peer: another library (OpenSSL, libsodium, Botan, Crypto++, OpenSSL's
// TLS through asio::ssl), as opposed to a reference measured with our own
// code or none (raw_aead, plain_tcp, x25519_dh, single_thread, ...).
bool is_peer(const std::string& impl);
// impl_name: the name a reader sees ("OpenSSL", "TLS 1.3 (OpenSSL via
// asio::ssl)"); unknown implementations keep their benchmark name.
std::string impl_name(const std::string& impl);

// xml_escape for SVG text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace sealwire::bench::report
