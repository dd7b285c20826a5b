// SPDX-License-Identifier: Apache-2.0
// Reading Google Benchmark JSON into report::results. With repetitions the
// medians are used, otherwise the single runs; failed runs are left out.
#include "results.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>

namespace sealwire::bench::report {
namespace {

double to_ns(double t, const std::string& unit) {
  if (unit == "us") return t * 1e3;
  if (unit == "ms") return t * 1e6;
  if (unit == "s") return t * 1e9;
  return t;
}

}  // namespace

const entry* results::find(const std::string& op, long size, const std::string& impl) const {
  const auto o = table.find(op);
  if (o == table.end()) return nullptr;
  const auto s = o->second.find(size);
  if (s == o->second.end()) return nullptr;
  const auto i = s->second.find(impl);
  return i == s->second.end() ? nullptr : &i->second;
}

std::string results::context_text(const std::string& key) const {
  if (!context.is_object() || !context.contains(key)) return "";
  const auto& v = context.at(key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

bool noisy(const entry& e) { return e.cv > 0.05; }

bool is_pieces(const std::string& op) {
  constexpr std::string_view suffix = "_pieces";
  return op.size() > suffix.size() && op.compare(op.size() - suffix.size(), suffix.size(), suffix) == 0;
}

results load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  const auto doc = nlohmann::json::parse(in);
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc.at("benchmarks").is_array()) {
    throw std::runtime_error(path + ": not Google Benchmark JSON (no \"benchmarks\" array)");
  }
  results r;
  r.context = doc.value("context", nlohmann::json::object());

  bool medians = false;
  std::map<std::string, double> cvs;  // run name -> coefficient of variation of the real time
  for (const auto& b : doc.at("benchmarks")) {
    medians |= b.value("aggregate_name", "") == "median";
    if (b.value("aggregate_name", "") == "cv") cvs[b.value("run_name", "")] = b.value("real_time", 0.0);
  }
  for (const auto& b : doc.at("benchmarks")) {
    if (medians ? b.value("aggregate_name", "") != "median" : b.value("run_type", "iteration") != "iteration") continue;
    if (b.value("error_occurred", false)) continue;
    const std::string name = medians ? b.value("run_name", b.value("name", "")) : b.value("name", "");
    const auto s1 = name.rfind('/');
    if (s1 == std::string::npos || s1 == 0) continue;
    const auto s0 = name.rfind('/', s1 - 1);
    if (s0 == std::string::npos) continue;
    const std::string op = name.substr(0, s0);
    const std::string size_text = name.substr(s0 + 1, s1 - s0 - 1);
    if (size_text.empty() || !std::all_of(size_text.begin(), size_text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    const long size = std::stol(size_text);
    const std::string impl = name.substr(s1 + 1);

    entry e;
    const std::string unit = b.value("time_unit", "ns");
    e.ns_per_op = to_ns(b.value("real_time", 0.0), unit);
    e.cpu_ns_per_op = to_ns(b.value("cpu_time", 0.0), unit);
    // Bytes per iteration from Google Benchmark's CPU-time rate, then the
    // rate over real time.
    const double bytes_per_op = std::round(b.value("bytes_per_second", 0.0) * e.cpu_ns_per_op / 1e9);
    if (bytes_per_op > 0 && e.ns_per_op > 0) e.bytes_per_second = bytes_per_op / e.ns_per_op * 1e9;
    e.cycles_per_byte = b.value("cycles_per_byte", 0.0);
    e.cycles_per_op = b.value("cycles_per_op", 0.0);
    e.label = b.value("label", "");
    if (const auto cv = cvs.find(name); medians && cv != cvs.end()) e.cv = cv->second;
    if (medians) r.repetitions = std::max(r.repetitions, b.value("repetitions", 1));

    if (!r.table.count(op)) r.ops.push_back(op);
    r.table[op][size][impl] = e;
    auto& impls = r.impls[op];
    if (std::find(impls.begin(), impls.end(), impl) == impls.end()) impls.push_back(impl);
  }
  return r;
}

}  // namespace sealwire::bench::report
