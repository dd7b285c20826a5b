// SPDX-License-Identifier: Apache-2.0
// The detailed tables: one per operation, one row per size, sealwire beside
// each other implementation with the ratio of speeds (above 1: sealwire is
// faster). Variants of ours ("sealwire-...") are shown without a ratio. For
// "..._pieces" operations the size is the piece size and each figure also
// says what fraction it is of the same implementation's speed in one call
// (the largest piece size).
#include "format.hpp"
#include "report.hpp"

#include <sstream>

namespace sealwire::bench::report {

std::string tables_markdown(const results& r) {
  std::ostringstream out;
  for (const auto& op : r.ops) {
    const auto& rows = r.table.at(op);
    const bool pieces = is_pieces(op);
    std::vector<std::string> others;
    for (const auto& impl : r.impls.at(op)) {
      if (impl != "sealwire") others.push_back(impl);
    }
    auto of_one_call = [&](const std::string& impl, const entry& e) -> std::string {
      if (!pieces || rows.size() < 2) return "";
      const auto& whole = rows.rbegin()->second;
      const auto it = whole.find(impl);
      if (it == whole.end() || e.ns_per_op <= 0) return "";
      return fmt(" (%.2f of 1 call)", it->second.ns_per_op / e.ns_per_op);
    };

    out << "### " << op << (pieces ? " (size = piece size)" : "") << "\n\n| size | sealwire | kernel | cycles |";
    for (const auto& p : others) out << ' ' << impl_name(p) << (is_ours(p) ? " |" : " | ratio |");
    out << "\n|---:|---:|---|---:|";
    for (const auto& p : others) out << (is_ours(p) ? "---:|" : "---:|---:|");
    out << '\n';
    for (const auto& [size, impls] : rows) {
      const auto ours = impls.find("sealwire");
      out << "| " << size << " | ";
      if (ours != impls.end()) {
        out << speed(ours->second) << spread(ours->second) << of_one_call("sealwire", ours->second) << " | " << ours->second.label << " | "
            << cycles(ours->second) << " |";
      } else {
        out << "- | - | - |";
      }
      for (const auto& p : others) {
        const auto it = impls.find(p);
        if (it == impls.end()) {
          out << (is_ours(p) ? " - |" : " - | - |");
          continue;
        }
        out << ' ' << speed(it->second) << spread(it->second) << of_one_call(p, it->second) << " |";
        if (!is_ours(p)) out << ' ' << (ours != impls.end() ? ratio(ours->second, it->second) : "-") << " |";
      }
      out << '\n';
    }
    out << '\n';
  }
  std::string text = out.str();
  if (text.size() >= 2 && text.compare(text.size() - 2, 2, "\n\n") == 0) text.pop_back();
  return text;
}

}  // namespace sealwire::bench::report
