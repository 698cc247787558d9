// Driver for kernels/stencil/heat2d_flat.cu: one heat-equation step on a
// w x h grid with clamped borders, checked against a CPU step.
#include "kernels/stencil/heat2d_flat.cu"
#include "util.h"

namespace {
struct Heat2d : Instance {
  int w, h;
  float alpha = 0.2f;
  std::vector<float> hu;
  DevBuf<float> u, un;
  Heat2d(int w_, int h_)
      : w(w_), h(h_), hu(random_floats(size_t(w_) * h_, 41)),
        u(size_t(w_) * h_), un(size_t(w_) * h_) {
    u.upload(hu);
    un.upload(random_floats(un.n, 42));
  }
  void launch() override { launch_heat2d_flat(u.p, un.p, w, h, alpha); }
  Verification verify() override {
    std::vector<double> r(size_t(w) * h);
    auto at = [&](int x, int y) { return double(hu[size_t(y) * w + x]); };
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double c = at(x, y);
        double lap = at(x > 0 ? x - 1 : x, y) + at(x < w - 1 ? x + 1 : x, y) +
                     at(x, y > 0 ? y - 1 : y) + at(x, y < h - 1 ? y + 1 : y) -
                     4.0 * c;
        r[size_t(y) * w + x] = c + alpha * lap;
      }
    // Five fp32 terms, contracted differently than the double reference.
    return compare(un.download(), r, 1e-5);
  }
};
constexpr int kW = 4096, kH = 4096;
REGISTER_CASE(make_case("heat2d_flat", "kernels/stencil/heat2d_flat.cu",
                        "heat2d_flat", {{"w", kW}, {"h", kH}}, "fp32", "cpu",
                        [] { return std::make_unique<Heat2d>(kW, kH); }));
} // namespace
