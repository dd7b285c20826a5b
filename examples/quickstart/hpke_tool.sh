#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Quickstart: the sealwire-hpke tool, keys to files, seal from stdin, open to
# stdout. Usage: hpke_tool.sh PATH_TO_SEALWIRE_HPKE WORK_DIR
set -euo pipefail
tool="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"; cd "$work"
PATH="$(dirname "$tool"):$PATH"
# [quickstart]
sealwire-hpke keygen --out bob                 # bob.priv (mode 0600) and bob.pub
echo "hello bob" | sealwire-hpke seal --recipient bob.pub --info "my app v1" > msg.bin
sealwire-hpke open --key bob.priv --info "my app v1" --in msg.bin
# [quickstart]
