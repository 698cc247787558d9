// Driver for kernels/elementwise/vector_add.cu: c = a + b.
#include "kernels/elementwise/vector_add.cu"
#include "util.h"

namespace {
struct VectorAdd : Instance {
  int n;
  std::vector<float> ha, hb;
  DevBuf<float> a, b, c;
  explicit VectorAdd(int n_)
      : n(n_), ha(random_floats(n_, 1)), hb(random_floats(n_, 2)), a(n_), b(n_), c(n_) {
    a.upload(ha);
    b.upload(hb);
    c.upload(random_floats(n_, 3));
  }
  void launch() override { launch_vector_add(a.p, b.p, c.p, n); }
  Verification verify() override {
    std::vector<double> r(n);
    for (int i = 0; i < n; ++i)
      r[i] = static_cast<double>(ha[i]) + hb[i];
    return compare(c.download(), r, 1e-6);
  }
};
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("vector_add", "kernels/elementwise/vector_add.cu", "vector_add", {{"n", kN}},
                        "fp32", "cpu", [] { return std::make_unique<VectorAdd>(kN); }));
} // namespace
