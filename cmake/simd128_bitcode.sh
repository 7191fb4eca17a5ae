#!/usr/bin/env bash
# The SIMD wasm variant's copy of a cold object compiled once for both variants (CMakeLists.txt,
# attn_variant_sources): the object is LLVM bitcode (-flto), optimised by the module's link; this marks
# each of its functions as allowed to use simd128, so that link vectorises it for the SIMD module as it
# did when the file was compiled with -msimd128 (without the mark the SIMD module grew 109 B gzipped).
# The baseline variant links the object unchanged (no SIMD instruction).
# Usage: simd128_bitcode.sh LLVM_DIS LLVM_AS IN.o OUT.o
set -euo pipefail
dis="$1" as="$2" in="$3" out="$4"
text=$("$dis" -o - "$in")
# Every function clang defines carries its target features (at least +exception-handling under
# -fwasm-exceptions); one without would stay scalar, so a file with none is refused.
grep -q '"target-features"="' <<< "$text" || { echo "simd128_bitcode.sh: $in has no target-features attribute" >&2; exit 1; }
if grep -q '"target-features"="[^"]*+simd128' <<< "$text"; then
  echo "simd128_bitcode.sh: $in was compiled with simd128 already" >&2; exit 1
fi
sed 's/"target-features"="\([^"]*\)"/"target-features"="\1,+simd128"/g' <<< "$text" | "$as" -o "$out.$$"
mv -f "$out.$$" "$out"
