#pragma once
// A helper clang rejects: 'gain' is declared nowhere.
__device__ inline float scaled(float x) { return gain * x; }
