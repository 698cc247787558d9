// A kernel template the file never instantiates (a library's): its launches
// are named in the lint options, with template arguments.
template <int TILE, int ROWS>
__global__ void tiled(float *out, const float *in, int n) {
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n)
    out[i * ROWS] = in[i];
}
