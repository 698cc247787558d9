//===- ParseIR.h - IR fixtures for unit tests --------------------*- C++
//-*-===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_TEST_PARSEIR_H
#define CUDA_ROOFLINE_TEST_PARSEIR_H

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace roofline {

/// Parses the IR text of a test fixture; on failure returns null and puts
/// the parser's message (naming the fixture) in Error.
inline std::unique_ptr<llvm::Module> parseFixture(const char *IR,
                                                  const char *Name,
                                                  llvm::LLVMContext &Ctx,
                                                  std::string &Error) {
  llvm::SMDiagnostic Err;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(IR, Err, Ctx);
  if (!M) {
    llvm::raw_string_ostream OS(Error);
    Err.print(Name, OS);
  }
  return M;
}

} // namespace roofline

#endif
