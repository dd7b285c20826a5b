// SPDX-License-Identifier: Apache-2.0
// `sealwire-hpke vectors FILE`: checks a test-vector file in the RFC 9180
// JSON format (the CFRG's test-vectors.json, or one exported by another
// implementation) against sealwire's HPKE and prints a table by suite and
// mode. See docs/hpke-tool.md.
#pragma once

#include <iosfwd>
#include <string>

namespace sealwire::tool {

struct vectors_options {
  bool progress = true;  // a progress line on stderr while checking
};

// run_vectors checks every case of the file at path, writes the table, the
// totals and the first failure (expected and actual bytes, hex) to out, and
// progress and file errors to err. Returns 0 when nothing failed (cases of
// suites sealwire does not build are listed, not failed), 1 when a check
// failed, 2 when the file cannot be read or is not a JSON array of cases.
int run_vectors(const std::string& path, std::ostream& out, std::ostream& err, const vectors_options& options = {});

}  // namespace sealwire::tool
