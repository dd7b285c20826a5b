#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Proves the constant-time check can fail: memcheck must report the
# deliberately leaky comparison in sealwire_ct_check (a branch on a secret).
# Usage: expect_leak.sh VALGRIND CT_CHECK
set -uo pipefail
valgrind=$1 check=$2
out=$("$valgrind" --error-exitcode=99 "$check" leaky 2>&1)
rc=$?
echo "$out"
if [[ $rc -ne 99 ]]; then
  echo "expect_leak: valgrind exited with $rc, expected 99 (an error report)" >&2
  exit 1
fi
if ! grep -q "Conditional jump or move depends on uninitialised value" <<<"$out" ||
   ! grep -q "leaky_equal" <<<"$out"; then
  echo "expect_leak: memcheck did not report the branch in leaky_equal" >&2
  exit 1
fi
echo "expect_leak: memcheck caught the branch on a secret"
