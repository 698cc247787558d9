//===- TilingIdiomsTest.cpp - IR shapes of tiled GEMM kernels -------------===//
//
// Part of cuda-roofline.
//
// The optimizer leaves a few shapes in tiled kernels that ScalarEvolution
// alone does not describe: tile loops counted as 1 + max((K - 1)/BK, 0),
// two-trip loops that exit on a phi of constants, ors of disjoint bit
// ranges, and phis that merge one value computed on two paths. Each kernel
// below is the IR clang -O3 emits for the quoted source, reduced.
//
//===----------------------------------------------------------------------===//

#include "FlagLoops.h"
#include "KernelModel.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "ParseIR.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

constexpr const char *IdiomsIR = R"IR(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; for (int k0 = 0; k0 < K; k0 += 8) a[k0] = 0.0f;
define ptx_kernel void @tile_loop(ptr %a, i32 %K) {
entry:
  %guard = icmp sgt i32 %K, 0
  br i1 %guard, label %body, label %exit

body:
  %k0 = phi i32 [ 0, %entry ], [ %next, %body ]
  %idx = zext nneg i32 %k0 to i64
  %p = getelementptr inbounds float, ptr %a, i64 %idx
  store float 0.000000e+00, ptr %p, align 4
  %next = add nuw nsw i32 %k0, 8
  %more = icmp slt i32 %next, %K
  br i1 %more, label %body, label %exit

exit:
  ret void
}

; for (int j = 0; j < 8; j += 4) *(float4 *)&a[j] = {};  (as the optimizer
; leaves it: a flag phi decides the exit, j is a phi of two constants)
define ptx_kernel void @flag_loop(ptr %a) {
entry:
  br label %body

body:
  %first = phi i1 [ true, %entry ], [ false, %body ]
  %j = phi i32 [ 0, %entry ], [ 4, %body ]
  %idx = zext nneg i32 %j to i64
  %p = getelementptr inbounds float, ptr %a, i64 %idx
  store <4 x float> zeroinitializer, ptr %p, align 16
  br i1 %first, label %body, label %exit

exit:
  ret void
}

; a[(threadIdx.x % 4) * 32 | blockIdx.x * 128] = 0.0f;  (an or the optimizer
; could not mark disjoint)
define ptx_kernel void @or_offsets(ptr %a) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %lo = and i32 %tid, 3
  %lo32 = shl nuw nsw i32 %lo, 5
  %hi = shl i32 %ctaid, 7
  %o = or i32 %lo32, %hi
  %idx = zext i32 %o to i64
  %p = getelementptr inbounds float, ptr %a, i64 %idx
  store float 0.000000e+00, ptr %p, align 4
  ret void
}

; The same index 4 * threadIdx.x computed on both sides of a branch and
; merged by a phi (what GVN's partial redundancy elimination leaves).
define ptx_kernel void @merged_phi(ptr %a, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %left, label %right

left:
  %x1 = shl nuw nsw i32 %tid, 2
  br label %merge

right:
  %x2 = shl nuw nsw i32 %tid, 2
  br label %merge

merge:
  %x = phi i32 [ %x1, %left ], [ %x2, %right ]
  %idx = zext nneg i32 %x to i64
  %p = getelementptr inbounds float, ptr %a, i64 %idx
  store float 0.000000e+00, ptr %p, align 4
  ret void
}

; The same or, but the low part may reach bit 7 (threadIdx.x % 8 * 32 spans
; 0..224): not disjoint from blockIdx.x * 128, so no offset.
define ptx_kernel void @or_overlapping(ptr %a) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %lo = and i32 %tid, 7
  %lo32 = shl nuw nsw i32 %lo, 5
  %hi = shl i32 %ctaid, 7
  %o = or i32 %lo32, %hi
  %idx = zext i32 %o to i64
  %p = getelementptr inbounds float, ptr %a, i64 %idx
  store float 0.000000e+00, ptr %p, align 4
  ret void
}

declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
)IR";

class TilingIdiomsTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Msg;
    Mod = parseFixture(IdiomsIR, "IdiomsIR", Ctx, Msg);
    if (!Mod)
      FAIL() << Msg;
  }

  KernelModel model(const std::string &Kernel) {
    llvm::Function *F = Mod->getFunction(Kernel);
    EXPECT_NE(F, nullptr) << Kernel;
    return buildKernelModel(*F, nullptr);
  }

  /// The byte offset of the kernel's only global access.
  std::string offset(const std::string &Kernel) {
    KernelModel M = model(Kernel);
    for (const BlockModel &B : M.Blocks)
      for (const AccessModel &A : B.Accesses)
        return A.Offset ? A.Offset->str() : "unknown";
    return "no access";
  }

  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> Mod;
};

TEST_F(TilingIdiomsTest, TileLoopCountsCeilingOfKOverStep) {
  KernelModel M = model("tile_loop");
  ASSERT_EQ(M.Loops.size(), 1u);
  ASSERT_TRUE(M.Loops[0].TripCount);
  // Entered only when K > 0, where 1 + max((K - 1)/8, 0) = ceil(K / 8).
  EXPECT_EQ(M.Loops[0].TripCount->str(), "(K + 7)/8");
  // K = 20: k0 = 0, 8, 16 -> 3 trips; K = 16 -> 2.
  EXPECT_EQ(
      M.Loops[0].TripCount->evaluate({{"K", {Rational(20), Rational(20)}}}),
      Rational(3));
  EXPECT_EQ(
      M.Loops[0].TripCount->evaluate({{"K", {Rational(16), Rational(16)}}}),
      Rational(2));
}

TEST_F(TilingIdiomsTest, FlagLoopBecomesCountedLoop) {
  // Before the rewrite j (phi [0], [4]) is no affine function of the loop.
  EXPECT_EQ(offset("flag_loop"), "unknown");
  EXPECT_EQ(canonicalizeFlagLoops(*Mod), 1u);
  KernelModel M = model("flag_loop");
  ASSERT_EQ(M.Loops.size(), 1u);
  ASSERT_TRUE(M.Loops[0].TripCount);
  EXPECT_EQ(M.Loops[0].TripCount->str(), "2");
  // j = 0, 4: byte offsets 0 and 16 of a 16-byte store.
  EXPECT_EQ(offset("flag_loop"), "16*" + M.Loops[0].Var);
  // Other loops are left alone.
  EXPECT_EQ(canonicalizeFlagLoops(*Mod), 0u);
}

TEST_F(TilingIdiomsTest, DisjointOrIsAnAdd) {
  // 4 B x ((threadIdx.x % 4) * 32 + blockIdx.x * 128).
  EXPECT_EQ(offset("or_offsets"), "512*blockIdx.x + 128*(threadIdx.x % 4)");
}

TEST_F(TilingIdiomsTest, OverlappingOrStaysUnknown) {
  EXPECT_EQ(offset("or_overlapping"), "unknown");
}

TEST_F(TilingIdiomsTest, PhiOfOneValueIsThatValue) {
  EXPECT_EQ(offset("merged_phi"), "16*threadIdx.x");
}

} // namespace
