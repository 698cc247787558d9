//===- LibraryInstructionsTest.cpp - The machine code of library math -----===//
//
// Part of cuda-roofline.
//
// libraryCallInstructions compiles a libdevice function (CUDA 13's
// libdevice.10.bc) with the NVPTX back end and counts each block's PTX
// instructions as often as the block runs on ordinary arguments.
//
//===----------------------------------------------------------------------===//

#include "LibraryInstructions.h"
#include "Counters.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

const char *const Libdevice = ROOFLINE_LIBDEVICE;

std::map<std::string, Rational> instructionsOf(const char *Name,
                                               MathMode Mode) {
  auto C = libraryCallInstructions(Name, Mode, Libdevice, "sm_90");
  if (!C) {
    ADD_FAILURE() << Name << ": " << llvm::toString(C.takeError());
    return {};
  }
  return *C;
}

/// The count as text, so that a failure shows the number.
std::string count(const std::map<std::string, Rational> &C, const char *Name) {
  auto It = C.find(Name);
  return (It == C.end() ? Rational(0) : It->second).str();
}

// cosf at 1.5 takes the fast reduction (|x| < 105615 skips the
// Payne-Hanek loop) straight to the polynomial. The entry block, as the
// back end compiles it: add.u64 of the local depot's address (2 ALU
// halves), mul.rn.f32 by 2/pi, cvt.rni.s32.f32 and cvt.rn.f32.s32 (2
// conversions), three fma.rn.f32 (the Cody-Waite reduction), abs.f32 and
// setp.ltu.f32 (2 ALU), the branch (issue only): FP32 4, ALU 4,
// conversion 2, issue 11. The polynomial block: mul.rn.f32, five
// fma.rn.f32 and sub.rn.f32 (FP32 7); add.s32, two and.b32, two setp, five
// selp (ALU 10); the ret, which inlined into the kernel is gone: issue
// 17. In all FP32 11 (8 of them FMAs), ALU 14, conversion 2, issue 28; an
// H200 executes 29 thread instructions for one cosf
// (test/validation/mathbench/h200.json).
// The slow path's loads of __cudart_i2opi_f do not run: no memory
// instructions.
TEST(LibraryInstructions, CosfRunsItsFastReduction) {
  auto C = instructionsOf("__nv_cosf", MathMode{false, false, 900});
  EXPECT_EQ(count(C, counter::InstIssue), "28");
  EXPECT_EQ(count(C, counter::InstFp32), "11");
  EXPECT_EQ(count(C, counter::InstFma), "8");
  EXPECT_EQ(count(C, counter::InstAlu), "14");
  EXPECT_EQ(count(C, counter::InstConvert), "2");
  EXPECT_EQ(count(C, counter::InstMufu), "0");
  EXPECT_EQ(count(C, counter::InstMemory), "0");
  EXPECT_EQ(count(C, counter::InstCall), "0");
}

// expf: fma.rn, cvt.sat.f32.f32 (a conversion), fma.rm, add.rn, neg.f32
// (ALU), two fma.rn, shl.b32 (ALU), ex2.approx.ftz.f32 (MUFU), mul.rn
// (the ret left out): FP32 6 (4 FMAs), ALU 2, conversion 1, MUFU 1, issue
// 10, as an H200 executes.
TEST(LibraryInstructions, Expf) {
  auto C = instructionsOf("__nv_expf", MathMode{false, false, 900});
  EXPECT_EQ(count(C, counter::InstIssue), "10");
  EXPECT_EQ(count(C, counter::InstFp32), "6");
  EXPECT_EQ(count(C, counter::InstFma), "4");
  EXPECT_EQ(count(C, counter::InstAlu), "2");
  EXPECT_EQ(count(C, counter::InstConvert), "1");
  EXPECT_EQ(count(C, counter::InstMufu), "1");
}

// Under fast math cosf is __nv_fast_cosf: one cos.approx.ftz.f32, which
// ptxas makes an FMUL by 1/(2 pi) and a MUFU.COS (the expansion table),
// issue 2, as an H200 executes (the ret left out).
TEST(LibraryInstructions, FastMathRunsTheFastVersion) {
  auto C = instructionsOf("__nv_cosf", MathMode{true, true, 900});
  EXPECT_EQ(count(C, counter::InstIssue), "2");
  EXPECT_EQ(count(C, counter::InstFp32), "1");
  EXPECT_EQ(count(C, counter::InstMufu), "1");
}

// pow calls libdevice's internal helpers; linked into a kernel they are
// inlined, so no call instruction is left in what one pow executes.
TEST(LibraryInstructions, InnerCallsAreInlined) {
  auto C = instructionsOf("__nv_pow", MathMode{false, false, 900});
  EXPECT_EQ(count(C, counter::InstCall), "0");
  EXPECT_NE(count(C, counter::InstFp64), "0");
}

TEST(LibraryInstructions, Errors) {
  auto C = libraryCallInstructions(
      "__nv_no_such_function", MathMode{false, false, 900}, Libdevice, "sm_90");
  ASSERT_FALSE(C);
  EXPECT_NE(llvm::toString(C.takeError()).find("is not in libdevice"),
            std::string::npos);
  auto D = libraryCallInstructions("__nv_expf", MathMode{false, false, 900}, "",
                                   "sm_90");
  ASSERT_FALSE(D);
  EXPECT_NE(llvm::toString(D.takeError()).find("no libdevice"),
            std::string::npos);
}

} // namespace
