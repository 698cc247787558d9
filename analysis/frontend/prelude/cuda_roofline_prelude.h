//===- cuda_roofline_prelude.h - nvcc's dialect for clang -------*- C++ -*-===//
//
// Pre-included (-include) into every CUDA translation unit cuda-roofline
// parses: by the command-line tool, the clang-tidy module and the clang
// plugin's device jobs (analysis/frontend/Prelude.h; --no-prelude,
// roofline.Prelude and -fplugin-arg-roofline-prelude=false turn it off). Code
// written for nvcc leans on declarations that nvcc's headers make and clang's
// CUDA headers do not; without them clang rejects the whole file, often for a
// line of host code far from any kernel. Each shim below reproduces one
// such nvcc behaviour, names the header it mirrors, and is guarded so that
// a file that compiles without the prelude compiles the same with it: a
// template where a real (non-template) declaration may exist, since the
// real one then wins overload resolution and nothing is redeclared.
//
// The clang driver pre-includes __clang_cuda_runtime_wrapper.h before any
// -include of the command line, so everything that wrapper declares (the
// CUDA runtime API, <cmath>, clang's device math and intrinsics) is
// declared here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_PRELUDE_H
#define CUDA_ROOFLINE_PRELUDE_H

// Warnings of the user's build or of clang-tidy's other checks are not
// about this file.
#pragma clang system_header

// Only clang's CUDA mode lacks these (nvcc never sees this file; HIP and
// plain C++ are left alone), and every shim needs C++.
#if defined(__clang__) && defined(__CUDA__) && !defined(__NVCC__) &&           \
    defined(__cplusplus)

#include <stddef.h>

//===----------------------------------------------------------------------===//
// isfinite, isnan, isinf, signbit in the global namespace, on the host
//===----------------------------------------------------------------------===//
//
// nvcc's crt/math_functions.h includes <math.h>, whose libstdc++ version
// brings std::isfinite, std::isnan, std::isinf, std::signbit (and the rest
// of <cmath>) into the global namespace: host code written for nvcc calls
// them unqualified (`if (!isfinite(x))` in a host template). clang's wrapper
// includes <cmath> only, so the only global isfinite is clang's __device__
// one (__clang_cuda_cmath.h) and such a host call has no viable candidate.
// Including <math.h> is what nvcc does; on the device side clang's own
// __device__ overloads stay preferred over the (constexpr, host-device)
// libstdc++ ones. libc++'s <cmath> declares them globally already.
#if defined(__GLIBCXX__)
#include <math.h>
#endif

//===----------------------------------------------------------------------===//
// Cache-hint loads and stores
//===----------------------------------------------------------------------===//
//
// nvcc's sm_32_intrinsics.h declares __ldcg, __ldca, __ldcs, __ldlu, __ldcv
// and __stwb, __stcg, __stcs, __stwt for every builtin scalar and vector
// type (char ... unsigned long long, float, double, int4, float4, double2,
// ...). clang's __clang_cuda_intrinsics.h defines only __ldcg, __ldcs,
// __ldcv and __stwt, and not for long or unsigned long (__stwt) or unsigned
// long (the loads); __ldca, __ldlu, __stwb, __stcg and __stcs are missing
// for every builtin type. The __half, __half2, __nv_bfloat16 and
// __nv_bfloat162 overloads of all nine come from cuda_fp16.hpp and
// cuda_bf16.hpp, which clang includes as nvcc does: they need nothing here
// (their inline PTX is counted by the analysis like a plain access).
//
// Templates, so that each of clang's or the CUDA headers' non-template
// overloads (or a project's own) is still the one called where it exists;
// these cover the rest. The hint is dropped: for the analysis a cache-hint
// access is a plain load or store of its width, which is how it is counted
// (docs/counting.md).
namespace cuda_roofline_prelude {
template <class T> struct Identity {
  using Type = T;
};
} // namespace cuda_roofline_prelude

#define CUDA_ROOFLINE_HINT_LOAD(Name)                                          \
  template <class T> __device__ inline T Name(const T *Ptr) { return *Ptr; }
#define CUDA_ROOFLINE_HINT_STORE(Name)                                         \
  template <class T>                                                           \
  __device__ inline void Name(                                                 \
      T *Ptr, typename cuda_roofline_prelude::Identity<T>::Type Value) {       \
    *Ptr = Value;                                                              \
  }
CUDA_ROOFLINE_HINT_LOAD(__ldcg)
CUDA_ROOFLINE_HINT_LOAD(__ldca)
CUDA_ROOFLINE_HINT_LOAD(__ldcs)
CUDA_ROOFLINE_HINT_LOAD(__ldlu)
CUDA_ROOFLINE_HINT_LOAD(__ldcv)
CUDA_ROOFLINE_HINT_STORE(__stwb)
CUDA_ROOFLINE_HINT_STORE(__stcg)
CUDA_ROOFLINE_HINT_STORE(__stcs)
CUDA_ROOFLINE_HINT_STORE(__stwt)
#undef CUDA_ROOFLINE_HINT_LOAD
#undef CUDA_ROOFLINE_HINT_STORE

//===----------------------------------------------------------------------===//
// min and max on the host, with mixed argument types
//===----------------------------------------------------------------------===//
//
// nvcc's crt/math_functions.hpp defines min and max as __host__ __device__
// functions for every pair of int, long, long long (signed and unsigned,
// either order), float and double (float with double either order), and
// host umin, umax, llmin, llmax, ullmin, ullmax: host code calls
// max(n, (size_t)1) or min(a, b) unqualified. clang declares them for the
// device only (__clang_cuda_math.h, and the CUDA header's versions as
// __device__), so on the host no candidate is viable. These are the same
// overloads, host only, so a call resolves (or is ambiguous) as under nvcc:
// mixed signedness compares in the unsigned type, as nvcc's do. Plain
// functions rather than templates, so that they win over std::max when a
// `using namespace std;` makes both visible, as nvcc's do; nvcc would
// reject a host redefinition of them too.
#define CUDA_ROOFLINE_MINMAX(R, A, B)                                          \
  __host__ inline R min(A a, B b) {                                            \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a)           \
                                                 : static_cast<R>(b);          \
  }                                                                            \
  __host__ inline R max(A a, B b) {                                            \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a)           \
                                                 : static_cast<R>(b);          \
  }
CUDA_ROOFLINE_MINMAX(int, int, int)
CUDA_ROOFLINE_MINMAX(unsigned int, unsigned int, unsigned int)
CUDA_ROOFLINE_MINMAX(unsigned int, int, unsigned int)
CUDA_ROOFLINE_MINMAX(unsigned int, unsigned int, int)
CUDA_ROOFLINE_MINMAX(long, long, long)
CUDA_ROOFLINE_MINMAX(unsigned long, unsigned long, unsigned long)
CUDA_ROOFLINE_MINMAX(unsigned long, long, unsigned long)
CUDA_ROOFLINE_MINMAX(unsigned long, unsigned long, long)
CUDA_ROOFLINE_MINMAX(long long, long long, long long)
CUDA_ROOFLINE_MINMAX(unsigned long long, unsigned long long, unsigned long long)
CUDA_ROOFLINE_MINMAX(unsigned long long, long long, unsigned long long)
CUDA_ROOFLINE_MINMAX(unsigned long long, unsigned long long, long long)
CUDA_ROOFLINE_MINMAX(float, float, float)
CUDA_ROOFLINE_MINMAX(double, double, double)
CUDA_ROOFLINE_MINMAX(double, float, double)
CUDA_ROOFLINE_MINMAX(double, double, float)
#undef CUDA_ROOFLINE_MINMAX
#define CUDA_ROOFLINE_NAMED_MINMAX(Min, Max, T)                                \
  __host__ inline T Min(T a, T b) { return a < b ? a : b; }                    \
  __host__ inline T Max(T a, T b) { return a > b ? a : b; }
CUDA_ROOFLINE_NAMED_MINMAX(umin, umax, unsigned int)
CUDA_ROOFLINE_NAMED_MINMAX(llmin, llmax, long long)
CUDA_ROOFLINE_NAMED_MINMAX(ullmin, ullmax, unsigned long long)
#undef CUDA_ROOFLINE_NAMED_MINMAX

//===----------------------------------------------------------------------===//
// Runtime API functions removed from the toolkit
//===----------------------------------------------------------------------===//
//
// Old code still calls runtime functions that later toolkits removed from
// cuda_runtime_api.h; each maps to its successor. Templates with a default
// argument: where the toolkit (or the project) still declares the function,
// that declaration is the one called; the parameters are not deduced, so
// arguments convert as for a plain function. Texture and surface
// references are not supplied (they were removed with their types).
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
// The cudaThread* functions, deprecated since CUDA 4.0 for their
// cudaDevice* successors, and the no-op cudaSetDoubleFor* are gone from
// CUDA 13's cuda_runtime_api.h (generated_cudart_removed_meta.h lists them).
template <class = void> __host__ inline cudaError_t cudaThreadSynchronize() {
  return cudaDeviceSynchronize();
}
template <class = void> __host__ inline cudaError_t cudaThreadExit() {
  return cudaDeviceReset();
}
template <class = void>
__host__ inline cudaError_t cudaThreadSetLimit(enum cudaLimit Limit,
                                               size_t Value) {
  return cudaDeviceSetLimit(Limit, Value);
}
template <class = void>
__host__ inline cudaError_t cudaThreadGetLimit(size_t *Value,
                                               enum cudaLimit Limit) {
  return cudaDeviceGetLimit(Value, Limit);
}
template <class = void>
__host__ inline cudaError_t
cudaThreadSetCacheConfig(enum cudaFuncCache Config) {
  return cudaDeviceSetCacheConfig(Config);
}
template <class = void>
__host__ inline cudaError_t
cudaThreadGetCacheConfig(enum cudaFuncCache *Config) {
  return cudaDeviceGetCacheConfig(Config);
}
// They converted a double argument for devices without doubles; every
// device the toolkit supports has them, where they did nothing.
template <class = void>
__host__ inline cudaError_t cudaSetDoubleForDevice(double *) {
  return cudaSuccess;
}
template <class = void>
__host__ inline cudaError_t cudaSetDoubleForHost(double *) {
  return cudaSuccess;
}
// CUDA 11's cudaGraphInstantiate(exec, graph, errorNode, logBuffer,
// bufferSize); CUDA 12 keeps only (exec, graph, flags).
template <class = void>
__host__ inline cudaError_t
cudaGraphInstantiate(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                     cudaGraphNode_t *, char *, size_t) {
  return cudaGraphInstantiate(Exec, Graph, 0ULL);
}
#endif

#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
// Before CUDA 13 these took the device as an int (cudaCpuDeviceId for the
// host); CUDA 13 takes a cudaMemLocation (and prefetch flags).
namespace cuda_roofline_prelude {
__host__ inline cudaMemLocation location(int Device) {
  cudaMemLocation L = {};
  L.type = Device == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                     : cudaMemLocationTypeDevice;
  L.id = Device == cudaCpuDeviceId ? 0 : Device;
  return L;
}
} // namespace cuda_roofline_prelude
template <class = void>
__host__ inline cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t Count,
                                                 int Device,
                                                 cudaStream_t Stream = 0) {
  return cudaMemPrefetchAsync(
      Ptr, Count, cuda_roofline_prelude::location(Device), 0U, Stream);
}
template <class = void>
__host__ inline cudaError_t cudaMemAdvise(const void *Ptr, size_t Count,
                                          enum cudaMemoryAdvise Advice,
                                          int Device) {
  return cudaMemAdvise(Ptr, Count, Advice,
                       cuda_roofline_prelude::location(Device));
}
#endif

#endif // __clang__ && __CUDA__ && !__NVCC__ && __cplusplus
#endif // CUDA_ROOFLINE_PRELUDE_H
