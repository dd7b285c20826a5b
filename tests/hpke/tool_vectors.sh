#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# sealwire-hpke vectors, end to end.
#   tool_vectors.sh TOOL official FILE
#     the official RFC 9180 file: exit 0 and every case, encryption and export passed.
#   tool_vectors.sh TOOL tampered FIXTURE WORKDIR
#     FIXTURE (tests/hpke/vectors-small.json: two official cases cut to three
#     encryptions each, and one case of a suite sealwire does not build) passes
#     as it is; with one hex digit of its first ciphertext changed it must
#     exit 1, count exactly that encryption as failed, and show the expected
#     (changed) and actual (computed) bytes.
#   tool_vectors.sh TOOL malformed WORKDIR
#     files that are not JSON or not an array exit 2; malformed cases exit 1
#     naming the problem; nothing crashes.
set -euo pipefail
tool="$1"; what="$2"
fail() { echo "FAIL: $*"; exit 1; }

case "$what" in
  official)
    file="$3"
    [[ -f "$file" ]] || fail "vector file $file not found"
    set +e; out=$("$tool" vectors --quiet "$file"); rc=$?; set -e
    printf '%s\n' "$out" | tail -3
    [[ $rc -eq 0 ]] || fail "exit status $rc, expected 0"
    grep -qxF 'total: 128 cases (128 checked, 0 not supported); passed: key schedule 128/128, encryptions 24672/24672, exports 384/384' <<<"$out" \
      || fail "totals differ from the official file's 128 cases, 24672 encryptions and 384 exports"
    echo "vectors ok"
    ;;
  tampered)
    fixture="$3"; work="$4"
    rm -rf "$work"; mkdir -p "$work"
    set +e; out=$("$tool" vectors --quiet "$fixture"); rc=$?; set -e
    [[ $rc -eq 0 ]] || { printf '%s\n' "$out"; fail "the untouched fixture: exit status $rc, expected 0"; }
    grep -q '^0x0051,hkdf-sha256,aes128gcm .* not supported$' <<<"$out" || fail "the unsupported suite is not listed as such"
    # Change the first hex digit of the first "ct".
    original=$(grep -m1 '"ct": "' "$fixture" | sed 's/.*"ct": "\([0-9a-f]*\)".*/\1/')
    [[ -n "$original" ]] || fail "no ct in $fixture"
    first=${original:0:1}
    [[ $first == 0 ]] && flipped="1${original:1}" || flipped="0${original:1}"
    awk -v from="$original" -v to="$flipped" '!done && index($0, "\"ct\": \"" from "\"") { sub(from, to); done = 1 } { print }' \
      "$fixture" > "$work/tampered.json"
    cmp -s "$fixture" "$work/tampered.json" && fail "the copy was not changed"
    set +e; out=$("$tool" vectors --quiet "$work/tampered.json"); rc=$?; set -e
    printf '%s\n' "$out"
    [[ $rc -eq 1 ]] || fail "exit status $rc, expected 1"
    grep -q '^first failure: case 0 (.*), encryption 0: ct$' <<<"$out" || fail "the first failure is not encryption 0's ct"
    grep -qF "  expected: $flipped " <<<"$out" || fail "the expected (changed) bytes are not shown"
    grep -qF "  actual:   $original " <<<"$out" || fail "the actual (computed) bytes are not shown"
    grep -q '^total: 3 cases (2 checked, 1 not supported); passed: key schedule 2/2, encryptions 5/6, exports 6/6$' <<<"$out" \
      || fail "exactly one encryption should have failed"
    grep -qx 'FAILED' <<<"$out" || fail "no FAILED verdict"
    echo "tamper ok"
    ;;
  malformed)
    work="$3"
    rm -rf "$work"; mkdir -p "$work"
    expect() {  # expect STATUS TEXT JSON
      printf '%s' "$3" > "$work/m.json"
      set +e; out=$("$tool" vectors --quiet "$work/m.json" 2>&1); rc=$?; set -e
      [[ $rc -eq $1 ]] || fail "$3: exit status $rc, expected $1: $out"
      grep -qF "$2" <<<"$out" || fail "$3: no \"$2\" in: $out"
    }
    s='"kem_id":32,"kdf_id":1,"aead_id":3'
    expect 2 "is not JSON" 'nope'
    expect 2 "expected a JSON array" '{}'
    expect 1 "case 0: not a JSON object" '[1]'
    expect 1 'missing field "ikmR"' "[{$s,\"mode\":0}]"
    expect 1 'field "mode" is not an integer from 0 to 3' "[{$s,\"mode\":7}]"
    expect 1 'field "kem_id" is not an integer' '[{"kem_id":-1,"kdf_id":1,"aead_id":3,"mode":0}]'
    expect 1 'field "ikmR" is not hex' "[{$s,\"mode\":0,\"ikmR\":\"zz\"}]"
    expect 0 "total: 1 cases (0 checked, 1 not supported)" '[{"kem_id":81,"kdf_id":1,"aead_id":1,"mode":0}]'
    echo "malformed ok"
    ;;
  *) fail "unknown check $what" ;;
esac
