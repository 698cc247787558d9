# Writes a data file of analysis/machine/data as a C++ raw string (run at
# build time): Builtin${NAME}.h/.cpp declaring and defining ${FUNC}().
file(READ "${INPUT}" CONTENT)
file(WRITE "${OUTDIR}/Builtin${NAME}.h"
  "#pragma once\n#include \"llvm/ADT/StringRef.h\"\nnamespace roofline {\nllvm::StringRef ${FUNC}();\n}\n")
file(WRITE "${OUTDIR}/Builtin${NAME}.cpp"
  "#include \"Builtin${NAME}.h\"\nllvm::StringRef roofline::${FUNC}() {\n  return R\"roofline_json(${CONTENT})roofline_json\";\n}\n")
