//===- Prelude.h - The nvcc-compatibility prelude ---------------*- C++ -*-===//
//
// Code written for nvcc relies on declarations that clang's CUDA headers do
// not make (host isfinite and mixed-type max, the cache-hint intrinsics of
// every type, runtime functions removed from the toolkit, <omp.h> of an
// -fopenmp host build). prelude/cuda_roofline_prelude.h supplies them, and
// prelude/compat/ the missing system headers; every front-end pre-includes
// them unless told not to. The command-line tool adds preludeArgs() to the
// compile command; the clang-tidy module and the clang plugin, whose
// command line is the user's, apply them to the preprocessor clang created
// before the main file is read (injectPrelude), and so the config file's
// extra-args (injectConfigArgs).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_PRELUDE_H
#define CUDA_ROOFLINE_PRELUDE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace roofline {

/// The directory holding cuda_roofline_prelude.h and compat/.
std::string preludeDir();

/// {"-include", <dir>/cuda_roofline_prelude.h, "-idirafter", <dir>/compat}:
/// the prelude comes after clang's CUDA runtime wrapper (which the driver
/// pre-includes first), and the compat headers only where no real one is
/// found.
std::vector<std::string> preludeArgs();

/// Applies preprocessor flags to PP, which must not have entered its main
/// file yet: `-include F` (an #include "F" line), `-D X[=Y]` and `-U X`
/// (#define / #undef lines), all appended to the predefines, so after the
/// command line's own -D and -include; and the search directories `-I D`
/// (last of the user directories), `-isystem D` (first of the system
/// directories) and `-idirafter D` (last of all). Values may be joined
/// (-DX, -Idir) or separate. A directory that does not exist is skipped, as
/// clang does; any other flag is skipped, and the error names it (the
/// flags that can be applied are, all the same).
llvm::Error injectPreprocessorArgs(clang::Preprocessor &PP,
                                   llvm::ArrayRef<std::string> Args);

/// For the lint front-ends: preludeArgs(). Done once per preprocessor: a
/// second call (another check of the same clang-tidy run) does nothing.
llvm::Error injectPrelude(clang::Preprocessor &PP);

/// For the lint front-ends, prelude or not (as the command-line tool always
/// adds it): `-idirafter <toolkit>/include/cccl` when the toolkit found on
/// PP's search path has its CUDA 13 CCCL headers (cuda/std/, cub/,
/// thrust/) there, which nvcc adds and clang's driver does not. Once per
/// preprocessor.
llvm::Error injectCcclDir(clang::Preprocessor &PP);

/// For the lint front-ends: the `extra-args:` of the .cuda-roofline.yaml
/// nearest above MainFile, applied with injectPreprocessorArgs (so `-D`,
/// `-U`, `-include`, `-I`, `-isystem` and `-idirafter`; any other flag is
/// an error naming it and the config). Once per preprocessor. A config
/// that cannot be read is not an error here: the analysis reports it.
llvm::Error injectConfigArgs(clang::Preprocessor &PP, llvm::StringRef MainFile);

} // namespace roofline

#endif
