//===- Format.cpp ---------------------------------------------------------===//

#include "Format.h"

#include <cstdio>

using namespace roofline;

std::string roofline::formatSeconds(double S) {
  char Buf[64];
  if (S < 1e-6)
    snprintf(Buf, sizeof(Buf), "%.2f ns", S * 1e9);
  else if (S < 1e-3)
    snprintf(Buf, sizeof(Buf), "%.2f us", S * 1e6);
  else if (S < 1)
    snprintf(Buf, sizeof(Buf), "%.3f ms", S * 1e3);
  else
    snprintf(Buf, sizeof(Buf), "%.3f s", S);
  return Buf;
}

std::string roofline::formatBytes(double B) {
  const char *Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int U = 0;
  while (B >= 1024 && U < 4) {
    B /= 1024;
    ++U;
  }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), U == 0 ? "%.0f %s" : "%.1f %s", B, Units[U]);
  return Buf;
}

std::string roofline::formatCount(double N) {
  const char *Units[] = {"", " k", " M", " G", " T", " P"};
  int U = 0;
  while (N >= 1000 && U < 5) {
    N /= 1000;
    ++U;
  }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), U == 0 ? "%.4g%s" : "%.3g%s", N, Units[U]);
  return Buf;
}

std::string roofline::formatPercent(double Fraction) {
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.1f%%", Fraction * 100);
  return Buf;
}
