// Local helper header, found only through -I (see forceinline.cu).
#pragma once
__forceinline__ __device__ float horner3(float x, float c0, float c1, float c2,
                                         float c3) {
  return ((c3 * x + c2) * x + c1) * x + c0;
}
