// Positions stored as float4 (w unused), as particle codes keep them for
// alignment; the kernel reads .x, .y, .z only.
__global__ void distance_sq(const float4 *__restrict__ pos, float *__restrict__ dist2, int n,
                            float cx, float cy, float cz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 q = pos[i];
    float dx = q.x - cx, dy = q.y - cy, dz = q.z - cz;
    dist2[i] = dx * dx + dy * dy + dz * dz;
  }
}

void run(const float4 *pos, float *d2, int n) {
  distance_sq<<<(n + 127) / 128, 128>>>(pos, d2, n, 0.f, 0.f, 0.f);
}
