//===- ASTCompiler.h - Device IR from an AST a front-end built -*- C++ -*-===//
//
// The lint front-ends (the clang plugin's device job, clang-tidy's first
// job of a .cu file) already hold the device-side AST. Codegen runs a second
// time on that AST with the analysis's own options (line and column
// locations, no libdevice, the analysis pipeline), so the numbers match the
// command-line tool's and do not depend on the user's -O or -g.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_ASTCOMPILER_H
#define CUDA_ROOFLINE_ASTCOMPILER_H

#include "DeviceCompiler.h"
#include "ErrorIsolation.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class LangOptions;
class Preprocessor;
} // namespace clang

namespace roofline {

/// Device IR and host facts of the translation unit in Ctx, which must be
/// the device side of a CUDA compilation. Opts.Params evaluate launch sizes;
/// the architecture is the AST's own. Errors are clang's errors in the unit
/// (an ErrorRecorder's): the code that does not depend on them is generated
/// and the rest is listed in the result's NotAnalyzed. A unit with errors
/// that were not recorded fails as a whole.
llvm::Expected<CompiledUnit>
compileFromAST(clang::ASTContext &Ctx, clang::Preprocessor &PP,
               const CompileOptions &Opts,
               const std::vector<ClangError> &Errors = {});

/// The compile flags of the user's that shaped the unit (-std, -I and
/// -iquote directories, -D and -U, -include of the user's own files), for
/// compiling the same file again as the command-line tool does. What the
/// driver adds on its own (the toolkit and clang's CUDA headers) is left
/// out: compileDeviceSide adds it.
std::vector<std::string> userCompileArgs(const clang::LangOptions &LO,
                                         clang::Preprocessor &PP);

} // namespace roofline

#endif
