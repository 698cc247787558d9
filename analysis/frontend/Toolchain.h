//===- Toolchain.h - Where the build's toolchain lives ----------*- C++ -*-===//
//
// The paths cuda-roofline was built with (CUDA toolkit, clang's resource
// directory, the prelude) are known to the frontend alone; the model asks
// here whether a source file is one of theirs rather than the user's.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_TOOLCHAIN_H
#define CUDA_ROOFLINE_TOOLCHAIN_H

#include "llvm/ADT/StringRef.h"

namespace roofline {

/// Whether Path is a header of the CUDA toolkit, of clang, of the system or
/// of the prelude: not user code, so a location inside it is walked out of.
bool isToolchainFile(llvm::StringRef Path);

} // namespace roofline

#endif
