// SPDX-License-Identifier: Apache-2.0
// The plots of the report, each drawn only when the run has its data:
//   aead-throughput.svg  seal throughput against message size, one panel per AEAD;
//   open-pieces.svg      open of a 16 KiB message (or record) against the size
//                        of the pieces it is fed in, one panel per operation;
//   record-stream.svg    loopback TCP throughput of the record stream beside
//                        TLS 1.3 and unencrypted TCP.
// Every implementation keeps one colour and marker across the plots.
#include "format.hpp"
#include "report.hpp"
#include "svg.hpp"

#include <algorithm>
#include <map>

namespace sealwire::bench::report {
namespace {

svg::style style_of(const std::string& impl) {
  using svg::marker;
  // Okabe-Ito colours, which stay distinct for colour-blind readers.
  static const std::map<std::string, svg::style> styles = {
      {"sealwire", {"#0072B2", marker::circle, false}},
      {"sealwire-trailing", {"#56B4E9", marker::diamond, true}},
      {"openssl", {"#D55E00", marker::square, false}},
      {"openssl-fresh", {"#D55E00", marker::square, true}},
      {"libsodium", {"#009E73", marker::triangle, false}},
      {"botan", {"#CC79A7", marker::triangle_down, false}},
      {"cryptopp", {"#E69F00", marker::cross, false}},
      {"asio_ssl_tls13_chacha", {"#D55E00", marker::square, false}},
      {"plain_tcp", {"#999999", marker::circle, false}},
      {"raw_aead", {"#000000", marker::cross, true}},
  };
  const auto it = styles.find(impl);
  return it == styles.end() ? svg::style{} : it->second;
}

std::string gb_value(double v) { return fmt("%.2f GB/s", v); }
std::string size_tick(double v) { return size_label(static_cast<long>(v)); }

struct panel_spec {
  const char* op;
  const char* title;
};

// A panel per operation the run has, one series per implementation with
// throughput figures, sealwire's first.
std::vector<svg::panel> panels(const results& r, std::initializer_list<panel_spec> specs, std::string& names) {
  std::vector<svg::panel> out;
  std::vector<std::string> seen;
  for (const auto& spec : specs) {
    const auto op = r.table.find(spec.op);
    if (op == r.table.end()) continue;
    svg::panel p{spec.title, {}};
    for (const auto& impl : r.impls.at(spec.op)) {
      svg::series s{impl_name(impl), style_of(impl), {}};
      for (const auto& [size, impls] : op->second) {
        const auto e = impls.find(impl);
        if (e != impls.end() && e->second.bytes_per_second > 0) {
          s.points.emplace_back(static_cast<double>(size), gbps(e->second));
        }
      }
      if (s.points.empty()) continue;
      if (std::find(seen.begin(), seen.end(), s.name) == seen.end()) seen.push_back(s.name);
      if (impl == "sealwire") {
        p.lines.insert(p.lines.begin(), std::move(s));
      } else {
        p.lines.push_back(std::move(s));
      }
    }
    if (!p.lines.empty()) out.push_back(std::move(p));
  }
  for (std::size_t i = 0; i < seen.size(); ++i) names += (i == 0 ? "" : i + 1 == seen.size() ? " and " : ", ") + seen[i];
  return out;
}

}  // namespace

std::vector<std::string> plot_files() { return {"aead-throughput.svg", "open-pieces.svg", "record-stream.svg"}; }

std::vector<plot> make_plots(const results& r) {
  std::vector<plot> out;
  const std::string footnote = run_line(r);

  std::string names;
  svg::line_chart aead;
  aead.title = "AEAD seal throughput against message size";
  aead.x_label = "message size (log scale)";
  aead.y_label = "throughput (GB/s, 10⁹ bytes/s)";
  aead.footnote = footnote;
  aead.columns = 3;
  aead.panel_width = 320;
  aead.x_tick = size_tick;
  aead.y_value = gb_value;
  aead.panels = panels(r,
                       {{"chacha20_poly1305.seal", "ChaCha20-Poly1305"},
                        {"aes128_gcm.seal", "AES-128-GCM"},
                        {"aes256_gcm.seal", "AES-256-GCM"}},
                       names);
  if (!aead.panels.empty()) {
    out.push_back({"aead-throughput.svg", "AEAD seal throughput (GB/s) against message size: " + names,
                   "Seal throughput of one message against its size, each library in the same run "
                   "(higher is better; the detailed tables have open too).",
                   svg::render(aead)});
  }

  names.clear();
  svg::line_chart pieces;
  pieces.title = "Open in pieces: throughput against piece size";
  pieces.x_label = "piece size (log scale; the largest is one call)";
  pieces.y_label = "throughput (GB/s, 10⁹ bytes/s)";
  pieces.footnote = footnote;
  pieces.columns = 2;
  pieces.panel_width = 430;
  pieces.x_tick = size_tick;
  pieces.y_value = gb_value;
  pieces.panels = panels(r,
                         {{"chacha20_poly1305.open_16k_pieces", "ChaCha20-Poly1305, 16 KiB message"},
                          {"aes128_gcm.open_16k_pieces", "AES-128-GCM, 16 KiB message"},
                          {"aes256_gcm.open_16k_pieces", "AES-256-GCM, 16 KiB message"},
                          {"record.open_pieces", "Record layer, one 16 KiB record"}},
                         names);
  if (!pieces.panels.empty()) {
    out.push_back({"open-pieces.svg", "Open throughput (GB/s) against piece size: " + names,
                   "Opening a 16 KiB message fed in pieces of the size on the x axis, as it arrives from a "
                   "socket (1448 bytes is one TCP segment's payload); the rightmost point is the whole message "
                   "in one call. OpenSSL's EVP interface is fed the same pieces.",
                   svg::render(pieces)});
  }

  const auto tcp = r.table.find("record.tcp_16k_writes");
  if (tcp != r.table.end() && !tcp->second.empty()) {
    svg::bar_chart bars;
    bars.title = "Loopback TCP throughput, 16 KiB writes";
    bars.value_axis = "throughput (GB/s, 10⁹ bytes/s)";
    bars.footnote = footnote;
    const auto& impls = tcp->second.rbegin()->second;
    std::vector<std::string> order = {"sealwire", "asio_ssl_tls13_chacha", "plain_tcp"};
    for (const auto& impl : r.impls.at("record.tcp_16k_writes")) {
      if (std::find(order.begin(), order.end(), impl) == order.end()) order.push_back(impl);
    }
    for (const auto& impl : order) {
      const auto e = impls.find(impl);
      if (e == impls.end() || e->second.bytes_per_second <= 0) continue;
      std::string name = impl == "sealwire" ? "sealwire record stream" : impl_name(impl);
      if (impl == "asio_ssl_tls13_chacha") name = "TLS 1.3 ChaCha20-Poly1305 (OpenSSL)";
      if (impl == "plain_tcp") name = "plain TCP (no encryption)";
      bars.bars.push_back({name, style_of(impl), gbps(e->second), speed(e->second)});
    }
    if (!bars.bars.empty()) {
      out.push_back({"record-stream.svg",
                     "Loopback TCP throughput (GB/s): sealwire's record stream, TLS 1.3 and plain TCP",
                     "One thread writes 16 KiB chunks, another reads them, over a loopback TCP connection: "
                     "sealwire's record stream (ChaCha20-Poly1305), TLS 1.3 with the same AEAD (OpenSSL through "
                     "asio::ssl) and unencrypted TCP as the ceiling.",
                     svg::render(bars)});
    }
  }
  return out;
}

std::string plots_markdown(const std::vector<plot>& plots, const std::string& image_prefix) {
  if (plots.empty()) return "No plot: the run has none of the plotted operations.\n";
  std::string out;
  for (const auto& p : plots) {
    out += "![" + p.alt + "](" + image_prefix + p.file + ")\n\n" + p.caption + "\n\n";
  }
  out.pop_back();
  return out;
}

}  // namespace sealwire::bench::report
