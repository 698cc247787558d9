//===- ExecutedMathTest.cpp - What libdevice math executes ----------------===//
//
// Part of cuda-roofline.
//
// libdeviceCallCost runs CUDA 13's libdevice functions on ordinary
// arguments. The expected figures are derived by hand from libdevice's code
// (after __nvvm_reflect and folding: `opt -passes=nvvm-reflect,instcombine`
// shows the same), and agree with what an H200 executed for one call
// (test/validation/mathbench/h200.json, per call minus the copy kernel).
//
//===----------------------------------------------------------------------===//

#include "ExecutedMath.h"
#include "OpClassifier.h"

#include "ParseIR.h"

#include "llvm/IR/InstIterator.h"

#include "gtest/gtest.h"

#include <string>

using namespace roofline;

namespace {

const char *const Libdevice = ROOFLINE_LIBDEVICE;

MathMode ieee() { return MathMode{false, false, 900}; }
MathMode fast() { return MathMode{true, true, 900}; }

ExecutedCost cost(const char *Name, MathMode Mode) {
  auto C = libdeviceCallCost(Name, Mode, Libdevice);
  if (!C) {
    ADD_FAILURE() << Name << ": " << llvm::toString(C.takeError());
    return {};
  }
  return *C;
}

int64_t fp32(const ExecutedCost &C) {
  auto It = C.Flops.find("fp32");
  return It == C.Flops.end() ? 0 : It->second;
}

int64_t fp64(const ExecutedCost &C) {
  auto It = C.Flops.find("fp64");
  return It == C.Flops.end() ? 0 : It->second;
}

struct Case {
  const char *Name;
  MathMode Mode;
  int64_t Fp32, Fp64, Xu;
};

TEST(ExecutedMath, LibdeviceFunctions) {
  const Case Cases[] = {
      // expf at 1.5: fma (2) for the rounded quotient, fma.rm (2), an fadd
      // (1), two fmas for the reduced argument (4), ex2.approx (1 XU), and
      // the fmul by the power of two (1): 10 FLOPs. H200: 10, 1.
      {"__nv_expf", ieee(), 10, 0, 1},
      // logf at 1.5: fma for the exponent (2), fadd (1), the 8-fma
      // polynomial (16), fmul (1), two fmas (4): 24. The denormal scaling
      // (fmul) and the infinity fma are for the other arms of selects, not
      // run (ptxas predicates them off). H200: 24, 0.
      {"__nv_logf", ieee(), 24, 0, 0},
      // sinf at 1.5 (quadrant 1: the cosine polynomial): fmul by 2/pi (1),
      // three fmas of the reduction (6), t*t (1), five fmas (10): 18.
      // H200 (arguments in [1, 2)): 18.
      {"__nv_sinf", ieee(), 18, 0, 0},
      // sqrtf: one sqrt.rn.f32, 6 FLOPs and 1 XU (expansions.json);
      // rsqrtf: rsqrt.approx.f32, 1 XU.
      {"__nv_sqrtf", ieee(), 6, 0, 1},
      {"__nv_rsqrtf", ieee(), 0, 0, 1},
      // As the H200 executed them: sincosf 25, atan2f 29 (29.6 on the
      // measured mix of arguments), double log 44 and 1 XU, double sqrt 13.
      {"__nv_sincosf", ieee(), 25, 0, 0},
      {"__nv_atan2f", ieee(), 29, 0, 2},
      {"__nv_log", ieee(), 0, 44, 1},
      {"__nv_sqrt", ieee(), 0, 13, 1},
      // Fast math runs the fast versions: __expf is an fmul by log2(e) and
      // ex2.approx; __sinf sin.approx (1 FLOP, 1 XU); sqrtf sqrt.approx;
      // __powf lg2, fmul, ex2; sincosf both approximations. H200 fast
      // build: 1/1, 1/1, 0/1, 1/2, 2/2.
      {"__nv_expf", fast(), 1, 0, 1},
      {"__nv_sinf", fast(), 1, 0, 1},
      {"__nv_sqrtf", fast(), 0, 0, 1},
      {"__nv_powf", fast(), 1, 0, 2},
      {"__nv_sincosf", fast(), 2, 0, 2},
      // __byte_perm is one prmt: no FLOPs (fp8 GEMMs build operands with
      // it).
      {"__nv_byte_perm", ieee(), 0, 0, 0},
  };
  for (const Case &C : Cases) {
    ExecutedCost E = cost(C.Name, C.Mode);
    EXPECT_EQ(fp32(E), C.Fp32) << C.Name << (C.Mode.Approx ? " fast" : "");
    EXPECT_EQ(fp64(E), C.Fp64) << C.Name << (C.Mode.Approx ? " fast" : "");
    EXPECT_EQ(E.Xu, C.Xu) << C.Name << (C.Mode.Approx ? " fast" : "");
  }
}

TEST(ExecutedMath, UnknownFunction) {
  auto C = libdeviceCallCost("__nv_no_such_function", ieee(), Libdevice);
  ASSERT_FALSE(C);
  EXPECT_EQ(llvm::toString(C.takeError()),
            "'__nv_no_such_function' is not in libdevice");
  auto D = libdeviceCallCost("__nv_expf", ieee(), "/nonexistent/libdevice.bc");
  ASSERT_FALSE(D);
  EXPECT_NE(llvm::toString(D.takeError()).find("cannot read libdevice"),
            std::string::npos);
}

// Instructions: divisions expanded, multiplies fused as the back end does.
const char *const IR = R"(
target triple = "nvptx64-nvidia-cuda"

define float @divide(float %a, float %b) {
  %q = fdiv float %a, %b
  %r = fdiv float 1.0, %q
  ret float %r
}

define double @ddivide(double %a, double %b) {
  %q = fdiv double %a, %b
  ret double %q
}

; t = 2a; x = t + b; y = t + a; x * y: the multiply is fused into both adds.
define float @multiuse(float %a, float %b) {
  %t = fmul contract float 2.0, %a
  %x = fadd contract float %t, %b
  %y = fadd contract float %t, %a
  %z = fmul contract float %x, %y
  ret float %z
}

; Without contract (-ffp-contract=off): nothing fuses.
define float @strict(float %a, float %b) {
  %t = fmul float 2.0, %a
  %x = fadd float %t, %b
  ret float %x
}

; An add in another block: selection is per block, nothing fuses.
define float @apart(float %a, float %b) {
  %t = fmul contract float 2.0, %a
  br label %next
next:
  %x = fadd contract float %t, %b
  ret float %x
}
)";

int64_t executedIn(llvm::Module &M, const char *Fn) {
  int64_t Total = 0;
  for (const llvm::Instruction &I : llvm::instructions(*M.getFunction(Fn))) {
    OpCounts Counts;
    std::string Why;
    unsigned Affects = 0;
    EXPECT_TRUE(classifyInstruction(I, M.getDataLayout(), Counts, Why, Affects))
        << Why;
    for (const auto &[Name, N] : Counts)
      if (Name.rfind("flops_executed.", 0) == 0)
        Total += N;
  }
  return Total;
}

TEST(ExecutedMath, Instructions) {
  llvm::LLVMContext Ctx;
  std::string Error;
  auto M = parseFixture(IR, "executed.ll", Ctx, Error);
  ASSERT_TRUE(M) << Error;
  // a / b: div.rn.f32, 10; 1 / q: rcp.rn.f32, 5 (expansions.json).
  EXPECT_EQ(executedIn(*M, "divide"), 15);
  // div.rn.f64: 15 fp64 and 2 fp32 FLOPs.
  EXPECT_EQ(executedIn(*M, "ddivide"), 17);
  // 0 (fused) + 2 + 2 + 1 = 5, where the algorithmic count is 4. H200: 5.
  EXPECT_EQ(executedIn(*M, "multiuse"), 5);
  EXPECT_EQ(executedIn(*M, "strict"), 2);
  EXPECT_EQ(executedIn(*M, "apart"), 2);
  // nvcc's fast math (the device compiler's module flag): div.full.f32, 1
  // FLOP; the reciprocal rcp.approx.f32, 0.
  M->addModuleFlag(llvm::Module::Override, "roofline.approx-math", 1);
  EXPECT_EQ(executedIn(*M, "divide"), 1);
}

} // namespace
