#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file in the repository names its licence in an SPDX line near
# the top (the first three lines, so a shebang may come first).
set -euo pipefail
cd "$1"
missing=0
while IFS= read -r f; do
  case "$f" in
    *.md|*.json|*.svg|.gitignore|LICENSE|NOTICE|tests/vectors/*|fuzz/corpus/*) continue ;;
  esac
  if ! head -3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0'; then
    echo "no SPDX line: $f"
    missing=1
  fi
done < <(git ls-files 2>/dev/null || find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||')
[[ $missing -eq 0 ]] && echo "spdx ok"
exit $missing
