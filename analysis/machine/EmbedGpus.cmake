# Writes the GPU database as a C++ raw string (run at build time).
file(READ "${INPUT}" CONTENT)
file(WRITE "${OUTDIR}/BuiltinGpus.h"
  "#pragma once\n#include \"llvm/ADT/StringRef.h\"\nnamespace roofline {\nllvm::StringRef builtinGpuJson();\n}\n")
file(WRITE "${OUTDIR}/BuiltinGpus.cpp"
  "#include \"BuiltinGpus.h\"\nllvm::StringRef roofline::builtinGpuJson() {\n  return R\"roofline_json(${CONTENT})roofline_json\";\n}\n")
