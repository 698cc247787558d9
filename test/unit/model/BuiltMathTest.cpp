//===- BuiltMathTest.cpp - Division as the build compiles it --------------===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#include "BuiltMath.h"

#include "ParseIR.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace roofline;

namespace {

const char *IR = R"(
target triple = "nvptx64-nvidia-cuda"
define float @divide(float %a, float %b) {
  %q = fdiv float %a, %b
  %r = fdiv float 1.0, %b
  %s = fdiv afn float %a, %r
  %d = fpext float %q to double
  %e = fdiv double 1.0, %d
  %t = fadd float %q, %s
  ret float %t
}
define float @flushed(float %a, float %b) "denormal-fp-math-f32"="preserve-sign,preserve-sign" {
  %q = fdiv float %a, %b
  ret float %q
}
)";

/// The inline assembly of F's calls, and its divisions left, in order.
std::vector<std::string> divisions(const llvm::Module &M, const char *Name) {
  std::vector<std::string> Out;
  for (const llvm::Instruction &I : llvm::instructions(*M.getFunction(Name))) {
    if (const auto *CI = llvm::dyn_cast<llvm::CallInst>(&I))
      if (const auto *A =
              llvm::dyn_cast<llvm::InlineAsm>(CI->getCalledOperand()))
        Out.push_back(A->getAsmString().str());
    if (I.getOpcode() == llvm::Instruction::FDiv)
      Out.push_back(std::string("fdiv ") +
                    (I.getType()->isDoubleTy() ? "double" : "float"));
  }
  return Out;
}

TEST(BuiltMath, FastMathDividesAsNvccDoes) {
  llvm::LLVMContext Ctx;
  std::string Error;
  auto M = parseFixture(IR, "builtmath.ll", Ctx, Error);
  ASSERT_TRUE(M) << Error;
  // Without fast math the back end's IEEE division stands.
  divideAsBuilt(*M);
  EXPECT_EQ(divisions(*M, "divide"),
            (std::vector<std::string>{"fdiv float", "fdiv float", "fdiv float",
                                      "fdiv double"}));
  // nvcc's -use_fast_math: a / b is div.full.f32, 1 / b rcp.approx.f32; a
  // division the source marks approximate (afn) the back end already
  // makes div.approx.f32, and fp64 stays IEEE.
  M->addModuleFlag(llvm::Module::Override, "roofline.approx-math", 1);
  divideAsBuilt(*M);
  EXPECT_EQ(divisions(*M, "divide"),
            (std::vector<std::string>{"div.full.f32 $0, $1, $2;",
                                      "rcp.approx.f32 $0, $1;", "fdiv float",
                                      "fdiv double"}));
  // Denormals flushed: the .ftz forms.
  EXPECT_EQ(divisions(*M, "flushed"),
            (std::vector<std::string>{"div.full.ftz.f32 $0, $1, $2;"}));
}

} // namespace
