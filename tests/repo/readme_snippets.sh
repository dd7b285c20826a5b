#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's and the guides' code cannot rot: every fenced block that
# follows a "<!-- quickstart: FILE -->" line in the README must equal the
# region of FILE between its two "[quickstart]" lines (dedented), and every
# quickstart file must be shown; every block after "<!-- excerpt: FILE TAG -->"
# in docs/*.md must equal FILE's region between its two "[TAG]" lines. The
# files themselves are built and run by ctest (labels quickstart, server).
# Usage: readme_snippets.sh SOURCE_DIR
set -euo pipefail
cd "$1"
status=0
shown=()

# region FILE [TAG]: the lines between the [TAG] markers (default
# quickstart), common indent removed.
region() {
  awk -v tag="[${2:-quickstart}]" 'index($0, tag) { inside = !inside; next } inside' "$1" |
    awk '{ lines[NR] = $0; if ($0 ~ /[^ ]/) { match($0, /^ */); if (min == "" || RLENGTH < min) min = RLENGTH } }
         END { for (i = 1; i <= NR; i++) print substr(lines[i], min + 1) }'
}

while IFS= read -r file; do
  shown+=("$file")
  block=$(awk -v f="$file" '
    $0 == "<!-- quickstart: " f " -->" { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' README.md)
  if [[ ! -f "$file" ]]; then
    echo "README shows $file, which does not exist"; status=1; continue
  fi
  if [[ "$block" != "$(region "$file")" ]]; then
    echo "README's snippet of $file differs from the file:"
    diff <(echo "$block") <(region "$file") || true
    status=1
  fi
done < <(sed -n 's/^<!-- quickstart: \(.*\) -->$/\1/p' README.md)

# block DOC MARKER: the fenced block that follows the line MARKER in DOC.
block() {
  awk -v m="$2" '
    $0 == m { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$1"
}
excerpts=0
for doc in docs/*.md; do
  while read -r file tag; do
    excerpts=$((excerpts + 1))
    if [[ ! -f "$file" ]]; then
      echo "$doc shows $file, which does not exist"; status=1; continue
    fi
    if [[ "$(block "$doc" "<!-- excerpt: $file $tag -->")" != "$(region "$file" "$tag")" ]]; then
      echo "$doc's excerpt [$tag] of $file differs from the file:"
      diff <(block "$doc" "<!-- excerpt: $file $tag -->") <(region "$file" "$tag") || true
      status=1
    fi
  done < <(sed -n 's/^<!-- excerpt: \([^ ]*\) \([^ ]*\) -->$/\1 \2/p' "$doc")
done

for f in examples/quickstart/*.cpp examples/quickstart/*.sh examples/quickstart/*/CMakeLists.txt; do
  [[ " ${shown[*]} " == *" $f "* ]] || { echo "$f is not shown in the README"; status=1; }
done
[[ $status -eq 0 ]] && echo "readme ok (${#shown[@]} snippets, $excerpts excerpts in docs)"
exit $status
