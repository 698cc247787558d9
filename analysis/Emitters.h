//===- Emitters.h - Text and JSON reports -----------------------*- C++ -*-===//
//
// Emitters format what the Analyzer computed; they derive nothing. The JSON
// schema is documented in docs/json-schema.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_EMITTERS_H
#define CUDA_ROOFLINE_EMITTERS_H

#include "Analyzer.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace roofline {

void emitText(llvm::raw_ostream &OS, const std::vector<FileReport> &Files);
void emitJson(llvm::raw_ostream &OS, const std::vector<FileReport> &Files);

/// Counter names as reports show them: "global.load_bytes" ->
/// "global_load_bytes".
std::string reportKey(const std::string &Counter);

/// Human-readable seconds: "60.10 us", "1.23 ms".
std::string formatSeconds(double S);
/// Human-readable bytes: "192.0 MiB".
std::string formatBytes(double B);

} // namespace roofline

#endif
