// SPDX-License-Identifier: Apache-2.0
// The run's identity, from the JSON's context block: Google Benchmark's own
// fields (date, host, CPUs, caches), the ones sealwire_bench adds (CPU level
// and features, OpenSSL and libsodium versions) and the ones scripts/bench
// passes with --benchmark_context (commit, filter, minimum time).
#include "format.hpp"
#include "report.hpp"

#include <string>
#include <utility>
#include <vector>

namespace sealwire::bench::report {
namespace {

std::string caches(const results& r) {
  if (!r.context.contains("caches") || !r.context.at("caches").is_array()) return "";
  std::string out;
  for (const auto& c : r.context.at("caches")) {
    const std::string type = c.value("type", "");
    std::string name(1, 'L');  // (built in steps: GCC 12 misreports "L" + std::string)
    name += std::to_string(c.value("level", 0));
    if (type == "Data") name += "d";
    if (type == "Instruction") name += "i";
    if (!out.empty()) out += ", ";
    out += name + " " + size_label(c.value("size", 0L));
  }
  return out;
}

// The date as written by Google Benchmark ("2026-12-02T02:16:40+00:00").
std::string date(const results& r) {
  const std::string d = r.context_text("date");
  return d.empty() ? "an unknown date" : d;
}

// How many single-threaded measurements took over 10% longer on the wall
// clock than on the CPU: another process had the CPU. The loopback TCP and
// two-thread cases wait on another thread by design and are not counted.
std::pair<int, int> disturbed(const results& r) {
  int slow = 0, all = 0;
  for (const auto& [op, sizes] : r.table) {
    if (op.find("tcp") != std::string::npos || op.find("parallel") != std::string::npos) continue;
    for (const auto& [size, impls] : sizes) {
      for (const auto& [impl, e] : impls) {
        if (e.cpu_ns_per_op <= 0) continue;
        ++all;
        slow += e.ns_per_op > 1.1 * e.cpu_ns_per_op ? 1 : 0;
      }
    }
  }
  return {slow, all};
}

}  // namespace

std::string run_markdown(const results& r) {
  std::string s = "**Run:** " + date(r);
  const std::string host = r.context_text("host_name");
  if (!host.empty()) s += " on `" + host + "`";
  if (r.context.contains("num_cpus")) {
    s += ", " + r.context_text("num_cpus") + " CPUs";
    if (r.context.contains("mhz_per_cpu")) s += " at " + r.context_text("mhz_per_cpu") + " MHz";
  }
  const std::string cache_list = caches(r);
  if (!cache_list.empty()) s += " (caches: " + cache_list + ")";
  s += ".";
  const std::string level = r.context_text("sealwire_cpu_level");
  if (!level.empty()) {
    s += " sealwire's CPU level `" + level + "`";
    const std::string features = r.context_text("sealwire_cpu_features");
    if (!features.empty()) s += " (features: " + features + ")";
    s += ".";
  }
  std::vector<std::string> peers;
  if (const std::string v = r.context_text("openssl"); !v.empty()) peers.push_back(v);
  if (const std::string v = r.context_text("libsodium"); !v.empty()) peers.push_back("libsodium " + v);
  if (const std::string v = r.context_text("blake3c"); !v.empty()) peers.push_back("the official BLAKE3 C " + v);
  for (std::size_t i = 0; i < peers.size(); ++i) s += (i == 0 ? " Peers: " : ", ") + peers[i];
  if (!peers.empty()) s += ".";
  s += r.repetitions > 1 ? " Each figure is the median of " + std::to_string(r.repetitions) + " repetitions"
                         : " Each figure is from a single repetition";
  const std::string min_time = r.context_text("sealwire_min_time");
  if (!min_time.empty()) s += " of at least " + min_time + " s";
  s += ".";
  if (r.context.contains("load_avg") && r.context.at("load_avg").is_array() && r.context.at("load_avg").size() == 3) {
    const auto& l = r.context.at("load_avg");
    s += " Load average at the start: " + fmt("%.2f", l[0].get<double>()) + ", " + fmt("%.2f", l[1].get<double>()) +
         ", " + fmt("%.2f", l[2].get<double>()) + ".";
  }
  if (r.repetitions > 1) {
    int spread_out = 0, all = 0;
    for (const auto& [op, sizes] : r.table) {
      for (const auto& [size, impls] : sizes) {
        for (const auto& [impl, e] : impls) {
          ++all;
          spread_out += noisy(e) ? 1 : 0;
        }
      }
    }
    if (spread_out > 0) {
      s += ' ';
      s += std::to_string(spread_out) + " of " + std::to_string(all) +
           " measurements varied by more than 5% between repetitions; their speeds carry a ± mark (the "
           "coefficient of variation).";
    }
  }
  if (const auto [slow, all] = disturbed(r); slow > 0) {
    s += " **Busy machine:** " + std::to_string(slow) + " of " + std::to_string(all) +
         " measurements took over 10% longer on the wall clock than on the CPU (another process had the CPU), "
         "so their figures are low.";
  }
  const std::string commit = r.context_text("sealwire_commit");
  if (!commit.empty()) s += " Source: commit `" + commit + "`.";
  const std::string filter = r.context_text("sealwire_filter");
  if (!filter.empty()) s += " **Filtered run:** only the benchmarks matching `" + filter + "`.";
  return s + "\n";
}

std::string run_line(const results& r) {
  std::string s = "Run " + date(r);
  const std::string host = r.context_text("host_name");
  if (!host.empty()) s += " on " + host;
  const std::string level = r.context_text("sealwire_cpu_level");
  if (!level.empty()) s += ", sealwire level " + level;
  s += r.repetitions > 1 ? ", medians of " + std::to_string(r.repetitions) + " repetitions" : ", 1 repetition";
  // The filter itself can be long; the page names it.
  if (!r.context_text("sealwire_filter").empty()) s += ", filtered run";
  return s;
}

}  // namespace sealwire::bench::report
