// SPDX-License-Identifier: Apache-2.0
// The regression check (`scripts/bench --check`): the ratios of a fresh run
// beside the ratios in the detailed tables of the committed
// docs/benchmarks.md. A ratio is read from the tables as written there (the
// "ratio" columns, sealwire's speed over a peer's, and for the "..._pieces"
// operations each implementation's "of 1 call" fraction); the fresh run's
// tables are made by tables_markdown and read by the same parser, so the
// two sides are compared exactly as a reader of the page would compare them.
#include "format.hpp"
#include "report.hpp"

#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <tuple>

namespace sealwire::bench::report {
namespace {

// One ratio on the page: operation, size (as the row writes it) and column
// ("vs OpenSSL", "sealwire of 1 call").
using ratio_key = std::tuple<std::string, std::string, std::string>;
using ratio_map = std::map<ratio_key, double>;

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string_view::npos) return "";
  const auto last = s.find_last_not_of(' ');
  return std::string(s.substr(first, last - first + 1));
}

// cells splits "| a | b |" into {"a", "b"}.
std::vector<std::string> cells(std::string_view line) {
  std::vector<std::string> out;
  std::size_t at = 1;
  while (at < line.size()) {
    const auto bar = line.find('|', at);
    if (bar == std::string_view::npos) break;
    out.push_back(trim(line.substr(at, bar - at)));
    at = bar + 1;
  }
  return out;
}

// number reads the leading decimal number of text; false when there is none.
bool number(const std::string& text, double& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end != text.c_str();
}

ratio_map parse_tables(std::string_view text) {
  ratio_map out;
  std::string op;
  std::vector<std::string> header;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("### ", 0) == 0) {
      op = line.substr(4);
      if (const auto paren = op.find(" ("); paren != std::string::npos) op.resize(paren);
      header.clear();
      continue;
    }
    if (op.empty() || line.empty() || line[0] != '|') continue;
    const auto row = cells(line);
    if (header.empty()) {
      header = row;
      continue;
    }
    if (row.empty() || row[0].find("---") != std::string::npos) continue;
    for (std::size_t i = 1; i < row.size() && i < header.size(); ++i) {
      double value = 0;
      if (header[i] == "ratio") {
        if (number(row[i], value)) out[{op, row[0], "vs " + header[i - 1]}] = value;
      } else if (const auto of = row[i].find(" of 1 call)"); of != std::string::npos) {
        const auto open = row[i].rfind('(', of);
        if (open != std::string::npos && number(row[i].substr(open + 1), value)) {
          out[{op, row[0], header[i] + " of 1 call"}] = value;
        }
      }
    }
  }
  return out;
}

}  // namespace

check_outcome check_against_page(const results& fresh, const std::string& page, double tolerance) {
  static constexpr std::string_view begin = "<!-- bench:tables:begin -->";
  static constexpr std::string_view end = "<!-- bench:tables:end -->";
  const auto from = page.find(begin);
  const auto to = page.find(end);
  if (from == std::string::npos || to == std::string::npos || to < from) {
    throw std::runtime_error("the page has no bench:tables markers");
  }
  const auto committed = parse_tables(std::string_view(page).substr(from, to - from));
  const auto measured = parse_tables(tables_markdown(fresh));

  check_outcome outcome;
  std::ostringstream out;
  for (const auto& [key, now] : measured) {
    const auto it = committed.find(key);
    if (it == committed.end() || it->second <= 0) continue;
    ++outcome.compared;
    const double change = now / it->second - 1.0;
    if (change < -tolerance) {
      ++outcome.fell;
      const auto& [op, size, column] = key;
      out << op << ", " << size << ", " << column << ": " << fmt("%.2f", it->second) << " -> " << fmt("%.2f", now)
          << " (" << fmt("%+.0f%%", 100.0 * change) << ")\n";
    }
  }
  out << outcome.compared << " ratios compared with the page, " << outcome.fell << " fell by more than "
      << fmt("%.0f%%", 100.0 * tolerance) << "\n";
  outcome.text = out.str();
  return outcome;
}

}  // namespace sealwire::bench::report
