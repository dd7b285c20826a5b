// SPDX-License-Identifier: Apache-2.0
// The figures of one benchmark run, read from sealwire_bench's Google
// Benchmark JSON: one entry per (operation, size, implementation), taken from
// the benchmark names "operation/size/implementation".
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace sealwire::bench::report {

// Every figure is on the wall clock: speeds are bytes per second of real
// time and the cycles are the time-stamp counter over the same loop.
// (Google Benchmark's own bytes_per_second divides by CPU time, which leaves
// out the time a benchmark waits for another thread or the kernel, and would
// disagree with the ratios on a busy machine.)
struct entry {
  double ns_per_op = 0;         // real time per iteration
  double cpu_ns_per_op = 0;     // CPU time of the benchmark's thread per iteration
  double bytes_per_second = 0;  // bytes per second of real time; 0 when not a throughput benchmark
  double cycles_per_byte = 0;   // time-stamp-counter cycles; 0 when absent
  double cycles_per_op = 0;
  double cv = 0;                // with repetitions: the real time's coefficient of variation (0.05 = 5%)
  std::string label;            // for sealwire's entries: the kernel that ran
};

struct results {
  nlohmann::json context;  // the JSON's "context" block, as written
  int repetitions = 1;     // above 1: every entry is the median of that many runs
  std::vector<std::string> ops;  // operations in the order they ran
  // op -> size -> implementation -> entry
  std::map<std::string, std::map<long, std::map<std::string, entry>>> table;
  // op -> implementations in the order they first ran
  std::map<std::string, std::vector<std::string>> impls;

  // find returns the entry, or nullptr when the run does not have it.
  const entry* find(const std::string& op, long size, const std::string& impl) const;
  // context_text returns a context field as text ("" when absent).
  std::string context_text(const std::string& key) const;
};

// noisy: the repetitions of this measurement varied by more than 5%.
bool noisy(const entry& e);

// load reads a results file; it throws std::runtime_error (or nlohmann's
// exceptions) when the file cannot be read or is not benchmark JSON.
results load(const std::string& path);

// is_pieces: the operation is an open fed in pieces ("..._pieces"), whose
// size is the piece size and whose largest size is the whole message.
bool is_pieces(const std::string& op);

}  // namespace sealwire::bench::report
