//===- MemoryIntrinsicsTest.cpp - No memory intrinsic goes uncounted ------===//
//
// Part of cuda-roofline.
//
// Every intrinsic the optimizer or the CUDA headers can form that moves
// memory is either counted (memcpy, memmove, memset by their bytes; the
// frontend turns a masked load with a constant mask into a plain load) or
// makes the counts it may touch unknown with its name; the ones that move
// no data (markers, barriers, fences, the waits of asynchronous copies) add
// nothing and are not unknowns.
//
//===----------------------------------------------------------------------===//

#include "OpClassifier.h"
#include "ParseIR.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

const char *const IR = R"(
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %g, ptr addrspace(3) %s, <4 x i1> %m,
               <4 x ptr addrspace(1)> %ps, <4 x float> %v, i64 %n) {
  ; Counted: 64 bytes copied global to global (4 x 16-byte accesses each way),
  ; 32 bytes set in shared memory, 48 bytes set in global memory (16-byte
  ; alignment: 3 stores).
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 16 %g, ptr addrspace(1) align 16 %g, i64 64, i1 false)
  call void @llvm.memset.p3.i64(ptr addrspace(3) align 4 %s, i8 0, i64 32, i1 false)
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 16 %g, i8 0, i64 48, i1 false)
  ; Not counted, named: a masked load or store with a mask known only at run
  ; time, gathers and scatters, an asynchronous copy, a memset of a length
  ; known only at run time.
  %ml = call <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1) align 16 %g, <4 x i1> %m, <4 x float> poison)
  call void @llvm.masked.store.v4f32.p1(<4 x float> %v, ptr addrspace(1) align 16 %g, <4 x i1> %m)
  %mg = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> align 4 %ps, <4 x i1> %m, <4 x float> poison)
  call void @llvm.masked.scatter.v4f32.v4p1(<4 x float> %v, <4 x ptr addrspace(1)> align 4 %ps, <4 x i1> %m)
  %me = call <4 x float> @llvm.masked.expandload.v4f32.p1(ptr addrspace(1) %g, <4 x i1> %m, <4 x float> poison)
  call void @llvm.masked.compressstore.v4f32.p1(<4 x float> %v, ptr addrspace(1) %g, <4 x i1> %m)
  call void @llvm.nvvm.cp.async.ca.shared.global.16(ptr addrspace(3) %s, ptr addrspace(1) %g)
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 16 %g, i8 0, i64 %n, i1 false)
  ; Move no data: markers, barriers, fences, the waits of asynchronous copies.
  call void @llvm.lifetime.start.p3(ptr addrspace(3) %s)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  call void @llvm.nvvm.fence.sc.cluster()
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 0)
  call void @llvm.prefetch.p1(ptr addrspace(1) %g, i32 0, i32 3, i32 1)
  ret void
}

declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)
declare void @llvm.memset.p3.i64(ptr addrspace(3), i8, i64, i1)
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
declare <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1), <4 x i1>, <4 x float>)
declare void @llvm.masked.store.v4f32.p1(<4 x float>, ptr addrspace(1), <4 x i1>)
declare <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)>, <4 x i1>, <4 x float>)
declare void @llvm.masked.scatter.v4f32.v4p1(<4 x float>, <4 x ptr addrspace(1)>, <4 x i1>)
declare <4 x float> @llvm.masked.expandload.v4f32.p1(ptr addrspace(1), <4 x i1>, <4 x float>)
declare void @llvm.masked.compressstore.v4f32.p1(<4 x float>, ptr addrspace(1), <4 x i1>)
declare void @llvm.nvvm.cp.async.ca.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.lifetime.start.p3(ptr addrspace(3))
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.fence.sc.cluster()
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32)
declare void @llvm.prefetch.p1(ptr addrspace(1), i32, i32, i32)
)";

TEST(MemoryIntrinsics, CountedUnknownOrNoData) {
  llvm::LLVMContext Ctx;
  std::string Error;
  auto M = parseFixture(IR, "intrinsics.ll", Ctx, Error);
  ASSERT_TRUE(M) << Error;
  OpCounts Counted;
  std::vector<std::string> Unknown;
  for (const llvm::Instruction &I : llvm::instructions(*M->getFunction("k"))) {
    if (!llvm::isa<llvm::IntrinsicInst>(I))
      continue;
    std::string Why;
    unsigned Affects = 0;
    OpCounts Out;
    if (!classifyInstruction(I, M->getDataLayout(), Out, Why, Affects)) {
      Unknown.push_back(Why);
      EXPECT_TRUE(Affects & (AffectsLoads | AffectsStores)) << Why;
      continue;
    }
    for (const auto &[Name, N] : Out)
      Counted[Name] += N;
  }
  EXPECT_EQ(Counted, (OpCounts{{"global.loads", 4},
                               {"global.load_bytes", 64},
                               {"global.stores", 4 + 3},
                               {"global.store_bytes", 64 + 48},
                               {"shared.store_bytes", 32}}));
  std::vector<std::string> Expected = {
      "the intrinsic 'llvm.masked.load.v4f32.p1' moves memory the analysis "
      "does not count",
      "the intrinsic 'llvm.masked.store.v4f32.p1' moves memory the analysis "
      "does not count",
      "the intrinsic 'llvm.masked.gather.v4f32.v4p1' moves memory the "
      "analysis does not count",
      "the intrinsic 'llvm.masked.scatter.v4f32.v4p1' moves memory the "
      "analysis does not count",
      "the intrinsic 'llvm.masked.expandload.v4f32.p1' moves memory the "
      "analysis does not count",
      "the intrinsic 'llvm.masked.compressstore.v4f32.p1' moves memory the "
      "analysis does not count",
      "the intrinsic 'llvm.nvvm.cp.async.ca.shared.global.16' moves memory "
      "the analysis does not count",
      "memset of a non-constant length"};
  EXPECT_EQ(Unknown, Expected);
}

} // namespace
