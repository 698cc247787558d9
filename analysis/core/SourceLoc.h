//===- SourceLoc.h - A place in the user's source ---------------*- C++ -*-===//
//
// Every place the analysis names (a kernel, an access, a launch, a finding,
// an unknown, a note) is a file, a line and a column, as clang's expansion
// location gives them; this is the one type that carries them from the
// frontend to the emitters.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_SOURCELOC_H
#define CUDA_ROOFLINE_SOURCELOC_H

#include <string>

namespace roofline {

struct SourceLoc {
  std::string File;  ///< Empty where the context gives it (the kernel's file).
  unsigned Line = 0; ///< 0: no line (a flag, a whole file).
  unsigned Column = 0; ///< 0: no column.
};

} // namespace roofline

#endif
