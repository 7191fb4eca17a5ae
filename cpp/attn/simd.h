// The one place that decides whether the 128-bit SIMD kernels exist in this build.
// wasm32 with -msimd128 uses the real <wasm_simd128.h>; native builds use SIMDe, which
// implements the same wasm_* intrinsics on the host CPU, so native tests run the very
// same SIMD source. A baseline wasm build (no -msimd128) gets only the scalar kernels.
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define ATTN_HAVE_SIMD128 1
#elif defined(ATTN_USE_SIMDE)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#define ATTN_HAVE_SIMD128 1
#else
#define ATTN_HAVE_SIMD128 0
#endif

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
