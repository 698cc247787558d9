//===- Format.h - Numbers as every report writes them -----------*- C++ -*-===//
//
// Findings word their costs and the emitters print their tables with the
// same units; both call these, so a number reads the same in a warning and
// in the table beside it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_FORMAT_H
#define CUDA_ROOFLINE_FORMAT_H

#include <string>

namespace roofline {

/// Human-readable seconds: "60.10 us", "1.23 ms".
std::string formatSeconds(double S);
/// Human-readable bytes: "192.0 MiB".
std::string formatBytes(double B);
/// A count with a decimal prefix: "4.29 G", "512", "1.5 k".
std::string formatCount(double N);
/// A fraction as a percentage: "88.7%".
std::string formatPercent(double Fraction);

} // namespace roofline

#endif
