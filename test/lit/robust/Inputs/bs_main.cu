// Includes a header whose name holds a backslash (escape-filenames.test
// creates it as 'bs\h.cuh'; on Linux a backslash is an ordinary character).
#include "bs\h.cuh"

void launch_in_header(int n, float *out) {
  in_header<<<(n + 255) / 256, 256>>>(n, out);
}
