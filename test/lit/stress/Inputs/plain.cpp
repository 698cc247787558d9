// Plain host C++ (no CUDA at all), with heavy standard headers.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

template <typename T> T twice(T v) { return v + v; }

struct Accumulator {
  std::map<std::string, double> sums;
  void add(const std::string &k, double v) { sums[k] += v; }
};

int main() {
  std::vector<double> v(16);
  std::iota(v.begin(), v.end(), 0.0);
  Accumulator acc;
  std::thread t([&] { acc.add("a", std::accumulate(v.begin(), v.end(), 0.0)); });
  t.join();
  std::optional<int> o = twice(21);
  std::variant<int, std::string> var = std::string("x");
  std::cout << acc.sums["a"] << " " << *o << " " << var.index() << "\n";
  return 0;
}
