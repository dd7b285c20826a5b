// SPDX-License-Identifier: Apache-2.0
// The parts of the benchmark report, each made from one run's results:
// the run's identity, the summary table, the detailed tables and the plots.
#pragma once

#include "results.hpp"

#include <string>
#include <vector>

namespace sealwire::bench::report {

// run.cpp: a Markdown paragraph naming the run (date, host, CPU, caches,
// sealwire's CPU level, library versions, repetitions, filter, commit), and
// a one-line form for the plots' footnotes.
std::string run_markdown(const results& r);
std::string run_line(const results& r);

// summary.cpp: one row per headline operation present in the run.
std::string summary_markdown(const results& r);

// tables.cpp: one table per operation, one row per size.
std::string tables_markdown(const results& r);

// plots.cpp: the SVG plots the run has data for.
struct plot {
  std::string file;     // e.g. "aead-throughput.svg"
  std::string alt;      // image alt text
  std::string caption;  // one sentence under the image
  std::string svg;      // the document
};
std::vector<plot> make_plots(const results& r);
// plot_files: the names of every plot make_plots can draw.
std::vector<std::string> plot_files();
// plots_markdown: image links (to image_prefix + file) with captions.
std::string plots_markdown(const std::vector<plot>& plots, const std::string& image_prefix);

// check.cpp: the regression check. Every ratio of the fresh run's detailed
// tables that the page's detailed tables (between its bench:tables markers)
// also have is compared; text lists each one that fell by more than
// tolerance (0.10: a fall of over 10%), then a count. Throws
// std::runtime_error when the page has no tables section.
struct check_outcome {
  int compared = 0;
  int fell = 0;
  std::string text;
};
check_outcome check_against_page(const results& fresh, const std::string& page, double tolerance);

}  // namespace sealwire::bench::report
