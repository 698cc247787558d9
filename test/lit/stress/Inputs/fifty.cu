// 50 kernels in one file: k00..k49; kernel kNN does NN+1 multiplies by 1.5f
// in a chain on x[i] (NN+1 fp32 FLOPs), 1 load, 1 store, under i < n.
// All launched from one host function with <<<(n + 127) / 128, 128>>>.
#define CHAIN(v, k) for (int j = 0; j <= k; ++j) v *= 1.5f

__global__ void k00(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 0);
    x[i] = v;
  }
}
__global__ void k01(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 1);
    x[i] = v;
  }
}
__global__ void k02(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 2);
    x[i] = v;
  }
}
__global__ void k03(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 3);
    x[i] = v;
  }
}
__global__ void k04(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 4);
    x[i] = v;
  }
}
__global__ void k05(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 5);
    x[i] = v;
  }
}
__global__ void k06(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 6);
    x[i] = v;
  }
}
__global__ void k07(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 7);
    x[i] = v;
  }
}
__global__ void k08(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 8);
    x[i] = v;
  }
}
__global__ void k09(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 9);
    x[i] = v;
  }
}
__global__ void k10(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 10);
    x[i] = v;
  }
}
__global__ void k11(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 11);
    x[i] = v;
  }
}
__global__ void k12(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 12);
    x[i] = v;
  }
}
__global__ void k13(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 13);
    x[i] = v;
  }
}
__global__ void k14(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 14);
    x[i] = v;
  }
}
__global__ void k15(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 15);
    x[i] = v;
  }
}
__global__ void k16(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 16);
    x[i] = v;
  }
}
__global__ void k17(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 17);
    x[i] = v;
  }
}
__global__ void k18(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 18);
    x[i] = v;
  }
}
__global__ void k19(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 19);
    x[i] = v;
  }
}
__global__ void k20(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 20);
    x[i] = v;
  }
}
__global__ void k21(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 21);
    x[i] = v;
  }
}
__global__ void k22(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 22);
    x[i] = v;
  }
}
__global__ void k23(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 23);
    x[i] = v;
  }
}
__global__ void k24(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 24);
    x[i] = v;
  }
}
__global__ void k25(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 25);
    x[i] = v;
  }
}
__global__ void k26(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 26);
    x[i] = v;
  }
}
__global__ void k27(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 27);
    x[i] = v;
  }
}
__global__ void k28(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 28);
    x[i] = v;
  }
}
__global__ void k29(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 29);
    x[i] = v;
  }
}
__global__ void k30(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 30);
    x[i] = v;
  }
}
__global__ void k31(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 31);
    x[i] = v;
  }
}
__global__ void k32(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 32);
    x[i] = v;
  }
}
__global__ void k33(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 33);
    x[i] = v;
  }
}
__global__ void k34(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 34);
    x[i] = v;
  }
}
__global__ void k35(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 35);
    x[i] = v;
  }
}
__global__ void k36(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 36);
    x[i] = v;
  }
}
__global__ void k37(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 37);
    x[i] = v;
  }
}
__global__ void k38(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 38);
    x[i] = v;
  }
}
__global__ void k39(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 39);
    x[i] = v;
  }
}
__global__ void k40(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 40);
    x[i] = v;
  }
}
__global__ void k41(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 41);
    x[i] = v;
  }
}
__global__ void k42(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 42);
    x[i] = v;
  }
}
__global__ void k43(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 43);
    x[i] = v;
  }
}
__global__ void k44(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 44);
    x[i] = v;
  }
}
__global__ void k45(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 45);
    x[i] = v;
  }
}
__global__ void k46(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 46);
    x[i] = v;
  }
}
__global__ void k47(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 47);
    x[i] = v;
  }
}
__global__ void k48(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 48);
    x[i] = v;
  }
}
__global__ void k49(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    CHAIN(v, 49);
    x[i] = v;
  }
}

void run_all(float *x, int n) {
  k00<<<(n + 127) / 128, 128>>>(x, n);
  k01<<<(n + 127) / 128, 128>>>(x, n);
  k02<<<(n + 127) / 128, 128>>>(x, n);
  k03<<<(n + 127) / 128, 128>>>(x, n);
  k04<<<(n + 127) / 128, 128>>>(x, n);
  k05<<<(n + 127) / 128, 128>>>(x, n);
  k06<<<(n + 127) / 128, 128>>>(x, n);
  k07<<<(n + 127) / 128, 128>>>(x, n);
  k08<<<(n + 127) / 128, 128>>>(x, n);
  k09<<<(n + 127) / 128, 128>>>(x, n);
  k10<<<(n + 127) / 128, 128>>>(x, n);
  k11<<<(n + 127) / 128, 128>>>(x, n);
  k12<<<(n + 127) / 128, 128>>>(x, n);
  k13<<<(n + 127) / 128, 128>>>(x, n);
  k14<<<(n + 127) / 128, 128>>>(x, n);
  k15<<<(n + 127) / 128, 128>>>(x, n);
  k16<<<(n + 127) / 128, 128>>>(x, n);
  k17<<<(n + 127) / 128, 128>>>(x, n);
  k18<<<(n + 127) / 128, 128>>>(x, n);
  k19<<<(n + 127) / 128, 128>>>(x, n);
  k20<<<(n + 127) / 128, 128>>>(x, n);
  k21<<<(n + 127) / 128, 128>>>(x, n);
  k22<<<(n + 127) / 128, 128>>>(x, n);
  k23<<<(n + 127) / 128, 128>>>(x, n);
  k24<<<(n + 127) / 128, 128>>>(x, n);
  k25<<<(n + 127) / 128, 128>>>(x, n);
  k26<<<(n + 127) / 128, 128>>>(x, n);
  k27<<<(n + 127) / 128, 128>>>(x, n);
  k28<<<(n + 127) / 128, 128>>>(x, n);
  k29<<<(n + 127) / 128, 128>>>(x, n);
  k30<<<(n + 127) / 128, 128>>>(x, n);
  k31<<<(n + 127) / 128, 128>>>(x, n);
  k32<<<(n + 127) / 128, 128>>>(x, n);
  k33<<<(n + 127) / 128, 128>>>(x, n);
  k34<<<(n + 127) / 128, 128>>>(x, n);
  k35<<<(n + 127) / 128, 128>>>(x, n);
  k36<<<(n + 127) / 128, 128>>>(x, n);
  k37<<<(n + 127) / 128, 128>>>(x, n);
  k38<<<(n + 127) / 128, 128>>>(x, n);
  k39<<<(n + 127) / 128, 128>>>(x, n);
  k40<<<(n + 127) / 128, 128>>>(x, n);
  k41<<<(n + 127) / 128, 128>>>(x, n);
  k42<<<(n + 127) / 128, 128>>>(x, n);
  k43<<<(n + 127) / 128, 128>>>(x, n);
  k44<<<(n + 127) / 128, 128>>>(x, n);
  k45<<<(n + 127) / 128, 128>>>(x, n);
  k46<<<(n + 127) / 128, 128>>>(x, n);
  k47<<<(n + 127) / 128, 128>>>(x, n);
  k48<<<(n + 127) / 128, 128>>>(x, n);
  k49<<<(n + 127) / 128, 128>>>(x, n);
}
