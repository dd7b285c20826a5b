#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The package test: builds sealwire as shared libraries (hidden visibility,
# so a public symbol without SEALWIRE_API fails here), installs it into a
# scratch prefix and checks, for each component alone:
#   - find_package(sealwire CONFIG REQUIRED COMPONENTS c) with Boost and
#     spdlog hidden (except for asio, which needs Boost), a consumer that
#     includes every installed public header of c, links only sealwire::c,
#     builds with -Wall -Wextra -Werror and runs;
#   - the consumer's program through pkg-config (sealwire-c.pc), its flags
#     alone (the headers were compiled through find_package);
# then that missing components are reported, that only public headers were
# installed, that internal symbols stay hidden, and that a consumer using
# add_subdirectory on the source tree gets the libraries alone.
# Usage: check.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src="$1"; work="$2"
here="$src/tests/package"
jobs="-j$(nproc)"
rm -rf "$work"; mkdir -p "$work"
prefix="$work/prefix"

step() { echo "== $*"; }

# The libraries here are built at -O1 (and the add_subdirectory consumer's at
# -O0): this test checks what is installed, exported and linked, not speed, and
# the optimiser's time is most of its cost.
step "build and install sealwire (shared libraries)"
cmake -S "$src" -B "$work/lib" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DBUILD_SHARED_LIBS=ON \
  -DSEALWIRE_BUILD_TESTS=OFF -DSEALWIRE_BUILD_EXAMPLES=OFF -DSEALWIRE_BUILD_BENCH=OFF \
  -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build "$work/lib" "$jobs" >/dev/null
cmake --install "$work/lib" >/dev/null

# The add_subdirectory consumer builds its own copy of the libraries (at -O0,
# one job) in the background while the single-threaded checks below run; its
# result is collected at the end.
step "add_subdirectory consumer (started in the background)"
# Its own session and process group (setsid, util-linux), so a failing check
# stops the whole build, ninja's compilers included.
setsid -w bash -c 'cmake -S "$1/subdir" -B "$2/subdir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
                  -DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG" -DSEALWIRE_SOURCE_DIR="$3" \
                  -DSEALWIRE_CONSUMER_SOURCE="$1/consumer/hpke.cpp" &&
                cmake --build "$2/subdir" -j1 --target consumer' _ "$here" "$work" "$src" >"$work/subdir.log" 2>&1 &
subdir_pid=$!
trap '[[ -z "${subdir_pid:-}" ]] || kill -TERM -- "-$subdir_pid" 2>/dev/null || true' EXIT

# The public headers of each component, relative to the include directory.
headers_of() {
  case "$1" in
    crypto) (cd "$src/crypto/include" && ls sealwire/crypto/*.hpp); echo sealwire/version.hpp ;;
    hpke) (cd "$src/hpke/include" && ls sealwire/hpke/*.hpp) ;;
    record) (cd "$src/record/include" && ls sealwire/record/*.hpp) ;;
    datagram) (cd "$src/record/datagram/include" && ls sealwire/record/datagram/*.hpp) ;;
    asio) (cd "$src/record/asio/include" && find sealwire -name "*.hpp" | sort) ;;  # stream.hpp is header-only: its detail/ header is installed too
    group) (cd "$src/record/group/include" && ls sealwire/record/group/*.hpp) ;;
  esac
}

step "only the public headers are installed"
expected=$(for c in crypto hpke record datagram asio group; do headers_of "$c"; done | sort)
installed=$(cd "$prefix/include" && find sealwire -type f | sort)
if [[ "$expected" != "$installed" ]]; then
  echo "installed headers differ from the components' public headers:"
  diff <(echo "$expected") <(echo "$installed") || true
  exit 1
fi

step "internal symbols are hidden"
lib="$prefix/lib/libsealwire_crypto.so"
symbols=$(nm -DC --defined-only "$lib")
grep -q 'sealwire::box::seal' <<<"$symbols" || { echo "box::seal not exported"; exit 1; }
if grep -E 'gcm_set_key|chacha_blocks_x16_avx512|stream_xor' <<<"$symbols"; then
  echo "internal symbols are exported"; exit 1
fi
dynamic=$(readelf -d "$lib")
# Below 1.0 the SONAME carries MAJOR.MINOR (a minor version may break the ABI).
soversion=$(sed -n 's/^project(sealwire VERSION \([0-9]*\)\.\([0-9]*\).*/\1.\2/p' "$src/CMakeLists.txt")
[[ "$soversion" == 0.* ]] || soversion=${soversion%%.*}
grep -q "SONAME.*libsealwire_crypto.so.$soversion\]" <<<"$dynamic" || { echo "SONAME is not .so.$soversion"; echo "$dynamic"; exit 1; }

for c in crypto hpke record datagram asio group; do
  tu="$work/headers-$c.cpp"
  { echo "// every public header of sealwire::$c"; headers_of "$c" | sed 's|.*|#include <&>|'; } > "$tu"
  hide=(-DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON)
  [[ "$c" == asio ]] && hide=(-DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON)
  step "component $c through find_package"
  cmake -S "$here/consumer" -B "$work/consumer-$c" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DSEALWIRE_COMPONENT="$c" -DSEALWIRE_HEADERS_TU="$tu" "${hide[@]}" >/dev/null
  cmake --build "$work/consumer-$c" >/dev/null
  LD_LIBRARY_PATH="$prefix/lib" "$work/consumer-$c/consumer"  # a library's own dependencies are not on the consumer's RUNPATH
  step "component $c through pkg-config"
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs "sealwire-$c")
  if [[ "$flags" == *-std=* ]]; then echo "sealwire-$c.pc forces a language standard: $flags"; exit 1; fi
  # The flags alone are checked here: every header was compiled through
  # find_package above against the same installed include directory.
  # shellcheck disable=SC2086
  g++ -std=c++20 -Wall -Wextra -Werror "$here/consumer/$c.cpp" -o "$work/pc-$c" $flags -Wl,-rpath,"$prefix/lib"
  LD_LIBRARY_PATH="$prefix/lib" "$work/pc-$c"
done

step "missing components are reported"
for bad in "nonexistent" "asio"; do
  dir="$work/missing-$bad"
  mkdir -p "$dir"
  cat > "$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(missing LANGUAGES CXX)
find_package(sealwire CONFIG REQUIRED COMPONENTS $bad)
CMAKE
  if cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON \
       >"$dir/log" 2>&1; then
    echo "find_package(sealwire COMPONENTS $bad) succeeded"; exit 1
  fi
  grep -q "$bad" "$dir/log" || { echo "the failure does not name $bad:"; cat "$dir/log"; exit 1; }
done

step "the README's find_package quickstart"
cmake -S "$src/examples/quickstart/find_package" -B "$work/quickstart" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON >/dev/null
cmake --build "$work/quickstart" >/dev/null
LD_LIBRARY_PATH="$prefix/lib" "$work/quickstart/hpke_app"

step "add_subdirectory consumer"
status=0
wait "$subdir_pid" || status=$?
subdir_pid=""
if [[ $status -ne 0 ]]; then
  echo "the add_subdirectory consumer did not build:"; tail -n 40 "$work/subdir.log"; exit 1
fi
"$work/subdir/consumer"
echo "package ok"
