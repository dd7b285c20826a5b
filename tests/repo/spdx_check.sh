#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file in the repository names its licence in an SPDX line near
# the top (the first three lines, so a shebang may come first). One `head`
# over all files (its "==> name <==" headers mark each file's lines) and one
# awk keep this to a few processes, not two per file.
set -euo pipefail
cd "$1"
list() { git ls-files 2>/dev/null || find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||'; }
files=()
while IFS= read -r f; do
  case "$f" in
    *.md|*.json|*.svg|.gitignore|LICENSE|NOTICE|tests/vectors/*|fuzz/corpus/*) continue ;;
  esac
  files+=("$f")
done < <(list)
[[ ${#files[@]} -gt 0 ]] || { echo "no files to check"; exit 1; }
missing=$(head -q -n 3 -v -- "${files[@]}" | awk '
  /^==> .* <==$/ { if (name != "" && !found) print name; name = substr($0, 5, length($0) - 8); found = 0; next }
  /SPDX-License-Identifier: Apache-2.0/ { found = 1 }
  END { if (name != "" && !found) print name }')
if [[ -n "$missing" ]]; then
  sed 's/^/no SPDX line: /' <<<"$missing"
  exit 1
fi
echo "spdx ok (${#files[@]} files)"
