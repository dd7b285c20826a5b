// SPDX-License-Identifier: Apache-2.0
// sealwire_bench_report: turns one sealwire_bench run (Google Benchmark JSON)
// into the parts of docs/benchmarks.md, so that every figure on the page
// comes from that run.
//
//   sealwire_bench_report RESULTS.json
//       writes the run paragraph and the detailed tables to standard output;
//   sealwire_bench_report RESULTS.json --out-dir DIR [--image-prefix PREFIX]
//       writes into DIR (created if needed):
//         run.md      a paragraph naming the run (date, host, CPU, versions,
//                     repetitions, and the filter of a filtered run);
//         summary.md  one row per headline operation: sealwire, the fastest
//                     other library, the ratio of speeds;
//         plots.md    an image link and a caption per plot, the links being
//                     PREFIX followed by the file name (PREFIX defaults to "");
//         tables.md   one table per operation, one row per size;
//         *.svg       the plots the run has data for (aead-throughput.svg,
//                     open-pieces.svg, record-stream.svg); a plot without
//                     data is not drawn and an older file of that name is
//                     removed.
//   sealwire_bench_report RESULTS.json --check PAGE
//       the regression check: prints every ratio of the run's detailed
//       tables that fell by more than 10% from the same ratio in PAGE's
//       (docs/benchmarks.md), then how many were compared; writes nothing.
//
// Benchmark names are "operation/size/implementation"; with repetitions the
// medians are used. Exit status: 0, or 1 when an input cannot be read, 2 on
// a usage error, 3 when --check found a ratio that fell.
#include "report.hpp"

#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

int usage() {
  std::cerr << "usage: sealwire_bench_report RESULTS.json [--out-dir DIR [--image-prefix PREFIX]]\n"
               "       sealwire_bench_report RESULTS.json --check PAGE\n";
  return 2;
}

bool write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "sealwire_bench_report: cannot write " << path.string() << "\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  namespace report = sealwire::bench::report;
  std::string input, out_dir, image_prefix, check_page;
  bool have_prefix = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--out-dir" || arg == "--image-prefix") && i + 1 < argc) {
      (arg == "--out-dir" ? out_dir : image_prefix) = argv[++i];
      have_prefix |= arg == "--image-prefix";
    } else if (arg == "--check" && i + 1 < argc) {
      check_page = argv[++i];
    } else if (!arg.empty() && arg[0] != '-' && input.empty()) {
      input = arg;
    } else {
      return usage();
    }
  }
  if (input.empty() || (have_prefix && out_dir.empty()) || (!check_page.empty() && !out_dir.empty())) return usage();

  report::results r;
  try {
    r = report::load(input);
  } catch (const std::exception& e) {
    std::cerr << "sealwire_bench_report: " << e.what() << "\n";
    return 1;
  }

  if (!check_page.empty()) {
    std::ifstream in(check_page, std::ios::binary);
    std::ostringstream page;
    page << in.rdbuf();
    if (!in) {
      std::cerr << "sealwire_bench_report: cannot read " << check_page << "\n";
      return 1;
    }
    try {
      const auto outcome = report::check_against_page(r, page.str(), 0.10);
      std::cout << outcome.text;
      return outcome.fell > 0 ? 3 : 0;
    } catch (const std::exception& e) {
      std::cerr << "sealwire_bench_report: " << check_page << ": " << e.what() << "\n";
      return 1;
    }
  }

  if (out_dir.empty()) {
    std::cout << report::run_markdown(r) << "\n" << report::tables_markdown(r);
    return 0;
  }

  const std::filesystem::path dir(out_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::cerr << "sealwire_bench_report: cannot create " << out_dir << ": " << ec.message() << "\n";
    return 1;
  }
  const auto plots = report::make_plots(r);
  bool ok = write_file(dir / "run.md", report::run_markdown(r)) &&
            write_file(dir / "summary.md", report::summary_markdown(r)) &&
            write_file(dir / "plots.md", report::plots_markdown(plots, image_prefix)) &&
            write_file(dir / "tables.md", report::tables_markdown(r));
  for (const auto& name : report::plot_files()) std::filesystem::remove(dir / name, ec);
  for (const auto& p : plots) ok = ok && write_file(dir / p.file, p.svg);
  return ok ? 0 : 1;
}
