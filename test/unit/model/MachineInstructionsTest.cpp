//===- MachineInstructionsTest.cpp - Instructions per block, by pipe ------===//
//
// Part of cuda-roofline.
//
// classifyPtxInstruction on single PTX statements, blockInstructions on
// hand-written marked PTX (every count derived in the test), and the whole
// path from IR through the NVPTX back end on a straight-line kernel.
//
//===----------------------------------------------------------------------===//

#include "MachineInstructions.h"
#include "Counters.h"
#include "PtxCodegen.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include "ParseIR.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

OpCounts classify(const char *Statement) {
  OpCounts Out;
  classifyPtxInstruction(Statement, Out);
  return Out;
}

int64_t get(const OpCounts &C, const char *Name) {
  auto It = C.find(Name);
  return It == C.end() ? 0 : It->second;
}

/// A kernel @k of N empty blocks, each marked in Ptx by its position.
struct Blocks {
  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> M;
  MarkedPtx P;
  std::vector<const llvm::BasicBlock *> BB;
  Blocks(unsigned N, const char *Ptx) {
    std::string IR = "target triple = \"nvptx64-nvidia-cuda\"\n"
                     "define ptx_kernel void @k() {\n";
    for (unsigned I = 0; I < N; ++I)
      IR += "b" + std::to_string(I) + ":\n  " +
            (I + 1 < N ? "br label %b" + std::to_string(I + 1) : "ret void") +
            "\n";
    IR += "}\n";
    std::string Error;
    M = parseFixture(IR.c_str(), "blocks", Ctx, Error);
    EXPECT_TRUE(M) << Error;
    for (llvm::BasicBlock &B : *M->getFunction("k"))
      P.Blocks.push_back(&B);
    BB = P.Blocks;
    P.Ptx = Ptx;
  }
};

TEST(MachineInstructions, FloatArithmeticGoesToItsPipe) {
  OpCounts F = classify("fma.rn.f32 %r1, %r2, %r3, %r4");
  EXPECT_EQ(get(F, counter::InstFp32), 1);
  EXPECT_EQ(get(F, counter::InstFma), 1);
  EXPECT_EQ(get(F, counter::InstIssue), 1);
  EXPECT_EQ(F.size(), 3u);
  // A packed half2 FMA is one instruction and two lane results.
  OpCounts H = classify("fma.rn.f16x2 %r1, %r2, %r3, %r4");
  EXPECT_EQ(get(H, counter::InstFp16), 2);
  EXPECT_EQ(get(H, counter::InstIssue), 1);
  EXPECT_EQ(get(classify("add.rn.bf16x2 %r1, %r2, %r3"), counter::InstBf16), 2);
  EXPECT_EQ(get(classify("mul.f64 %fd1, %fd2, %fd3"), counter::InstFp64), 1);
  EXPECT_EQ(get(classify("setp.lt.f64 %p1, %fd1, %fd2"), counter::InstFp64), 1);
  // An FP32 compare or min runs on the ALU, not the FMA pipe.
  EXPECT_EQ(get(classify("setp.lt.f32 %p1, %r1, %r2"), counter::InstAlu), 1);
  EXPECT_EQ(get(classify("max.f32 %r1, %r1, %r2"), counter::InstFp32), 0);
}

TEST(MachineInstructions, IntegerWorkSplitsByPipe) {
  EXPECT_EQ(get(classify("mad.lo.s32 %r1, %r2, %r3, %r4"), counter::InstIntMad),
            1);
  EXPECT_EQ(get(classify("mul.wide.s32 %rd1, %r2, 4"), counter::InstIntMad), 1);
  // A 64-bit add is two 32-bit halves (add and add with carry).
  OpCounts A = classify("add.s64 %rd1, %rd2, %rd3");
  EXPECT_EQ(get(A, counter::InstAlu), 2);
  EXPECT_EQ(get(A, counter::InstIssue), 2);
  EXPECT_EQ(get(classify("shl.b32 %r1, %r2, 5"), counter::InstAlu), 1);
  EXPECT_EQ(get(classify("cvt.u64.u32 %rd1, %r1"), counter::InstAlu), 1);
  EXPECT_EQ(get(classify("cvt.rn.f32.s32 %r1, %r2"), counter::InstConvert), 1);
  EXPECT_EQ(get(classify("cvt.rni.f32.f32 %r1, %r2"), counter::InstConvert), 1);
}

TEST(MachineInstructions, WhatPtxasFoldsCountsNothing) {
  EXPECT_TRUE(classify("ld.param.b64 %rd1, [k_param_0]").empty());
  EXPECT_TRUE(classify("mov.b32 %r1, %r2").empty());
  EXPECT_TRUE(classify("cvta.to.global.u64 %rd1, %rd2").empty());
  EXPECT_TRUE(classify("// begin inline asm").empty());
  EXPECT_TRUE(classify(".reg .b32 %r<5>").empty());
  EXPECT_TRUE(classify("$L__BB0_2:").empty());
  EXPECT_TRUE(classify("").empty());
  // Reading a special register is an S2R.
  EXPECT_EQ(get(classify("mov.u32 %r1, %tid.x"), counter::InstAlu), 1);
}

TEST(MachineInstructions, MemoryControlAndCollectives) {
  for (const char *S :
       {"ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1]",
        "st.shared.b32 [%r1], %r2", "ld.local.b32 %r1, [%rd1]",
        "atom.global.add.f32 %r1, [%rd1], %r2",
        "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1,%r2,%r3,%r4}, [%r5]",
        "cp.async.cg.shared.global [%r1], [%rd1], 16",
        "wmma.load.a.sync.aligned.row.m16n16k16.global.bf16 {%r1}, [%rd1]"}) {
    OpCounts C = classify(S);
    EXPECT_EQ(get(C, counter::InstMemory), 1) << S;
    EXPECT_EQ(get(C, counter::InstIssue), 1) << S;
  }
  EXPECT_EQ(get(classify("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16."
                         "f32 {%r1}, {%r2}, {%r3}, {%r4}"),
                counter::InstTensor),
            1);
  EXPECT_EQ(get(classify("shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1"),
                counter::InstShuffle),
            1);
  // A guarded branch issues, on no pipe of its own.
  OpCounts B = classify("@%p1 bra $L__BB0_2");
  EXPECT_EQ(get(B, counter::InstIssue), 1);
  EXPECT_EQ(B.size(), 1u);
  EXPECT_EQ(classify("bar.sync 0").size(), 1u);
  // A call left in the machine code issues once, and is counted apart: its
  // body is not.
  OpCounts Call = classify("call.uni (retval0), __nv_cosf, (param0)");
  EXPECT_EQ(get(Call, counter::InstCall), 1);
  EXPECT_EQ(get(Call, counter::InstIssue), 1);
}

TEST(MachineInstructions, ExpandedInstructionsCountTheirExpansion) {
  // The expansion table: ex2.approx.f32 is one MUFU; div.rn.f32 executes
  // 2 XU instructions and 10 FP32 FLOPs, taken as 5 FFMAs.
  OpCounts E = classify("ex2.approx.ftz.f32 %r1, %r2");
  EXPECT_EQ(get(E, counter::InstMufu), 1);
  EXPECT_EQ(get(E, counter::InstIssue), 1);
  OpCounts D = classify("div.rn.f32 %r1, %r2, %r3");
  EXPECT_EQ(get(D, counter::InstMufu), 2);
  EXPECT_EQ(get(D, counter::InstFp32), 5);
  EXPECT_EQ(get(D, counter::InstIssue), 7);
}

TEST(MachineInstructions, MachineBlocksGoToTheirMarkers) {
  // Three IR blocks in three machine blocks; block 1 unrolled into two
  // copies in one machine block (4 FP32 instructions, one FMA and a
  // branch: per execution of the original, half of each); the parameter
  // set-up before the first marker belongs to block 0.
  Blocks K(3, R"(
.visible .entry k(
)
{
	.reg .b32 %r<9>;
	ld.param.b32 %r1, [k_param_0];
	mov.u32 %r2, %tid.x;
	// begin inline asm
	// roofline-block 0
	// end inline asm
	add.s32 %r3, %r2, 1;
	@%p1 bra $L__BB0_2;
$L__BB0_1:
	// begin inline asm
	// roofline-block 1
	// end inline asm
	add.f32 %r4, %r4, %r4;
	mul.f32 %r4, %r4, %r4;
	fma.rn.f32 %r4, %r4, %r4, %r4;
	// begin inline asm
	// roofline-block 1
	// end inline asm
	add.f32 %r4, %r4, %r4; // a comment; with a semicolon
	@%p2 bra $L__BB0_1;
$L__BB0_2:
	// begin inline asm
	// roofline-block 2
	// end inline asm
	ret;
}
)");
  auto Counts = blockInstructions(K.P);
  auto &A = Counts[K.BB[0]], &B = Counts[K.BB[1]], &C = Counts[K.BB[2]];
  EXPECT_EQ(A[counter::InstAlu], Rational(2));   // mov %tid, add.s32
  EXPECT_EQ(A[counter::InstIssue], Rational(3)); // and the branch
  EXPECT_EQ(B[counter::InstFp32], Rational(2));  // 4 / 2
  EXPECT_EQ(B[counter::InstFma], Rational::fraction(1, 2));
  EXPECT_EQ(B[counter::InstIssue], Rational::fraction(5, 2));
  EXPECT_EQ(C[counter::InstIssue], Rational(1)); // ret
}

TEST(MachineInstructions, UnrolledCopiesShareTheirMachineBlock) {
  // An outer block (marker 0, 2 copies) and an inner one (marker 1, 4
  // copies) fully unrolled into one machine block, the back end having
  // scheduled the FMAs of the inner copies after the next outer marker.
  // The machine block runs once per execution of the loop around it, i.e.
  // once per 2 executions of block 0: all 4 FMAs count there, 2 per
  // execution of block 0 (4 per 2 copies), none with block 1.
  Blocks K(2, R"(
.visible .entry k(
)
{
$L__BB0_1:
	// roofline-block 0
	// roofline-block 1
	// roofline-block 1
	// roofline-block 0
	fma.rn.f32 %r1, %r1, %r1, %r1;
	fma.rn.f32 %r1, %r1, %r1, %r1;
	// roofline-block 1
	// roofline-block 1
	fma.rn.f32 %r1, %r1, %r1, %r1;
	fma.rn.f32 %r1, %r1, %r1, %r1;
	@%p1 bra $L__BB0_1;
	ret;
}
)");
  auto Counts = blockInstructions(K.P);
  auto &A = Counts[K.BB[0]];
  EXPECT_EQ(A[counter::InstFma], Rational(2));
  // (4 FMAs + the branch) / 2, and the machine block of the ret, which has
  // no marker and goes with the one before it: 1 / 2.
  EXPECT_EQ(A[counter::InstIssue], Rational(3));
  EXPECT_TRUE(Counts[K.BB[1]].empty());
}

TEST(MachineInstructions, ARemainderLoopIsChargedNothing) {
  // Block 1 unrolled twice with a remainder loop (markUnrollRemainders):
  // the unrolled body's machine block (2 FMAs, add, setp, branch) runs once
  // per 2 executions of block 1, the remainder's (FMA, add, setp, branch)
  // fewer than twice per entry of the loop, so it is charged nothing. The
  // unroller's test for a remainder runs as often as block 0, beside it.
  Blocks K(3, R"(
.visible .entry k(
)
{
	// roofline-block 0
	add.s32 %r1, %r1, 1;
	@%p1 bra $L__BB0_3;
$L__BB0_2:
	// roofline-block 1
	fma.rn.f32 %r4, %r4, %r4, %r4;
	// roofline-block 1
	fma.rn.f32 %r4, %r4, %r4, %r4;
	add.s32 %r1, %r1, 2;
	setp.lt.s32 %p2, %r1, %r2;
	@%p2 bra $L__BB0_2;
$L__BB0_3:
	// roofline-block 0 beside
	setp.eq.s32 %p3, %r3, 0;
	@%p3 bra $L__BB0_5;
$L__BB0_4:
	// roofline-block 1 rest
	fma.rn.f32 %r4, %r4, %r4, %r4;
	add.s32 %r3, %r3, -1;
	setp.ne.s32 %p4, %r3, 0;
	@%p4 bra $L__BB0_4;
$L__BB0_5:
	// roofline-block 2
	ret;
}
)");
  auto Counts = blockInstructions(K.P);
  auto &A = Counts[K.BB[0]], &B = Counts[K.BB[1]], &C = Counts[K.BB[2]];
  EXPECT_EQ(A[counter::InstIssue], Rational(4)); // add, bra; setp, bra
  EXPECT_EQ(B[counter::InstFma], Rational(1));   // 2 / 2
  EXPECT_EQ(B[counter::InstIssue], Rational::fraction(5, 2));
  EXPECT_EQ(C[counter::InstIssue], Rational(1));
}

TEST(MachineInstructions, GlobalLoadRoundsPerMachineBlock) {
  // Block 0 loads twice from global memory in one machine block (one round:
  // both loads are in flight together) and once from shared memory (no
  // round); block 1, unrolled into two copies in one machine block, loads
  // in both copies: one round per two executions of the original.
  Blocks K(2, R"(
.visible .entry k(
)
{
	// roofline-block 0
	ld.global.nc.f32 %f1, [%rd1];
	ld.global.nc.f32 %f2, [%rd2];
	ld.shared.f32 %f3, [%r1];
	@%p1 bra $L__BB0_2;
$L__BB0_1:
	// roofline-block 1
	@%p2 ld.relaxed.gpu.global.f32 %f4, [%rd3];
	// roofline-block 1
	ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd4];
	@%p3 bra $L__BB0_1;
$L__BB0_2:
	st.global.f32 [%rd1], %f1;
	ret;
}
)");
  auto Counts = blockInstructions(K.P);
  EXPECT_EQ(Counts[K.BB[0]][counter::InstLoadRounds], Rational(1));
  EXPECT_EQ(Counts[K.BB[1]][counter::InstLoadRounds], Rational::fraction(1, 2));
  // The store's machine block (no marker, so block 1's) adds no round.
  EXPECT_EQ(Counts[K.BB[1]][counter::InstMemory], Rational::fraction(3, 2));
}

TEST(MachineInstructions, GuardedLoadsAreOneRoundTheBarrierWaitsFor) {
  // A tile loop as clang lays it out: three guarded loads (cond ? A[i] :
  // 0), each skipped by a forward branch; the last one's join is the
  // loop's body above them (a forward edge from the head, $L__BB0_2, placed
  // before it), where the value is stored to shared memory before the
  // barrier. ptxas predicates the loads and issues them together: one round
  // a trip, not three, and the barrier waits for it. The loop's head is
  // block 1 (marker 1), where the round goes.
  Blocks K(3, R"(
.visible .entry k(
)
{
	// roofline-block 0
	bra.uni $L__BB0_2;
$L__BB0_4:
	// roofline-block 2
	st.shared.f32 [%r3], %f3;
	bar.sync 0;
	@%p9 bra $L__BB0_2;
	ret;
$L__BB0_2:
	// roofline-block 1
	mov.f32 %f1, 0f00000000;
	@%p1 bra $L__BB0_5;
	ld.global.f32 %f1, [%rd1];
$L__BB0_5:
	st.shared.f32 [%r1], %f1;
	mov.f32 %f2, 0f00000000;
	@%p2 bra $L__BB0_6;
	ld.global.f32 %f2, [%rd2];
$L__BB0_6:
	st.shared.f32 [%r2], %f2;
	mov.f32 %f3, 0f00000000;
	@%p3 bra $L__BB0_4;
	ld.global.f32 %f3, [%rd3];
	bra.uni $L__BB0_4;
}
)");
  auto Counts = blockInstructions(K.P);
  EXPECT_EQ(Counts[K.BB[1]][counter::InstLoadRounds], Rational(1));
  EXPECT_EQ(Counts[K.BB[1]][counter::InstBarrierRounds], Rational(1));
  EXPECT_EQ(Counts[K.BB[0]][counter::InstLoadRounds], Rational(0));
  EXPECT_EQ(Counts[K.BB[2]][counter::InstLoadRounds], Rational(0));
}

TEST(MachineInstructions, DependentLoadsAreRoundsInTurn) {
  // Block 0 loads an index, then the element it names (its address waits
  // for the first load: 2 rounds), and a guarded load whose guard is
  // computed from a loaded value (3: it waits for the element). Block 1
  // loads the next tile into registers and only then waits at the barrier
  // (a prefetch): the barrier waits for neither that load nor the guarded
  // one, whose values are used after it, but the thread reaches it only
  // after the comparison that used the element: rounds 1 and 2.
  Blocks K(2, R"(
.visible .entry k(
)
{
	// roofline-block 0
	ld.global.u32 %r1, [%rd1];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd4, %rd2;
	ld.global.f32 %f1, [%rd3];
	setp.gt.f32 %p1, %f1, 0f00000000;
	@%p1 bra $L__BB0_2;
	ld.global.f32 %f2, [%rd5];
$L__BB0_2:
	// roofline-block 1
	ld.global.f32 %f3, [%rd6];
	bar.sync 0;
	st.shared.f32 [%r2], %f3;
	ret;
}
)");
  auto Counts = blockInstructions(K.P);
  EXPECT_EQ(Counts[K.BB[0]][counter::InstLoadRounds], Rational(3));
  EXPECT_EQ(Counts[K.BB[0]][counter::InstBarrierRounds], Rational(2));
  // $L__BB0_2 joins two edges of block 0's region: the region goes on,
  // and its load (in flight with the first) adds no round of its own.
  EXPECT_EQ(Counts[K.BB[1]][counter::InstLoadRounds], Rational(0));
  EXPECT_EQ(Counts[K.BB[1]][counter::InstBarrierRounds], Rational(0));
}

TEST(MachineInstructions, BulkCopiesIssueOnceAndWaitLikeLoads) {
  // Block 0 copies a tile into shared memory with the copy engine (one
  // memory instruction, one round: its data comes from global memory) and
  // commits the bulk group (issue only); block 1 copies it out (memory, no
  // round) and waits for the group (issue only).
  Blocks K(2, R"(
.visible .entry k(
)
{
	// roofline-block 0
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16384, [%r2];
	cp.async.bulk.commit_group;
	@%p1 bra $L__BB0_2;
$L__BB0_1:
	// roofline-block 1
	cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r1], 16384;
	cp.async.bulk.wait_group.read 0;
$L__BB0_2:
	ret;
}
)");
  auto Counts = blockInstructions(K.P);
  EXPECT_EQ(Counts[K.BB[0]][counter::InstMemory], Rational(1));
  EXPECT_EQ(Counts[K.BB[0]][counter::InstLoadRounds], Rational(1));
  EXPECT_EQ(Counts[K.BB[0]][counter::InstIssue], Rational(3));
  EXPECT_EQ(Counts[K.BB[1]][counter::InstMemory], Rational(1));
  EXPECT_EQ(Counts[K.BB[1]][counter::InstLoadRounds], Rational(0));
  EXPECT_EQ(Counts[K.BB[1]][counter::InstIssue], Rational(3));
}

TEST(MachineInstructions, WideAddressArithmeticIsOneImadWide) {
  // ptxas makes one IMAD.WIDE of mul.wide + add.s64 (base + index * 4), and
  // of an add of a product computed once (a pointer stepped by a stride):
  // checked on the sm_90 machine code of the same pattern. Block 0: the
  // stride's product (used by adds only: folded, nothing) and the index's
  // pair (1 int_mad). Block 1: the pointer step (1 int_mad), and a product
  // that a comparison also reads (kept: 1 int_mad, and its add 1 more); the
  // 64-bit add of two plain registers stays 2 ALU halves.
  Blocks K(2, R"(
.visible .entry k(
)
{
	// roofline-block 0
	mul.wide.s32 %rd9, %r9, 4;
	mul.wide.u32 %rd10, %r2, 4;
	add.s64 %rd11, %rd4, %rd10;
	@%p1 bra $L__BB0_2;
$L__BB0_1:
	// roofline-block 1
	add.s64 %rd11, %rd11, %rd9;
	mul.wide.s32 %rd5, %r4, 8;
	add.s64 %rd6, %rd3, %rd5;
	setp.lt.u64 %p2, %rd5, %rd7;
	add.s64 %rd8, %rd6, %rd7;
	@%p2 bra $L__BB0_1;
$L__BB0_2:
	ret;
}
)");
  auto Counts = blockInstructions(K.P);
  EXPECT_EQ(Counts[K.BB[0]][counter::InstIntMad], Rational(1));
  EXPECT_EQ(Counts[K.BB[0]][counter::InstAlu], Rational(0));
  EXPECT_EQ(Counts[K.BB[0]][counter::InstIssue], Rational(2)); // + bra
  EXPECT_EQ(Counts[K.BB[1]][counter::InstIntMad], Rational(3));
  // setp.lt.u64 and the plain add: 2 halves each.
  EXPECT_EQ(Counts[K.BB[1]][counter::InstAlu], Rational(4));
}

// An NVPTX module of IR Body, for the back end to compile.
std::unique_ptr<llvm::Module> nvptxFixture(const char *Body, const char *Name,
                                           llvm::LLVMContext &Ctx,
                                           std::string &Error) {
  std::string IR = std::string(R"(
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
)") + Body;
  return parseFixture(IR.c_str(), Name, Ctx, Error);
}

TEST(MachineInstructions, TheBackEndMarksEveryBlock) {
  // y[0] = fma(x[0], a, a) behind a test of a: the back end's code for the
  // second block loads x, does one FFMA and stores y.
  llvm::LLVMContext Ctx;
  std::string Error;
  auto M = nvptxFixture(R"(
declare float @llvm.fma.f32(float, float, float)
define ptx_kernel void @k(ptr addrspace(1) %x, ptr addrspace(1) %y, float %a) {
entry:
  %c = fcmp ogt float %a, 0.0
  br i1 %c, label %work, label %done
work:
  %v = load float, ptr addrspace(1) %x
  %f = call float @llvm.fma.f32(float %v, float %a, float %a)
  store float %f, ptr addrspace(1) %y
  br label %done
done:
  ret void
}
)",
                        "straight", Ctx, Error);
  ASSERT_TRUE(M) << Error;
  auto P = emitMarkedPtx(*M, "sm_90");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Blocks.size(), 3u);
  auto Counts = blockInstructions(*P);
  const llvm::BasicBlock *Work = P->Blocks[1];
  EXPECT_EQ(Work->getName(), "work");
  EXPECT_EQ(Counts[Work][counter::InstMemory], Rational(2));
  EXPECT_EQ(Counts[Work][counter::InstFp32], Rational(1));
  EXPECT_EQ(Counts[Work][counter::InstFma], Rational(1));
  // The module analysed is left as it was: no markers in it.
  for (const llvm::BasicBlock &BB : *M->getFunction("k"))
    for (const llvm::Instruction &I : BB)
      if (auto *Call = llvm::dyn_cast<llvm::CallInst>(&I)) {
        EXPECT_FALSE(Call->isInlineAsm());
      }
}

/// The asm strings of F's block markers, block by block ("b: 0 beside").
std::string markersOf(const llvm::Function &F) {
  std::string Out;
  for (const llvm::BasicBlock &BB : F) {
    Out += BB.getName().str() + ":";
    for (const llvm::Instruction &I : BB)
      if (auto *CI = llvm::dyn_cast<llvm::CallInst>(&I);
          CI && CI->isInlineAsm())
        Out += " " + llvm::StringRef(
                         llvm::cast<llvm::InlineAsm>(CI->getCalledOperand())
                             ->getAsmString())
                         .drop_front(strlen("// roofline-block "))
                         .str();
    Out += ";";
  }
  return Out;
}

TEST(MachineInstructions, TheUnrollersRemainderIsMarkedApart) {
  // @k: a loop as the unroller leaves it at a count of 2 when the trip count
  // is not known: the unrolled body (two copies of marker 1), a block it
  // adds to test for left-over iterations, and the remainder loop (one
  // copy), both loops marked unrolled already. @rolled: a loop the source
  // keeps rolled, marked the same way but with no unrolled sibling.
  llvm::LLVMContext Ctx;
  std::string Error;
  auto M = nvptxFixture(R"(
define ptx_kernel void @k(i32 %n, i32 %left) {
entry:
  call void asm sideeffect "// roofline-block 0", ""()
  %big = icmp ugt i32 %n, 1
  br i1 %big, label %main, label %check
main:
  %i = phi i32 [ 0, %entry ], [ %i2, %main ]
  call void asm sideeffect "// roofline-block 1", ""()
  call void asm sideeffect "// roofline-block 1", ""()
  %i2 = add i32 %i, 2
  %more = icmp ult i32 %i2, %n
  br i1 %more, label %main, label %check, !llvm.loop !0
check:
  %none = icmp eq i32 %left, 0
  br i1 %none, label %done, label %rest
rest:
  %r = phi i32 [ %left, %check ], [ %r1, %rest ]
  call void asm sideeffect "// roofline-block 1", ""()
  %r1 = add i32 %r, -1
  %again = icmp ne i32 %r1, 0
  br i1 %again, label %rest, label %done, !llvm.loop !2
done:
  call void asm sideeffect "// roofline-block 2", ""()
  ret void
}
define ptx_kernel void @rolled(i32 %n) {
entry:
  call void asm sideeffect "// roofline-block 3", ""()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void asm sideeffect "// roofline-block 4", ""()
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !3
exit:
  call void asm sideeffect "// roofline-block 5", ""()
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}
)",
                        "remainder", Ctx, Error);
  ASSERT_TRUE(M) << Error;
  for (llvm::Function &F : *M)
    markUnrollRemainders(F);
  EXPECT_EQ(markersOf(*M->getFunction("k")),
            "entry: 0;main: 1 1;check: 0 beside;rest: 1 rest;done: 2;");
  EXPECT_EQ(markersOf(*M->getFunction("rolled")), "entry: 3;loop: 4;exit: 5;");
}

TEST(MachineInstructions, ALoopOfUnknownTripCountCountsItsUnrolledBody) {
  // acc = fma(x[i], a, acc) for i < n: the unroller makes 8 copies of the
  // body (8 loads, 8 FFMAs, the 32- and 64-bit increments, 1 and 2 ALU
  // instructions, the test and the branch: 21 instructions a trip) and a
  // remainder loop, whose 7 count nothing. Block 0 is the entry's test and
  // branch (2) and the unroller's blocks beside it: the test for fewer
  // than 8 iterations (and, setp, branch: 3), the main loop's set-up (and,
  // add.s64: 3), the test for left-overs (setp, branch: 2) and the
  // remainder's start (mul.wide and add.s64, one IMAD.WIDE: 1), 11 in all.
  // Charged as copies of the body, the remainder and those blocks made it
  // (21 + 7 + 2 + 1) / 9 an iteration.
  llvm::LLVMContext Ctx;
  std::string Error;
  auto M = nvptxFixture(R"(
declare float @llvm.fma.f32(float, float, float)
define ptx_kernel void @k(ptr addrspace(1) %x, ptr addrspace(1) %y, float %a, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %f, %loop ]
  %ix = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %ix
  %v = load float, ptr addrspace(1) %p, align 4
  %f = call float @llvm.fma.f32(float %v, float %a, float %acc)
  %i1 = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %s = phi float [ 0.0, %entry ], [ %f, %loop ]
  store float %s, ptr addrspace(1) %y
  ret void
}
)",
                        "runtime", Ctx, Error);
  ASSERT_TRUE(M) << Error;
  auto P = emitMarkedPtx(*M, "sm_90");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_NE(P->Ptx.find("roofline-block 1 rest"), std::string::npos) << P->Ptx;
  auto Counts = blockInstructions(*P);
  auto &Body = Counts[P->Blocks[1]];
  EXPECT_EQ(Body[counter::InstFma], Rational(1));
  EXPECT_EQ(Body[counter::InstMemory], Rational(1));
  EXPECT_EQ(Body[counter::InstIssue], Rational::fraction(21, 8));
  EXPECT_EQ(Counts[P->Blocks[0]][counter::InstIssue], Rational(11));
  EXPECT_EQ(Counts[P->Blocks[2]][counter::InstIssue], Rational(2));
}

TEST(MachineInstructions, SharedAccessesTakeTheWidthTheyAreMergedTo) {
  // A fully unrolled loop over d = 0..7 reads s[8 * tid + d] (a thread's
  // 32 contiguous bytes, 32-byte aligned) and s[32 * d + tid] (one float
  // per 128-byte row). The copy compiled to PTX aligns s to 16 bytes and
  // merges the first load's eight copies into two 16-byte loads; the
  // second's stay 4-byte loads, so only the first is given a width (the
  // two are told apart by their debug locations).
  llvm::LLVMContext Ctx;
  std::string Error;
  auto M = nvptxFixture(R"(
@s = internal addrspace(3) global [512 x float] undef, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !5 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %row = shl nuw nsw i32 %t, 3
  br label %loop
loop:
  %d = phi i32 [ 0, %entry ], [ %dn, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %sum2, %loop ]
  %i = add nuw nsw i32 %row, %d
  %ix = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %ix
  %v = load float, ptr addrspace(3) %p, align 4, !dbg !10
  %d32 = shl nuw nsw i32 %d, 5
  %j = add nuw nsw i32 %d32, %t
  %jx = zext i32 %j to i64
  %q = getelementptr inbounds float, ptr addrspace(3) @s, i64 %jx
  %w = load float, ptr addrspace(3) %q, align 4, !dbg !11
  %sum = fadd float %acc, %v
  %sum2 = fadd float %sum, %w
  %dn = add nuw nsw i32 %d, 1
  %c = icmp ult i32 %dn, 8
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  store float %sum2, ptr addrspace(1) %out
  ret void
}
!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!4}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.full"}
!2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !3, emissionKind: LineTablesOnly)
!3 = !DIFile(filename: "k.cu", directory: "/")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !3, file: !3, line: 1, type: !6, spFlags: DISPFlagDefinition, unit: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = !DILocation(line: 5, column: 12, scope: !5)
!11 = !DILocation(line: 6, column: 12, scope: !5)
)",
                        "merged", Ctx, Error);
  ASSERT_TRUE(M) << Error;
  auto P = emitMarkedPtx(*M, "sm_90");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  const llvm::Instruction *Row = nullptr, *Column = nullptr;
  for (const llvm::Instruction &I : *P->Blocks[1])
    if (llvm::isa<llvm::LoadInst>(I))
      (Row ? Column : Row) = &I;
  ASSERT_TRUE(Row && Column);
  ASSERT_EQ(P->MergedWidths.count(Row), 1u);
  EXPECT_EQ(P->MergedWidths.at(Row), 16u);
  EXPECT_EQ(P->MergedWidths.count(Column), 0u);
  EXPECT_EQ(P->Ptx.find("ld.shared.v4") != std::string::npos, true);
}

} // namespace
