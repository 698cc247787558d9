//===- UnsafeFlags.h - Compile flags that would run someone's code -*- C++
//-*-===//
//
// An editor, a pre-commit hook or a CI job analyzes repositories nobody
// vetted, with compile flags read from the repository (compile_commands.json,
// .cuda-roofline.yaml). Some clang flags load a shared object into the
// analysis (-fplugin, -fpass-plugin, -Xclang -load) or make the driver take
// its programs or its flags from a place the flag names (-B, --config, ...):
// code of the repository's choosing would run inside cuda-roofline. Such a
// flag from a file of the repository is refused, unless the user allows it
// explicitly (--allow-unsafe-flags); flags the user typed are theirs.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_UNSAFEFLAGS_H
#define CUDA_ROOFLINE_UNSAFEFLAGS_H

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace roofline {

/// The first flag of Args (a clang command line, or arguments appended to
/// one) that loads or runs code, as written ("-Xclang -load" with its
/// value), or none.
std::optional<std::string> unsafeFlag(llvm::ArrayRef<std::string> Args);

} // namespace roofline

#endif
