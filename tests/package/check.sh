#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the build tree into a scratch prefix, then builds and runs a
# consumer with find_package(sealwire) and with pkg-config.
set -euo pipefail
build_dir="$1"; src_dir="$2"; work="$3"
rm -rf "$work"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$src_dir" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --exists sealwire
flags=$(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs sealwire)
# shellcheck disable=SC2086
g++ "$src_dir/consumer.cpp" -o "$work/consumer-pc" $flags -Wl,-rpath,"$work/prefix/lib"
"$work/consumer-pc"
echo "package ok"
