//===- CacheHintAsmTest.cpp - Inline-PTX global accesses as plain IR -----===//
//
// Part of cuda-roofline.
//
// lowerCacheHintAsm on hand-written NVPTX IR in the form clang emits for
// CUDA: clang's __ldcs/__stwt (__clang_cuda_intrinsics.h), cuda_bf16.hpp's
// __ldcs(const __nv_bfloat16 *) (ld.global.cs.b16 into an "h" register),
// vector forms, and asm the rewrite must leave alone. A replaced asm must
// then count (classifyInstruction) as the plain access of the PTX width:
// ld.global.cs.f32 = 1 load of 4 B, .v4.f32 = 1 load of 16 B, .s8 = 1 B,
// .b16 = 2 B, st ... .v2.b32 = 1 store of 8 B.
//
//===----------------------------------------------------------------------===//

#include "CacheHintAsm.h"
#include "OpClassifier.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "ParseIR.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

constexpr const char *AsmIR = R"IR(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; clang's __ldcs(const float *): readnone asm.
define float @ld_f32(ptr %p) {
  %v = call float asm "ld.global.cs.f32 $0, [$1];", "=f,l"(ptr %p), !dbg !7
  ret float %v
}

; clang's __ldcg(const float4 *): four outputs, one 16-byte access.
define { float, float, float, float } @ld_v4(ptr %p) {
  %v = call { float, float, float, float } asm "ld.global.cg.v4.f32 {$0,$1,$2,$3}, [$4];", "=f,=f,=f,=f,l"(ptr %p)
  ret { float, float, float, float } %v
}

; clang's __ldcs(const signed char *): one byte, sign-extended into an "r"
; register.
define i32 @ld_s8(ptr %p) {
  %v = call i32 asm "ld.global.cs.s8 $0, [$1];", "=r,l"(ptr %p)
  ret i32 %v
}

; cuda_fp16.hpp's __ldcv(const __half *): a "memory" clobber.
define i16 @ld_b16(ptr %p) {
  %v = call i16 asm "ld.global.cv.b16 $0, [$1];", "=h,l,~{memory}"(ptr %p)
  ret i16 %v
}

; clang's __stwt(float *, float): volatile with a "memory" clobber.
define void @st_f32(ptr %p, float %x) {
  call void asm sideeffect "st.global.wt.f32 [$0], $1;", "l,f,~{memory}"(ptr %p, float %x)
  ret void
}

; A two-lane store of 32-bit registers, written with spaces.
define void @st_v2(ptr %p, i32 %a, i32 %b) {
  call void asm sideeffect "  st.global.cs.v2.b32 [$0], { $1, $2 }", "l,r,r"(ptr %p, i32 %a, i32 %b)
  ret void
}

; clang's __stwt(char *, char): the low byte of an "r" register.
define void @st_s8(ptr %p, i32 %x) {
  call void asm sideeffect "st.global.wt.s8 [$0], $1;", "l,r,~{memory}"(ptr %p, i32 %x)
  ret void
}

; A non-caching load with an L1 eviction qualifier, the address an integer.
define i32 @ld_nc(i64 %a) {
  %v = call i32 asm "ld.global.nc.L1::no_allocate.b32 $0, [$1];", "=r,l"(i64 %a)
  ret i32 %v
}

; The constant bank and local memory: counted as the C++ accesses to them
; are (nothing: no global or shared bytes), not unknown. A store to the
; constant bank does not exist.
define float @ld_const(i64 %a) {
  %v = call float asm "ld.const.f32 $0, [$1];", "=f,l"(i64 %a)
  ret float %v
}
define void @st_local_v2(i32 %a, i32 %x, i32 %y) {
  call void asm sideeffect "st.local.v2.b32 [$0], {$1, $2};", "r,r,r"(i32 %a, i32 %x, i32 %y)
  ret void
}
define void @st_const(i64 %a, float %x) {
  call void asm sideeffect "st.const.f32 [$0], $1;", "l,f"(i64 %a, float %x)
  ret void
}

; tcgen05.alloc writes the tensor-memory address to shared memory, once for
; the warp.
define void @tmem_alloc(ptr addrspace(3) %slot) {
  %r = ptrtoint ptr addrspace(3) %slot to i32
  call void asm sideeffect "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [$0], 128;", "r,~{memory}"(i32 %r)
  ret void
}

; Left alone: two instructions; a predicate; shared memory; an address
; offset; an extra cache-policy operand; one register for two lanes; a
; 64-bit access into a 32-bit float register.
define float @two(ptr %p) {
  %v = call float asm "ld.global.f32 $0, [$1]; add.f32 $0, $0, $0;", "=f,l"(ptr %p)
  ret float %v
}
define float @pred(ptr %p) {
  %v = call float asm "@%p1 ld.global.f32 $0, [$1];", "=f,l"(ptr %p)
  ret float %v
}
define float @shared(ptr %p) {
  %v = call float asm "ld.shared.f32 $0, [$1];", "=f,l"(ptr %p)
  ret float %v
}
define float @offset(ptr %p) {
  %v = call float asm "ld.global.f32 $0, [$1+4];", "=f,l"(ptr %p)
  ret float %v
}
define float @policy(ptr %p, i64 %pol) {
  %v = call float asm "ld.global.L2::cache_hint.f32 $0, [$1], $2;", "=f,l,l"(ptr %p, i64 %pol)
  ret float %v
}
define float @lanes(ptr %p) {
  %v = call float asm "ld.global.v2.f32 $0, [$1];", "=f,l"(ptr %p)
  ret float %v
}
define float @width(ptr %p) {
  %v = call float asm "ld.global.f64 $0, [$1];", "=f,l"(ptr %p)
  ret float %v
}

; Tensor-core idioms (issue 22). __cvta_generic_to_shared before inlining:
; a call on the generic pointer, truncated to the 32-bit "r" operand.
declare i64 @_ZL24__cvta_generic_to_sharedPKv(ptr)
@tile = internal addrspace(3) global [256 x float] undef, align 16

define float @ld_shared_cvta(i64 %i) {
  %g = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %i
  %a = call i64 @_ZL24__cvta_generic_to_sharedPKv(ptr %g)
  %r = trunc i64 %a to i32
  %v = call float asm sideeffect "ld.shared.f32 $0, [$1];", "=f,r"(i32 %r)
  ret float %v
}

; After inlining: ptrtoint of the shared pointer itself.
define void @st_shared_v2(i64 %i, i32 %x, i32 %y) {
  %g = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %i
  %a = ptrtoint ptr addrspace(3) %g to i32
  call void asm sideeffect "st.shared.v2.b32 [$0], {$1, $2};", "r,r,r"(i32 %a, i32 %x, i32 %y)
  ret void
}

; ldmatrix .x4: four b32 registers, 16 bytes per lane (4 matrices x 128 B
; per warp); .x2 .trans: 8 bytes per lane.
define { i32, i32, i32, i32 } @ldmatrix_x4(ptr %g) {
  %a = call i64 @_ZL24__cvta_generic_to_sharedPKv(ptr %g)
  %r = trunc i64 %a to i32
  %v = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r"(i32 %r)
  ret { i32, i32, i32, i32 } %v
}
define { i32, i32 } @ldmatrix_x2(ptr %g) {
  %a = call i64 @_ZL24__cvta_generic_to_sharedPKv(ptr %g)
  %r = trunc i64 %a to i32
  %v = call { i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {$0, $1}, [$2];", "=r,=r,r"(i32 %r)
  ret { i32, i32 } %v
}

; cp.async of 16 bytes, the size a literal; of 8, an "n" operand.
define void @cp_async_16(ptr %g, ptr %src) {
  %a = call i64 @_ZL24__cvta_generic_to_sharedPKv(ptr %g)
  %r = trunc i64 %a to i32
  call void asm sideeffect "cp.async.cg.shared.global.L2::128B [$0], [$1], 16;\0A", "r,l"(i32 %r, ptr %src)
  ret void
}
define void @cp_async_8(ptr %g, ptr %src) {
  %a = call i64 @_ZL24__cvta_generic_to_sharedPKv(ptr %g)
  %r = trunc i64 %a to i32
  call void asm sideeffect "cp.async.ca.shared.global [$0], [$1], $2;", "r,l,n"(i32 %r, ptr %src, i32 8)
  ret void
}

; The intrinsic __pipeline_memcpy_async-style code reaches.
declare void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3), ptr addrspace(1))
define void @cp_async_intrinsic(ptr addrspace(3) %d, ptr addrspace(1) %s) {
  call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %d, ptr addrspace(1) %s)
  ret void
}

; Zero fill: a source size known at run time (the edge-tile idiom, 16 or
; 0), a literal 0, and a partial size of 8 (left alone).
define void @cp_async_zfill(ptr addrspace(3) %d, ptr %src, i32 %n) {
  %r = ptrtoint ptr addrspace(3) %d to i32
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r"(i32 %r, ptr %src, i32 %n)
  ret void
}
define void @cp_async_zfill0(ptr addrspace(3) %d, ptr %src) {
  %r = ptrtoint ptr addrspace(3) %d to i32
  call void asm sideeffect "cp.async.cg.shared.global.L2::cache_hint [$0], [$1], 16, 0, $2;", "r,l,l"(i32 %r, ptr %src, i64 0)
  ret void
}
define void @cp_async_zfill_part(ptr addrspace(3) %d, ptr %src) {
  %r = ptrtoint ptr addrspace(3) %d to i32
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, 8;", "r,l"(i32 %r, ptr %src)
  ret void
}

; Left alone: a 12-byte copy.
define void @cp_async_12(ptr addrspace(3) %d, ptr %src) {
  %r = ptrtoint ptr addrspace(3) %d to i32
  call void asm sideeffect "cp.async.ca.shared.global [$0], [$1], 12;", "r,l"(i32 %r, ptr %src)
  ret void
}

; cp.async.bulk of a 4096-byte tile into shared memory, completing on an
; mbarrier, the size an "n" operand; and back to global memory in a bulk
; group with an L2 cache hint (its policy operand moves nothing).
define void @bulk_to_shared(ptr addrspace(3) %d, ptr %src, ptr addrspace(3) %bar) {
  %r = ptrtoint ptr addrspace(3) %d to i32
  %b = ptrtoint ptr addrspace(3) %bar to i32
  call void asm sideeffect "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,n,r,~{memory}"(i32 %r, ptr %src, i32 4096, i32 %b)
  ret void
}
define void @bulk_to_global(ptr %dst, ptr addrspace(3) %s, i64 %policy) {
  %r = ptrtoint ptr addrspace(3) %s to i32
  call void asm sideeffect "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [$0], [$1], $2, $3;", "l,r,r,l,~{memory}"(ptr %dst, i32 %r, i32 512, i64 %policy)
  ret void
}

; A size known only at run time, and one that is not a multiple of 16.
define void @bulk_any(ptr %dst, ptr addrspace(3) %s, i32 %n) {
  %r = ptrtoint ptr addrspace(3) %s to i32
  call void asm sideeffect "cp.async.bulk.global.shared::cta.bulk_group [$0], [$1], $2;", "l,r,r,~{memory}"(ptr %dst, i32 %r, i32 %n)
  ret void
}
define void @bulk_odd(ptr %dst, ptr addrspace(3) %s) {
  %r = ptrtoint ptr addrspace(3) %s to i32
  call void asm sideeffect "cp.async.bulk.global.shared::cta.bulk_group [$0], [$1], 100;", "l,r,~{memory}"(ptr %dst, i32 %r)
  ret void
}

; TMA copies of a kernel's __grid_constant__ tensor map: a 2-D box of 32 x 4
; floats into shared memory (4 rows of 128 B), a 1-D box of 64 halves back
; to global memory (one row of 128 B), and a map no launch gives a box.
define ptx_kernel void @tma_2d(ptr byval([128 x i8]) align 64 %map, ptr addrspace(3) %d, ptr addrspace(3) %bar, i32 %x, i32 %y) {
  %r = ptrtoint ptr addrspace(3) %d to i32
  %b = ptrtoint ptr addrspace(3) %bar to i32
  %m = ptrtoint ptr %map to i64
  call void asm sideeffect "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r,~{memory}"(i32 %r, i64 %m, i32 %x, i32 %y, i32 %b)
  ret void
}
define ptx_kernel void @tma_1d_store(ptr byval([128 x i8]) align 64 %map, ptr addrspace(3) %s, i32 %x, i64 %policy) {
  %r = ptrtoint ptr addrspace(3) %s to i32
  %m = ptrtoint ptr %map to i64
  call void asm sideeffect "cp.async.bulk.tensor.1d.global.shared::cta.bulk_group.L2::cache_hint [$0, {$1}], [$2], $3;", "l,r,r,l,~{memory}"(i64 %m, i32 %x, i32 %r, i64 %policy)
  ret void
}
define ptx_kernel void @tma_unseen(ptr byval([128 x i8]) align 64 %map, ptr addrspace(3) %d, ptr addrspace(3) %bar) {
  %r = ptrtoint ptr addrspace(3) %d to i32
  %b = ptrtoint ptr addrspace(3) %bar to i32
  %m = ptrtoint ptr %map to i64
  call void asm sideeffect "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r,~{memory}"(i32 %r, i64 %m, i32 0, i32 0, i32 %b)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!6 = distinct !DISubprogram(name: "ld_f32", scope: !1, file: !1, line: 3, unit: !0, spFlags: DISPFlagDefinition)
!7 = !DILocation(line: 4, column: 9, scope: !6)
)IR";

class CacheHintAsmTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Error;
    Mod = parseFixture(AsmIR, "cache hints", Ctx, Error);
    ASSERT_TRUE(Mod) << Error;
    // The eight accepted global accesses (ld_f32, ld_v4, ld_s8, ld_b16,
    // st_f32, st_v2, st_s8, ld_nc) and ld_shared_cvta, st_shared_v2,
    // ldmatrix_x4, ldmatrix_x2, cp_async_16, cp_async_8, cp_async_intrinsic,
    // cp_async_zfill, cp_async_zfill0, bulk_to_shared, bulk_to_global.
    // The boxes the host code gives tma_2d's and tma_1d_store's maps.
    TensorMapBoxes Maps;
    TensorMapBox Floats;
    Floats.Bytes = 512;
    Floats.ElementBytes = 4;
    Floats.Box = {32, 4};
    Maps["tma_2d"][0] = Floats;
    TensorMapBox Halves;
    Halves.Bytes = 128;
    Halves.ElementBytes = 2;
    Halves.Box = {64};
    Maps["tma_1d_store"][0] = Halves;
    Replaced = lowerCacheHintAsm(*Mod, Maps);
  }

  /// What F's instructions count, summed; Ok is false if one is unknown.
  struct Counted {
    OpCounts Counts;
    bool Ok = true;
  };
  Counted count(const char *Fn) {
    Counted C;
    for (llvm::Instruction &I : llvm::instructions(*Mod->getFunction(Fn))) {
      std::string Why;
      unsigned Affects = 0;
      C.Ok &=
          classifyInstruction(I, Mod->getDataLayout(), C.Counts, Why, Affects);
    }
    return C;
  }

  /// The only load or store of F (null if none or several).
  template <class T> T *only(const char *Fn) {
    T *Found = nullptr;
    unsigned N = 0;
    for (llvm::Instruction &I : llvm::instructions(*Mod->getFunction(Fn)))
      if (auto *X = llvm::dyn_cast<T>(&I)) {
        Found = X;
        ++N;
      }
    return N == 1 ? Found : nullptr;
  }

  /// Why F's asm call is an unknown (empty if it has none or it counts).
  std::string whyUnknown(const char *Fn) {
    for (llvm::Instruction &I : llvm::instructions(*Mod->getFunction(Fn)))
      if (auto *CB = llvm::dyn_cast<llvm::CallBase>(&I);
          CB && CB->isInlineAsm()) {
        OpCounts Out;
        std::string Why;
        unsigned Affects = 0;
        if (!classifyInstruction(I, Mod->getDataLayout(), Out, Why, Affects))
          return Why;
      }
    return "";
  }

  bool hasAsm(const char *Fn) {
    for (llvm::Instruction &I : llvm::instructions(*Mod->getFunction(Fn)))
      if (auto *CB = llvm::dyn_cast<llvm::CallBase>(&I);
          CB && CB->isInlineAsm())
        return true;
    return false;
  }

  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> Mod;
  unsigned Replaced = 0;
};

TEST_F(CacheHintAsmTest, ReplacesExactlyTheSimpleAccesses) {
  // The eight global accesses, the seven shared-memory idioms, the two
  // zero-filling copies, the two bulk copies and the two TMA copies whose
  // boxes are known.
  EXPECT_EQ(Replaced, 24u);
  for (const char *Fn : {"ld_f32", "ld_v4", "ld_s8", "ld_b16", "st_f32",
                         "st_v2", "st_s8", "ld_nc"})
    EXPECT_FALSE(hasAsm(Fn)) << Fn;
  for (const char *Fn :
       {"two", "pred", "shared", "offset", "policy", "lanes", "width"}) {
    EXPECT_TRUE(hasAsm(Fn)) << Fn;
    EXPECT_EQ(only<llvm::LoadInst>(Fn), nullptr) << Fn;
    // Still an unknown of the analysis, as before.
    EXPECT_FALSE(count(Fn).Ok) << Fn;
  }
}

TEST_F(CacheHintAsmTest, ScalarLoadKeepsPointerAndLocation) {
  llvm::LoadInst *L = only<llvm::LoadInst>("ld_f32");
  ASSERT_NE(L, nullptr);
  EXPECT_TRUE(L->getType()->isFloatTy());
  EXPECT_EQ(L->getPointerOperand(), Mod->getFunction("ld_f32")->getArg(0));
  EXPECT_EQ(L->getAlign().value(), 4u);
  // clang's __ldcs asm is readnone: the compiler may merge it, and the load.
  EXPECT_FALSE(L->isVolatile());
  ASSERT_TRUE(L->getDebugLoc());
  EXPECT_EQ(L->getDebugLoc().getLine(), 4u);
  EXPECT_EQ(L->getDebugLoc().getCol(), 9u);
  // The return value is the load itself.
  auto *Ret = llvm::cast<llvm::ReturnInst>(
      Mod->getFunction("ld_f32")->getEntryBlock().getTerminator());
  EXPECT_EQ(Ret->getReturnValue(), L);
  Counted C = count("ld_f32");
  EXPECT_TRUE(C.Ok);
  EXPECT_EQ(C.Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 4}}));
}

TEST_F(CacheHintAsmTest, VectorLoadIsOneAccessOfItsWidth) {
  llvm::LoadInst *L = only<llvm::LoadInst>("ld_v4");
  ASSERT_NE(L, nullptr);
  // <4 x float>, 16-byte aligned as PTX requires.
  EXPECT_EQ(Mod->getDataLayout().getTypeStoreSize(L->getType()), 16u);
  EXPECT_EQ(L->getAlign().value(), 16u);
  Counted C = count("ld_v4");
  EXPECT_TRUE(C.Ok);
  EXPECT_EQ(C.Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 16}}));
}

TEST_F(CacheHintAsmTest, SubWordLoadsWidenByTheirType) {
  // .s8 into an "r" register: a 1-byte load, sign-extended to i32.
  llvm::LoadInst *L = only<llvm::LoadInst>("ld_s8");
  ASSERT_NE(L, nullptr);
  EXPECT_TRUE(L->getType()->isIntegerTy(8));
  ASSERT_EQ(L->getNumUses(), 1u);
  EXPECT_TRUE(llvm::isa<llvm::SExtInst>(*L->user_begin()));
  EXPECT_EQ(count("ld_s8").Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 1}}));
  // .b16 into an "h" register: 2 bytes; the "memory" clobber keeps the
  // compiler from merging it, and the load is volatile for the same reason.
  llvm::LoadInst *H = only<llvm::LoadInst>("ld_b16");
  ASSERT_NE(H, nullptr);
  EXPECT_TRUE(H->isVolatile());
  EXPECT_EQ(count("ld_b16").Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 2}}));
  // ld.global.nc with an L1 qualifier at an integer address: a 4-byte load
  // through the address turned into a pointer.
  llvm::LoadInst *N = only<llvm::LoadInst>("ld_nc");
  ASSERT_NE(N, nullptr);
  EXPECT_TRUE(llvm::isa<llvm::IntToPtrInst>(N->getPointerOperand()));
  EXPECT_EQ(count("ld_nc").Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 4}}));
}

TEST_F(CacheHintAsmTest, Stores) {
  // st.global.wt.f32: 4 bytes of the float operand, volatile as the asm.
  llvm::StoreInst *S = only<llvm::StoreInst>("st_f32");
  ASSERT_NE(S, nullptr);
  EXPECT_TRUE(S->isVolatile());
  EXPECT_EQ(S->getValueOperand(), Mod->getFunction("st_f32")->getArg(1));
  EXPECT_EQ(count("st_f32").Counts,
            (OpCounts{{"global.stores", 1}, {"global.store_bytes", 4}}));
  // .v2.b32: one store of 2 x 4 = 8 bytes.
  llvm::StoreInst *V = only<llvm::StoreInst>("st_v2");
  ASSERT_NE(V, nullptr);
  EXPECT_EQ(V->getAlign().value(), 8u);
  EXPECT_EQ(count("st_v2").Counts,
            (OpCounts{{"global.stores", 1}, {"global.store_bytes", 8}}));
  // .s8 from an "r" register: the low byte, 1 byte stored.
  llvm::StoreInst *B = only<llvm::StoreInst>("st_s8");
  ASSERT_NE(B, nullptr);
  EXPECT_TRUE(B->getValueOperand()->getType()->isIntegerTy(8));
  EXPECT_EQ(count("st_s8").Counts,
            (OpCounts{{"global.stores", 1}, {"global.store_bytes", 1}}));
}

TEST_F(CacheHintAsmTest, SharedMemoryIdioms) {
  // ld.shared at the address __cvta_generic_to_shared made: a 4-byte shared
  // load through the generic pointer cast back to shared memory.
  llvm::LoadInst *L = only<llvm::LoadInst>("ld_shared_cvta");
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->getPointerAddressSpace(), 3u);
  EXPECT_EQ(count("ld_shared_cvta").Counts,
            (OpCounts{{"shared.load_bytes", 4}}));
  // (The call to __cvta_generic_to_shared is left to the inliner.) After
  // inlining the address is a ptrtoint of the shared pointer: used as it
  // is. st.shared.v2.b32: 8 bytes.
  llvm::StoreInst *S = only<llvm::StoreInst>("st_shared_v2");
  ASSERT_NE(S, nullptr);
  EXPECT_EQ(S->getPointerAddressSpace(), 3u);
  EXPECT_EQ(count("st_shared_v2").Counts,
            (OpCounts{{"shared.store_bytes", 8}}));
  // ldmatrix: each lane's share, 4 bytes per matrix.
  EXPECT_EQ(count("ldmatrix_x4").Counts, (OpCounts{{"shared.load_bytes", 16}}));
  EXPECT_EQ(count("ldmatrix_x2").Counts, (OpCounts{{"shared.load_bytes", 8}}));
  EXPECT_FALSE(hasAsm("ldmatrix_x4"));
}

TEST_F(CacheHintAsmTest, AsyncCopies) {
  // cp.async: a global load and a shared store of its bytes.
  EXPECT_EQ(count("cp_async_16").Counts,
            (OpCounts{{"global.loads", 1},
                      {"global.load_bytes", 16},
                      {"shared.store_bytes", 16}}));
  EXPECT_EQ(count("cp_async_8").Counts, (OpCounts{{"global.loads", 1},
                                                  {"global.load_bytes", 8},
                                                  {"shared.store_bytes", 8}}));
  EXPECT_EQ(count("cp_async_intrinsic").Counts,
            (OpCounts{{"global.loads", 1},
                      {"global.load_bytes", 4},
                      {"shared.store_bytes", 4}}));
  // The source pointer is the asm's operand, so its coalescing is analyzed.
  llvm::LoadInst *L = only<llvm::LoadInst>("cp_async_16");
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->getPointerOperand(), Mod->getFunction("cp_async_16")->getArg(1));
  // Zero fill with a run-time source size: 16 bytes stored to shared
  // memory (data or zeros), the 16-byte load only where the size is not 0.
  EXPECT_EQ(count("cp_async_zfill").Counts,
            (OpCounts{{"global.loads", 1},
                      {"global.load_bytes", 16},
                      {"shared.store_bytes", 16}}));
  llvm::LoadInst *Guarded = only<llvm::LoadInst>("cp_async_zfill");
  ASSERT_NE(Guarded, nullptr);
  llvm::BasicBlock &Entry = Mod->getFunction("cp_async_zfill")->getEntryBlock();
  EXPECT_NE(Guarded->getParent(), &Entry);
  auto *Br = llvm::dyn_cast<llvm::BranchInst>(Entry.getTerminator());
  ASSERT_NE(Br, nullptr);
  EXPECT_TRUE(Br->isConditional());
  // A source size of 0 reads nothing; its cache policy moves nothing.
  EXPECT_EQ(count("cp_async_zfill0").Counts,
            (OpCounts{{"shared.store_bytes", 16}}));
  // A partial source size and a size PTX does not have stay unknown.
  for (const char *Fn : {"cp_async_zfill_part", "cp_async_12"}) {
    EXPECT_TRUE(hasAsm(Fn)) << Fn;
    EXPECT_FALSE(count(Fn).Ok) << Fn;
  }
}

TEST_F(CacheHintAsmTest, BulkCopies) {
  // cp.async.bulk: the issuing thread's copy of the whole size, a global
  // read and a shared write (or the reverse), counted as the 16-byte
  // accesses a copy loop would make: 4096 B = 256 loads.
  EXPECT_EQ(count("bulk_to_shared").Counts,
            (OpCounts{{"global.loads", 256},
                      {"global.load_bytes", 4096},
                      {"shared.store_bytes", 4096}}));
  EXPECT_EQ(count("bulk_to_global").Counts,
            (OpCounts{{"global.stores", 32},
                      {"global.store_bytes", 512},
                      {"shared.load_bytes", 512}}));
  // The asm stays as the one instruction the machine code issues, marked,
  // touching no memory the analysis sees: the memcpy, marked too, carries
  // the bytes (PtxCodegen drops it and keeps the asm).
  unsigned Asms = 0, Copies = 0;
  for (llvm::Instruction &I :
       llvm::instructions(*Mod->getFunction("bulk_to_shared"))) {
    auto *CB = llvm::dyn_cast<llvm::CallBase>(&I);
    if (!CB || !I.getMetadata(BulkCopyMD))
      continue;
    if (CB->isInlineAsm()) {
      ++Asms;
      EXPECT_TRUE(CB->onlyAccessesInaccessibleMemory());
    } else {
      Copies += llvm::isa<llvm::MemCpyInst>(I);
    }
  }
  EXPECT_EQ(Asms, 1u);
  EXPECT_EQ(Copies, 1u);
  // A size that is not a constant, or not a multiple of 16, stays unknown,
  // and the reason says why.
  for (const char *Fn : {"bulk_any", "bulk_odd"}) {
    EXPECT_TRUE(hasAsm(Fn)) << Fn;
    EXPECT_FALSE(count(Fn).Ok) << Fn;
  }
  std::string Why = whyUnknown("bulk_any");
  EXPECT_NE(Why.find("size is not a compile-time constant"), std::string::npos)
      << Why;
}

TEST_F(CacheHintAsmTest, ConstantAndLocalSpaces) {
  auto *Load = only<llvm::LoadInst>("ld_const");
  ASSERT_NE(Load, nullptr);
  EXPECT_EQ(Load->getPointerAddressSpace(), 4u);
  EXPECT_TRUE(Load->getType()->isFloatTy());
  auto *Store = only<llvm::StoreInst>("st_local_v2");
  ASSERT_NE(Store, nullptr);
  EXPECT_EQ(Store->getPointerAddressSpace(), 5u);
  EXPECT_EQ(Mod->getDataLayout().getTypeStoreSize(
                Store->getValueOperand()->getType()),
            8u);
  for (const char *Fn : {"ld_const", "st_local_v2"}) {
    Counted C = count(Fn);
    EXPECT_TRUE(C.Ok) << Fn;
    EXPECT_TRUE(C.Counts.empty()) << Fn;
  }
  EXPECT_TRUE(hasAsm("st_const"));
  EXPECT_FALSE(count("st_const").Ok);
}

TEST_F(CacheHintAsmTest, TensorMemoryAlloc) {
  // One 4-byte shared store, in lane 0 only.
  EXPECT_FALSE(hasAsm("tmem_alloc"));
  auto *Store = only<llvm::StoreInst>("tmem_alloc");
  ASSERT_NE(Store, nullptr);
  EXPECT_EQ(Store->getPointerAddressSpace(), 3u);
  EXPECT_TRUE(Store->getValueOperand()->getType()->isIntegerTy(32));
  auto *Guard = llvm::dyn_cast<llvm::BranchInst>(
      Store->getParent()->getSinglePredecessor()->getTerminator());
  ASSERT_NE(Guard, nullptr);
  auto *Cmp = llvm::dyn_cast<llvm::ICmpInst>(Guard->getCondition());
  ASSERT_NE(Cmp, nullptr);
  auto *Lane = llvm::dyn_cast<llvm::IntrinsicInst>(Cmp->getOperand(0));
  ASSERT_NE(Lane, nullptr);
  EXPECT_EQ(Lane->getIntrinsicID(), llvm::Intrinsic::nvvm_read_ptx_sreg_laneid);
  EXPECT_EQ(count("tmem_alloc").Counts, (OpCounts{{"shared.store_bytes", 4}}));
}

TEST_F(CacheHintAsmTest, TensorCopies) {
  // One row of the box per copy: 128 B, as 8 accesses of 16 B.
  EXPECT_EQ(count("tma_2d").Counts, (OpCounts{{"global.loads", 8},
                                              {"global.load_bytes", 128},
                                              {"shared.store_bytes", 128}}));
  EXPECT_EQ(count("tma_1d_store").Counts,
            (OpCounts{{"global.stores", 8},
                      {"global.store_bytes", 128},
                      {"shared.load_bytes", 128}}));
  // The 2-D box's 4 rows are a loop of 4 copies; a 1-D box is one row.
  auto loopBound = [&](const char *Fn) -> int64_t {
    for (llvm::Instruction &I : llvm::instructions(*Mod->getFunction(Fn)))
      if (auto *Cmp = llvm::dyn_cast<llvm::ICmpInst>(&I))
        if (auto *K = llvm::dyn_cast<llvm::ConstantInt>(Cmp->getOperand(1)))
          return K->getSExtValue();
    return 0;
  };
  EXPECT_EQ(loopBound("tma_2d"), 4);
  EXPECT_EQ(loopBound("tma_1d_store"), 0);
  // The global side is addressed from the map parameter, as a buffer of
  // its own (so that boxes at the same coordinates are the same bytes).
  auto *Copy = only<llvm::MemCpyInst>("tma_2d");
  ASSERT_NE(Copy, nullptr);
  EXPECT_EQ(llvm::getUnderlyingObject(Copy->getSource()),
            Mod->getFunction("tma_2d")->getArg(0));
  EXPECT_EQ(Copy->getSource()->getType()->getPointerAddressSpace(), 1u);
  // No launch gives tma_unseen's map: it stays unknown, and says so.
  EXPECT_TRUE(hasAsm("tma_unseen"));
  std::string Why = whyUnknown("tma_unseen");
  EXPECT_NE(Why.find("no launch in this file passes 'map' a map built by "
                     "cuTensorMapEncodeTiled"),
            std::string::npos)
      << Why;
}

TEST_F(CacheHintAsmTest, RefusalLeavesNoTrace) {
  // The 64-bit load into a float register is refused after its load was
  // built: nothing of it may remain.
  EXPECT_EQ(Mod->getFunction("width")->getEntryBlock().size(), 2u);
  EXPECT_EQ(Mod->getFunction("policy")->getEntryBlock().size(), 2u);
}

} // namespace
