// The one place that decides whether the 128-bit SIMD kernels exist in this build.
// wasm32 with -msimd128 uses the real <wasm_simd128.h>; native builds use SIMDe, which
// implements the same wasm_* intrinsics on the host CPU, so native tests run the very
// same SIMD source. A baseline wasm build (no -msimd128) gets only the scalar kernels.
#pragma once

#if defined(ATTN_KERNEL_SET_AGNOSTIC)
// A test file compiled once and linked into the suites of both kernel sets (CMakeLists.txt): it may
// not ask which set it runs, or its one object would answer for both. Any use of the macro fails to
// compile ("function-like macro not defined"), and kernel_isa() and attn::kern are not declared.
#define ATTN_HAVE_SIMD128 ATTN_HAVE_SIMD128_is_unknown_in_a_file_shared_by_both_kernel_sets()
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define ATTN_HAVE_SIMD128 1
#elif defined(ATTN_USE_SIMDE)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#define ATTN_HAVE_SIMD128 1
#else
#define ATTN_HAVE_SIMD128 0
#endif

#if !defined(ATTN_KERNEL_SET_AGNOSTIC)
namespace attn {
/// Name of the instruction set the dispatched kernels use in this build.
inline const char* kernel_isa() {
#if ATTN_HAVE_SIMD128
#if defined(__wasm_simd128__)
  return "wasm-simd128";
#else
  return "simde-simd128";
#endif
#else
  return "scalar";
#endif
}
}  // namespace attn
#endif
