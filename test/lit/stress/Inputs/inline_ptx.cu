// Inline PTX: arithmetic the tool reads (fma, add/mul/sub blocks, f16x2),
// a predicated add, a comment holding a ';', and memory/control-flow asm that
// it cannot count. n = 1000, every kernel <<<4, 256>>>.
// cuda-roofline: param n=1000
#include <cuda_fp16.h>

// One fma.rn.f32 = 2 fp32 FLOPs.
__global__ void ptx_fma(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r;
    asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x[i]), "f"(2.0f), "f"(1.0f));
    y[i] = r;
  }
}

// A scoped block: add, mul, sub (3 fp32 FLOPs) and integer mad.lo (0 FLOPs).
__global__ void ptx_block(const float *x, float *y, int *k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r;
    int j;
    asm("{\n\t"
        ".reg .f32 t;\n\t"
        "add.f32 t, %2, %2;\n\t"
        "mul.f32 t, t, %2;\n\t"
        "sub.f32 %0, t, %2;\n\t"
        "mad.lo.s32 %1, %3, 3, 7;\n\t"
        "}"
        : "=f"(r), "=r"(j) : "f"(x[i]), "r"(i));
    y[i] = r;
    k[i] = j;
  }
}

// fma.rn.f16x2: 2 lanes x 2 = 4 fp16 FLOPs.
__global__ void ptx_h2(const unsigned *a, unsigned *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned r;
    unsigned v = a[i];
    asm("fma.rn.f16x2 %0, %1, %1, %1;" : "=r"(r) : "r"(v));
    c[i] = r;
  }
}

// The add is predicated on threadIdx.x < 16: only 16 threads of each block
// execute it (pred_on), so 16 FLOPs per block, 64 in the grid; thread 0 does 1.
__global__ void ptx_predicated(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r = x[i];
    asm("{\n\t"
        ".reg .pred p;\n\t"
        "setp.lt.u32 p, %1, 16;\n\t"
        "@p add.f32 %0, %0, %0;\n\t"
        "}"
        : "+f"(r) : "r"(threadIdx.x));
    y[i] = r;
  }
}

// A PTX comment that contains a ';': only the add is an instruction (1 FLOP).
__global__ void ptx_comment(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r;
    asm("// was: t = a*a; mul.f32 %0, %1, %1\n\t"
        "add.f32 %0, %1, %1;"
        : "=f"(r) : "f"(x[i]));
    y[i] = r;
  }
}

// A global load in asm: the load is not counted by the tool, so the loads
// must be unknown (with this line), never 0.
__global__ void ptx_ld(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(r) : "l"(x + i));
    y[i] = r * 3.0f;
  }
}

// The same load in a non-volatile asm without a "memory" clobber (how CUDA's
// own headers wrote __ldg/__ldcs): the compiler treats the asm as not touching
// memory, but the hardware still loads 4 B per thread.
__global__ void ptx_ld_nv(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r;
    asm("ld.global.nc.f32 %0, [%1];" : "=f"(r) : "l"(x + i));
    y[i] = r * 3.0f;
  }
}

// A loop in asm (label + bra): 8 iterations of an add, not analyzable.
__global__ void ptx_loop(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r = x[i];
    asm("{\n\t"
        ".reg .u32 c;\n\t"
        ".reg .pred q;\n\t"
        "mov.u32 c, 8;\n"
        "LOOP_%=:\n\t"
        "add.f32 %0, %0, %0;\n\t"
        "sub.u32 c, c, 1;\n\t"
        "setp.ne.u32 q, c, 0;\n\t"
        "@q bra LOOP_%=;\n\t"
        "}"
        : "+f"(r));
    y[i] = r;
  }
}

void run(const float *x, float *y, int *k, const unsigned *a, unsigned *c, int n) {
  ptx_fma<<<(n + 255) / 256, 256>>>(x, y, n);
  ptx_block<<<(n + 255) / 256, 256>>>(x, y, k, n);
  ptx_h2<<<(n + 255) / 256, 256>>>(a, c, n);
  ptx_predicated<<<(n + 255) / 256, 256>>>(x, y, n);
  ptx_comment<<<(n + 255) / 256, 256>>>(x, y, n);
  ptx_ld<<<(n + 255) / 256, 256>>>(x, y, n);
  ptx_ld_nv<<<(n + 255) / 256, 256>>>(x, y, n);
  ptx_loop<<<(n + 255) / 256, 256>>>(x, y, n);
}
