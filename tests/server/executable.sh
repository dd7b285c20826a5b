#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# sealwire-echo-server as an operator runs it: keys from the chat's keygen,
# an allow-list, SIGHUP reloads the key (rotation), SIGTERM stops it cleanly;
# a private key file readable by others and a malformed allow-list are refused.
# Usage: executable.sh SERVER CHAT_SERVER WORKDIR
set -euo pipefail
server=$1 chat=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
fail() { echo "FAIL: $*"; cat server.log 2>/dev/null || true; exit 1; }

"$chat" keygen --out server >/dev/null
"$chat" keygen --out client >/dev/null
{ echo "# allowed clients"; cat client.pub; echo; } > allow.txt

"$server" --listen 127.0.0.1:0 --key server.key --allow allow.txt --log-level info >server.log 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "^listening on" server.log && break; sleep 0.1; done
grep -q "^listening on 127.0.0.1:" server.log || fail "the server did not start"
grep -q "1 client key(s) allowed" server.log || fail "the allow-list was not read"

# Rotation: a new key, then SIGHUP.
"$chat" keygen --out server --force >/dev/null
kill -HUP "$pid"
for _ in $(seq 100); do grep -q "reloaded" server.log && break; sleep 0.1; done
grep -q "key and allow-list reloaded" server.log || fail "SIGHUP did not reload"
[[ $(grep -c "server key xwing" server.log) -eq 2 ]] || fail "the reloaded key was not logged"

kill -TERM "$pid"
wait "$pid" || fail "the server did not exit cleanly"
grep -q "served 0 connections" server.log || fail "no summary at stop"

# Refusals: a private key readable by others, a malformed allow-list.
chmod 644 server.key
if "$server" --listen 127.0.0.1:0 --key server.key >bad.log 2>&1; then fail "a world-readable key was used"; fi
grep -q "readable by others" bad.log || fail "no reason for the refused key: $(cat bad.log)"
chmod 600 server.key
echo "not a key" > bad-allow.txt
if "$server" --listen 127.0.0.1:0 --key server.key --allow bad-allow.txt >bad.log 2>&1; then fail "a malformed allow-list was used"; fi
grep -q "bad-allow.txt:1:" bad.log || fail "the allow-list error does not name the line: $(cat bad.log)"
echo "server executable ok"
