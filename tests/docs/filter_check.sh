#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/doxygen-filter, Doxygen's input filter, on tricky lines: the input
# below must come out exactly as the expected text (which comments become
# documentation and which stay plain), and every public header must come out
# with as many lines as it went in (Doxygen's line numbers are the header's).
# Usage: tests/docs/filter_check.sh SOURCE_DIR; prints "filter ok".
set -euo pipefail
cd "$1"
filter=scripts/doxygen-filter
status=0

input=$(cat <<'EOF'
// SPDX-License-Identifier: Apache-2.0
// The file's opening comment: what the header is for.
//
//   auto x = f();   // an example, shown as code
//     g(x);
#pragma once

// ---- a section heading, followed by a blank line: a plain comment ----

namespace sealwire {

// url is documented; the "//" in this comment and in the string is no comment.
inline constexpr const char* url = "https://example.com";  // a trailing comment
inline constexpr char slash = '/';  // after a character literal
inline constexpr long big = 1'000'000;  // after digit separators
inline const char* quoted = "a \" // b";  // after an escaped quote

// e lists things.
enum class e {
  a,  // the first
      // and more about it
  b = 2,  // the second
  // c is documented above it
  c,
  // a comment before a closing brace stays plain
};

// S is a struct. Its list:
//   - item one,
//     continued
//   - item two
struct S {
 public:
  // f has a body whose comments stay plain.
  int f() {
    // inside a body
    return 1;  // also inside
  }
  // g is a template with nested braces in its body.
  template <class T> inline T g(T x) noexcept {
    if (x) {  // nested
      // deeper
    }
    return x;
  }
  int m;  // a member
  int n{0};  // a braced member
  // a comment before an access label stays plain
 private:
  int p_;  // private, documented all the same
};

// NOT_DOC is followed by a conditional, not a declaration.
#if 1
// DOC_MACRO is a macro.
#define DOC_MACRO(x) \
  ((x) ? 1 : 0)  // inside the macro
#endif

// h has parameters with trailing comments.
void h(int a,   // the a
       int b);  // the b
inline int k = [] { return 1; }();  // a lambda's braces
/// already a documentation comment
int already;
}  // namespace sealwire
// a last comment
EOF
)

expected=$(cat <<'EOF'
/// @file
/// The file's opening comment: what the header is for.
///
/// \code{.cpp} auto x = f();   // an example, shown as code
///    g(x); \endcode
#pragma once

// ---- a section heading, followed by a blank line: a plain comment ----

namespace sealwire {

/// url is documented; the "//" in this comment and in the string is no comment.
inline constexpr const char* url = "https://example.com";  ///< a trailing comment
inline constexpr char slash = '/';  ///< after a character literal
inline constexpr long big = 1'000'000;  ///< after digit separators
inline const char* quoted = "a \" // b";  ///< after an escaped quote

/// e lists things.
enum class e {
  a,  ///< the first
      ///< and more about it
  b = 2,  ///< the second
  /// c is documented above it
  c,
  // a comment before a closing brace stays plain
};

/// S is a struct. Its list:
///   - item one,
///     continued
///   - item two
struct S {
 public:
  /// f has a body whose comments stay plain.
  int f() {
    // inside a body
    return 1;  // also inside
  }
  /// g is a template with nested braces in its body.
  template <class T> inline T g(T x) noexcept {
    if (x) {  // nested
      // deeper
    }
    return x;
  }
  int m;  ///< a member
  int n{0};  ///< a braced member
  // a comment before an access label stays plain
 private:
  int p_;  ///< private, documented all the same
};

// NOT_DOC is followed by a conditional, not a declaration.
#if 1
/// DOC_MACRO is a macro.
#define DOC_MACRO(x) \
  ((x) ? 1 : 0)  // inside the macro
#endif

/// h has parameters with trailing comments.
void h(int a,   ///< the a
       int b);  ///< the b
inline int k = [] { return 1; }();  ///< a lambda's braces
/// already a documentation comment
int already;
}  // namespace sealwire
// a last comment
EOF
)

actual=$(printf '%s\n' "$input" | "$filter")
if [[ "$actual" != "$expected" ]]; then
  echo "doxygen-filter: unexpected output (< expected, > actual):"
  diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") || true
  status=1
fi

for f in crypto/include/sealwire/*/*.hpp hpke/include/sealwire/*/*.hpp record/include/sealwire/*/*.hpp \
         record/asio/include/sealwire/*/*.hpp cmake/version.hpp.in; do
  in_lines=$(wc -l <"$f")
  out_lines=$("$filter" "$f" | wc -l)
  if [[ "$in_lines" -ne "$out_lines" ]]; then
    echo "doxygen-filter: $f has $in_lines lines, its filtered form $out_lines"
    status=1
  fi
done

[[ $status -eq 0 ]] && echo "filter ok"
exit $status
