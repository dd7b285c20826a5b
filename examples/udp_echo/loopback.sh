#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# sealwire-udp-echo on loopback: a server for two sessions; a clean client
# gets every echo; a client through the fault injector (loss, reordering,
# corruption) gets only genuine echoes, misses some, and the server rejects
# the corrupted datagrams.
# Usage: loopback.sh UDP_ECHO WORKDIR
set -euo pipefail
bin=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
fail() { echo "FAIL: $*"; cat server.log client*.log 2>/dev/null || true; exit 1; }

"$bin" server --listen 127.0.0.1:0 --sessions 2 >server.log 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "^listening on" server.log && break; sleep 0.1; done
addr=$(sed -n 's/^listening on //p' server.log)
key=$(sed -n 's/^server key //p' server.log)
[[ -n "$addr" && -n "$key" ]] || fail "the server did not start"

"$bin" client --connect "$addr" --server-key "$key" --count 200 >client1.log 2>&1 || fail "clean client failed"
grep -q "^delivered 200 lost 0 rejected 0 " client1.log || fail "a clean path lost or rejected something: $(cat client1.log)"

"$bin" client --connect "$addr" --server-key "$key" --count 400 --loss 0.1 --reorder 0.2 --corrupt 0.05 --seed 7 \
  >client2.log 2>&1 || fail "faulty client failed"
line=$(grep "^delivered" client2.log) || fail "no counts: $(cat client2.log)"
read -r _ delivered _ lost _ rejected _ <<<"$line"
(( delivered > 200 && delivered < 400 )) || fail "delivered $delivered of 400"
(( lost == 400 - delivered )) || fail "lost $lost"
(( rejected > 0 )) || fail "no corrupted datagram was rejected"
grep -q "unexpected 0)" client2.log || fail "an unexpected echo: $line"
wait "$pid" || fail "the server did not exit cleanly"
trap - EXIT
cat client2.log
echo "udp echo ok"
