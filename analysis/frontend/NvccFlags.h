//===- NvccFlags.h - nvcc compile commands made fit for clang ---*- C++ -*-===//
//
// Real CUDA projects are built with nvcc, and their compile_commands.json
// speaks nvcc: include paths hidden in `--options-file` response files
// (CMake's Makefile generator), host flags behind `-Xcompiler`,
// architectures in `-gencode`, and flags clang rejects. This file turns
// such a command into the clang command that parses the same code:
//
//   nvcc -forward-unknown-to-host-compiler --options-file inc.rsp
//        --generate-code=arch=compute_90,code=[compute_90,sm_90]
//        -Xcompiler=-fopenmp,-DUSE_X --expt-relaxed-constexpr -std=c++17
//        -x cu -c k.cu -o k.o
//   ->
//   clang++ -xcuda -I<from inc.rsp> --cuda-gpu-arch=sm_90
//        -D_OPENMP=201511 -Wno-source-uses-openmp -DUSE_X -std=c++17
//        -c k.cu -o k.o
//
// Flags with no clang equivalent are dropped; those the translation does
// not know are dropped with a note (one per distinct flag and run).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_NVCCFLAGS_H
#define CUDA_ROOFLINE_NVCCFLAGS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace roofline {

/// Whether a command line runs nvcc (its program, after a ccache-style
/// launcher, is named nvcc).
bool isNvccCommand(llvm::ArrayRef<std::string> Args);

/// Replaces each response file argument of Args by the arguments the file
/// holds, recursively: `@FILE` always, and nvcc's `--options-file FILE`,
/// `--options-file=FILE`, `-optf FILE` (comma-separated lists too) when
/// Nvcc is set. Relative names, nested ones included, are relative to
/// Directory, as nvcc and the clang driver resolve them. A file that cannot
/// be read, or that includes itself, is an error.
llvm::Expected<std::vector<std::string>>
expandResponseFiles(llvm::ArrayRef<std::string> Args, llvm::StringRef Directory,
                    bool Nvcc);

/// A compile command translated for clang.
struct TranslatedCommand {
  clang::tooling::CompileCommand Command;
  /// One line per flag dropped without being understood, or whose meaning
  /// clang cannot reproduce (`-arch=native`): "dropped nvcc flag '-foo' (no
  /// clang equivalent)".
  std::vector<std::string> Notes;
};

/// Translates one compile command: an nvcc command becomes the clang++
/// command that parses the same CUDA code; any other command only has its
/// response files expanded. Fails when a response file cannot be read.
llvm::Expected<TranslatedCommand>
translateCompileCommand(const clang::tooling::CompileCommand &Command);

/// Remembers Notes for takeTranslationNotes(). Process-wide: a batch run
/// translates each file's command on its own thread.
void recordTranslationNotes(llvm::ArrayRef<std::string> Notes);

/// The distinct notes recorded since the last call, sorted (the order does
/// not depend on which file's thread noticed a flag first), each prefixed
/// "cuda-roofline: note: ".
std::vector<std::string> takeTranslationNotes();

/// A compilation database whose commands come translated for clang (see
/// translateCompileCommand); notes are recorded with
/// recordTranslationNotes. A command that cannot be translated is left
/// out: callers that must say why ask translationError() first.
class NvccTranslatingDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit NvccTranslatingDatabase(
      const clang::tooling::CompilationDatabase &Inner);
  explicit NvccTranslatingDatabase(
      std::unique_ptr<clang::tooling::CompilationDatabase> Inner);

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override;
  std::vector<std::string> getAllFiles() const override;
  std::vector<clang::tooling::CompileCommand>
  getAllCompileCommands() const override;

  /// Why a command for FilePath cannot be translated, or success.
  llvm::Error translationError(llvm::StringRef FilePath) const;

private:
  std::vector<clang::tooling::CompileCommand>
  translateAll(std::vector<clang::tooling::CompileCommand> Commands) const;

  std::unique_ptr<clang::tooling::CompilationDatabase> Owned;
  const clang::tooling::CompilationDatabase &Inner;
};

/// The arguments every exported CUDA command gets so that clang parses code
/// written for nvcc: the toolkit (CudaPath; empty: the one cuda-roofline
/// was built with), no warning about a toolkit newer than clang knows, and
/// the toolkit's CCCL headers (cub, thrust, cuda::std, cooperative groups
/// in CUDA >= 12), which nvcc finds through nvcc.profile and clang does not.
std::vector<std::string> cudaParseArgs(llvm::StringRef CudaPath);

/// Writes OutDir/compile_commands.json (creating OutDir): every command of
/// DB translated for clang, CUDA commands with cudaParseArgs(CudaPath) and,
/// with Prelude, the prelude's preludeArgs() appended, so that clang-tidy,
/// clangd and the clang plugin can use an nvcc build's database. Notes are
/// recorded with recordTranslationNotes.
llvm::Error exportCompileCommands(const clang::tooling::CompilationDatabase &DB,
                                  llvm::StringRef OutDir,
                                  llvm::StringRef CudaPath, bool Prelude);

} // namespace roofline

#endif
