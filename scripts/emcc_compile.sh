#!/usr/bin/env bash
# The wasm builds' compiler launcher (CMakeLists.txt): runs em++'s compile of one source as the clang
# command em++ itself would run, without em++'s Python start (~0.2 CPU-s of a file's ~1.7). The clang
# command and em++'s own flags are em++'s, read once per set of options from `em++ -v` compiling an
# empty file with the same options (they depend on some: -Oz adds -fno-inline-functions, -flto drops
# the backend flags), and kept in CACHE_DIR (cleared at each configure); the objects are byte for byte
# em++'s. Anything but a compile of one source with -c runs em++ unchanged.
# Usage (as CMAKE_CXX_COMPILER_LAUNCHER): emcc_compile.sh CACHE_DIR EM++ ARGS...
set -euo pipefail
cache="$1"
shift
em="$1"
shift

# The options em++ may read (everything but defines, include paths, dependency output, -o, -c, sources).
options=()
compile=0
sources=0
skip_next=0
for arg in "$@"; do
  if [ "$skip_next" = 1 ]; then skip_next=0; continue; fi
  case "$arg" in
    -c) compile=1 ;;
    -o|-MT|-MF|-MQ) skip_next=1 ;;
    -D*|-I*|@*|-MD|-MMD) ;;
    -*) options+=("$arg") ;;
    *.cpp|*.cc|*.cxx) sources=$((sources + 1)) ;;
    *) exec "$em" "$@" ;; # an argument this script does not know: em++ itself
  esac
done
[ "$compile" = 1 ] && [ "$sources" = 1 ] || exec "$em" "$@"

key=$(printf '%s\n' "$em" "${options[@]}" | md5sum)
file="$cache/${key%% *}"
if [ ! -s "$file" ]; then
  mkdir -p "$cache"
  probe="$cache/probe.cpp"
  [ -f "$probe" ] || : > "$probe"
  # em++ prints the clang command as: "CLANG" EM_FLAGS -v OPTIONS... -c probe.cpp -o /dev/null
  line=$("$em" -v -c "$probe" -o /dev/null "${options[@]}" 2>&1 | grep -F -- " -v " | grep -F -- "$probe" | head -n 1) || true
  [ -n "$line" ] || exec "$em" "$@"
  printf '%s\n' "${line%% -v *}" > "$file.$$"
  mv -f "$file.$$" "$file"
fi
eval "prefix=($(cat "$file"))"
exec "${prefix[@]}" "$@"
