//===- Toolchain.cpp ------------------------------------------------------===//

#include "Toolchain.h"

using namespace roofline;

bool roofline::isToolchainFile(llvm::StringRef Path) {
  return Path.starts_with(ROOFLINE_CUDA_PATH) ||
         Path.starts_with(ROOFLINE_CLANG_RESOURCE_DIR) ||
         Path.starts_with("/usr/include") ||
         Path.starts_with(ROOFLINE_PRELUDE_DIR); // Prelude.h's shims.
}
