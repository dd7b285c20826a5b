// SPDX-License-Identifier: Apache-2.0
// Turns Google Benchmark JSON output from sealwire_bench into Markdown tables:
// one table per operation, one row per size, sealwire beside each peer with
// the ratio of speeds (above 1 means sealwire is faster). Implementations named
// "sealwire-..." are variants of ours, shown without a ratio. For operations
// named "..._pieces" the size is the piece size and every figure also says
// what fraction it is of the same implementation's speed in one call (the
// largest piece size).
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct entry {
  double ns_per_op = 0;           // real time per iteration
  double bytes_per_second = 0;    // 0 when the benchmark is not a throughput one
  double cycles_per_byte = 0;
  double cycles_per_op = 0;
  std::string label;
};

double to_ns(double t, const std::string& unit) {
  if (unit == "us") return t * 1e3;
  if (unit == "ms") return t * 1e6;
  if (unit == "s") return t * 1e9;
  return t;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string speed(const entry& e) {
  if (e.bytes_per_second > 0) {
    const double gbs = e.bytes_per_second / 1e9;
    return gbs >= 0.1 ? fmt("%.2f GB/s", gbs) : fmt("%.1f MB/s", e.bytes_per_second / 1e6);
  }
  if (e.ns_per_op >= 1e6) return fmt("%.2f ms", e.ns_per_op / 1e6);
  if (e.ns_per_op >= 1e3) return fmt("%.2f us", e.ns_per_op / 1e3);
  return fmt("%.1f ns", e.ns_per_op);
}

std::string cycles(const entry& e) {
  if (e.cycles_per_byte > 0) return fmt(e.cycles_per_byte < 10 ? "%.2f c/B" : "%.1f c/B", e.cycles_per_byte);
  return fmt("%.0f c/op", e.cycles_per_op);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: sealwire_bench_report BENCH.json\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "cannot open " << argv[1] << "\n";
    return 1;
  }
  const auto doc = nlohmann::json::parse(in);

  // op -> size -> impl -> entry, in the order benchmarks ran.
  std::vector<std::string> op_order;
  std::map<std::string, std::map<long, std::map<std::string, entry>>> table;
  std::map<std::string, std::vector<std::string>> peers_of;
  // With repetitions, use the medians; otherwise the single runs.
  bool have_medians = false;
  for (const auto& b : doc.at("benchmarks")) have_medians |= b.value("aggregate_name", "") == "median";
  for (const auto& b : doc.at("benchmarks")) {
    const std::string run_type = b.value("run_type", "iteration");
    if (have_medians ? b.value("aggregate_name", "") != "median" : run_type != "iteration") continue;
    if (b.contains("error_occurred") && b["error_occurred"].get<bool>()) continue;
    std::string name = b.at("name");
    if (have_medians) name = b.value("run_name", name);
    const auto s1 = name.rfind('/');
    const auto s0 = name.rfind('/', s1 - 1);
    if (s1 == std::string::npos || s0 == std::string::npos) continue;
    const std::string op = name.substr(0, s0);
    const long size = std::stol(name.substr(s0 + 1, s1 - s0 - 1));
    const std::string impl = name.substr(s1 + 1);
    entry e;
    e.ns_per_op = to_ns(b.at("real_time").get<double>(), b.value("time_unit", "ns"));
    e.bytes_per_second = b.value("bytes_per_second", 0.0);
    e.cycles_per_byte = b.value("cycles_per_byte", 0.0);
    e.cycles_per_op = b.value("cycles_per_op", 0.0);
    e.label = b.value("label", "");
    if (!table.count(op)) op_order.push_back(op);
    table[op][size][impl] = e;
    auto& peers = peers_of[op];
    if (impl != "sealwire" && std::find(peers.begin(), peers.end(), impl) == peers.end()) peers.push_back(impl);
  }

  const auto& ctx = doc.at("context");
  std::cout << "Measured " << ctx.value("date", "") << " on " << ctx.value("num_cpus", 0) << " CPUs at "
            << ctx.value("mhz_per_cpu", 0) << " MHz; sealwire CPU level `" << ctx.value("sealwire_cpu_level", "?")
            << "` (features: " << ctx.value("sealwire_cpu_features", "?") << "); "
            << ctx.value("openssl", "OpenSSL ?") << "; libsodium " << ctx.value("libsodium", "?") << ".\n"
            << "Cycles are time-stamp-counter reference cycles. Ratio = sealwire's speed / the peer's "
               "(above 1: sealwire is faster).\n\n";

  for (const auto& op : op_order) {
    const auto& peers = peers_of[op];
    const bool pieces = op.size() > 7 && op.compare(op.size() - 7, 7, "_pieces") == 0;
    const auto& rows = table[op];
    // One call = the largest piece size, per implementation.
    auto of_one_call = [&](const std::string& impl, const entry& e) -> std::string {
      if (!pieces) return "";
      const auto& last = rows.rbegin()->second;
      const auto it = last.find(impl);
      if (it == last.end() || e.ns_per_op <= 0) return "";
      return fmt(" (%.2f of 1 call)", it->second.ns_per_op / e.ns_per_op);
    };
    auto is_ours = [](const std::string& impl) { return impl.rfind("sealwire", 0) == 0; };

    std::cout << "#### " << op << (pieces ? " (size = piece size)" : "") << "\n\n| size | sealwire | kernel | cycles |";
    for (const auto& p : peers) std::cout << ' ' << p << (is_ours(p) ? " |" : " | ratio |");
    std::cout << "\n|---:|---:|---|---:|";
    for (const auto& p : peers) std::cout << (is_ours(p) ? "---:|" : "---:|---:|");
    std::cout << '\n';
    for (const auto& [size, impls] : rows) {
      const auto ours = impls.find("sealwire");
      std::cout << "| " << size << " | ";
      if (ours != impls.end()) {
        std::cout << speed(ours->second) << of_one_call("sealwire", ours->second) << " | " << ours->second.label
                  << " | " << cycles(ours->second) << " |";
      } else {
        std::cout << "- | - | - |";
      }
      for (const auto& p : peers) {
        const auto it = impls.find(p);
        if (it == impls.end()) {
          std::cout << (is_ours(p) ? " - |" : " - | - |");
          continue;
        }
        std::cout << ' ' << speed(it->second) << of_one_call(p, it->second) << " |";
        if (is_ours(p)) continue;
        std::cout << ' ';
        if (ours != impls.end() && ours->second.ns_per_op > 0) {
          std::cout << fmt("%.2fx", it->second.ns_per_op / ours->second.ns_per_op);
        } else {
          std::cout << '-';
        }
        std::cout << " |";
      }
      std::cout << '\n';
    }
    std::cout << '\n';
  }
  return 0;
}
