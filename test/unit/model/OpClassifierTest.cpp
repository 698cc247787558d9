//===- OpClassifierTest.cpp - What one IR instruction counts as -----------===//
//
// Part of cuda-roofline.
//
// classifyInstruction on hand-written NVPTX IR, one instruction at a time.
// The conventions (docs/counting.md): add/sub/mul = 1 FLOP per lane, fma = 2,
// division = 1 FLOP plus one division, math library calls = one special
// function (0 FLOPs), min/max/abs/compare = nothing; loads and stores count
// per instruction and by width in the space they address; atomics count
// apart; a warp-wide MMA of shape m x n x k is 2*m*n*k FLOPs per warp, i.e.
// 2*m*n*k/32 per thread.
//
// The IR is in the form clang -O3 emits for CUDA (kernel pointers generic,
// __shared__ arrays reached through an addrspacecast of an addrspace(3)
// global, half2 arithmetic as inline PTX), reduced to the instructions
// under test.
//
//===----------------------------------------------------------------------===//

#include "OpClassifier.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "ParseIR.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace roofline;

namespace {

constexpr const char *ClassifierIR = R"IR(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.S = type { float, float, float, float }

@sh = internal addrspace(3) global [256 x float] undef, align 4
@cst = internal addrspace(4) constant float 1.000000e+00, align 4

; Scalar and packed arithmetic.
define ptx_kernel void @arith(float %a, float %b, double %c, double %d,
                              <2 x half> %h, <2 x half> %g,
                              <2 x bfloat> %bh, <2 x float> %v2, i32 %n) {
entry:
  %fadd = fadd contract float %a, %b
  %fsub = fsub float %a, %b
  %fmul = fmul contract float %a, %b
  %fma = call float @llvm.fma.f32(float %a, float %b, float %a)
  %fmuladd = call float @llvm.fmuladd.f32(float %a, float %b, float %a)
  %fdiv = fdiv float %a, %b
  %hadd = fadd <2 x half> %h, %g
  %hfma = call <2 x half> @llvm.fma.v2f16(<2 x half> %h, <2 x half> %g, <2 x half> %h)
  %bmul = fmul <2 x bfloat> %bh, %bh
  %vdiv = fdiv <2 x float> %v2, %v2
  %dadd = fadd double %c, %d
  %dmul = fmul double %c, %d
  %dfma = call double @llvm.fma.f64(double %c, double %d, double %c)
  %ddiv = fdiv double %c, %d
  %fneg = fneg float %a
  %fcmp = fcmp olt float %a, %b
  %conv = fpext float %a to double
  %iadd = add i32 %n, 1
  %imul = mul i32 %n, %n
  %maxnum = call float @llvm.maxnum.f32(float %a, float %b)
  %sqrtl = call float @llvm.sqrt.f32(float %a)
  ret void
}

; libdevice entry points (libdevice is not linked: they stay calls).
define ptx_kernel void @math(float %a, float %b, double %c) {
entry:
  %expf = call float @__nv_expf(float %a)
  %tanhf = call float @__nv_tanhf(float %a)
  %sqrt = call double @__nv_sqrt(double %c)
  %fastexp = call float @__nv_fast_expf(float %a)
  %erff = call float @__nv_erff(float %a)
  %fmaxf = call float @__nv_fmaxf(float %a, float %b)
  %fabs = call double @__nv_fabs(double %c)
  %fmaf = call float @__nv_fmaf(float %a, float %b, float %a)
  %fmulrn = call float @__nv_fmul_rn(float %a, float %b)
  %fdivrn = call float @__nv_fdiv_rn(float %a, float %b)
  %isnanf = call i32 @__nv_isnanf(float %a)
  %isinfd = call i32 @__nv_isinfd(double %c)
  %fmafrn = call float @__nv_fmaf_rn(float %a, float %b, float %a)
  %fastdiv = call float @__nv_fast_fdividef(float %a, float %b)
  %fsqrtrn = call float @__nv_fsqrt_rn(float %a)
  ret void
}

; Loads and stores by space and width. %x is a kernel pointer (global), @sh
; is __shared__, %s is a struct passed by value (parameter space), %loc a
; local array, @cst __constant__.
define ptx_kernel void @mem(ptr %x, ptr addrspace(1) %gx, ptr byval(%struct.S) align 4 %s, i64 %i, float %a) {
entry:
  %loc = alloca [4 x float], align 4
  %px = getelementptr inbounds float, ptr %x, i64 %i
  %ldf = load float, ptr %px, align 4
  %ldv4 = load <4 x float>, ptr %px, align 16
  %ldh = load half, ptr %px, align 2
  %ldd = load double, ptr %x, align 8
  %ldg1 = load float, ptr addrspace(1) %gx, align 4
  %psh = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @sh to ptr), i64 0, i64 %i
  %ldsh = load float, ptr %psh, align 4
  %ldsh3 = load <2 x float>, ptr addrspace(3) @sh, align 8
  %ps = getelementptr inbounds i8, ptr %s, i64 8
  %ldparam = load float, ptr %ps, align 4
  %ploc = getelementptr inbounds [4 x float], ptr %loc, i64 0, i64 %i
  %ldloc = load float, ptr %ploc, align 4
  %ldcst4 = load float, ptr addrspace(4) @cst, align 4
  %ldcst = load float, ptr addrspacecast (ptr addrspace(4) @cst to ptr), align 4
  store float %a, ptr %px, align 4
  store <4 x float> %ldv4, ptr %px, align 16
  store float %a, ptr %psh, align 4
  store double %ldd, ptr addrspace(3) @sh, align 8
  store float %a, ptr %ploc, align 4
  %rmw = atomicrmw fadd ptr %px, float %a seq_cst, align 4
  %rmwd = atomicrmw add ptr %x, i64 1 monotonic, align 8
  %cx = cmpxchg ptr %x, i32 0, i32 1 seq_cst seq_cst, align 4
  %rmwsh = atomicrmw add ptr %psh, i32 1 monotonic, align 4
  ret void
}

; A struct copy from __shared__ to global memory (clang keeps aggregate
; copies of 24 bytes as memcpy).
define ptx_kernel void @copy(ptr %out, i64 %i) {
entry:
  %psh = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @sh to ptr), i64 0, i64 %i
  %po = getelementptr inbounds float, ptr %out, i64 %i
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %po, ptr align 4 %psh, i64 24, i1 false)
  ret void
}

; wmma::load_matrix_sync / mma_sync / store_matrix_sync with bf16 inputs
; and a float accumulator, as clang emits them; plus other shapes.
define ptx_kernel void @wmma(ptr %a, ptr %b, ptr %c, i64 %i, float %z,
                             <2 x half> %h, i32 %u) {
entry:
  %fa = call { i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.bf16.p0(ptr %a, i32 64)
  %fb = call { i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.bf16.p0(ptr %b, i32 64)
  %psh = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @sh to ptr), i64 0, i64 %i
  %fash = call { i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.bf16.p0(ptr %psh, i32 16)
  %fa32 = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m32n8k16.load.a.row.stride.f16.p0(ptr %a, i32 16)
  %fb1 = call i32 @llvm.nvvm.wmma.m8n8k128.load.a.row.stride.b1.p0(ptr %a, i32 128)
  %fanostride = call { i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.a.row.bf16.p0(ptr %a)
  %mma = call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.bf16(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z, float %z, float %z, float %z, float %z)
  %mmah = call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32(<2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, float %z, float %z, float %z, float %z, float %z, float %z, float %z, float %z)
  %mmat = call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k8.mma.row.col.tf32(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z, float %z, float %z, float %z, float %z)
  %mmasync = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z)
  %mmah16 = call { <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f16.f16(<2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h)
  %mmasynch = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, float %z, float %z, float %z, float %z)
  %mmafp8 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z)
  call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr %c, float %z, float %z, float %z, float %z, float %z, float %z, float %z, float %z, i32 64)
  ret void
}

; Inline PTX, as cuda_fp16.hpp / hand-written mma.sync code emit it.
define ptx_kernel void @asm(i32 %u, i32 %v, i32 %w, float %z, ptr %p) {
entry:
  %hadd2 = call i32 asm "add.f16x2 $0, $1, $2;", "=r,r,r"(i32 %u, i32 %v)
  %hfma2 = call i32 asm "fma.rn.f16x2 $0, $1, $2, $3;", "=r,r,r,r"(i32 %u, i32 %v, i32 %w)
  %block = call i32 asm "{ .reg .b32 t;\0A  mul.f16x2 t, $1, $2;\0A  fma.rn.f16x2 $0, t, $1, $2;\0A}", "=r,r,r"(i32 %u, i32 %v)
  %mma = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z)
  %ex2 = call float asm "ex2.approx.ftz.f32 $0, $1;", "=f,f"(float %z)
  %rcp = call float asm "rcp.approx.f32 $0, $1;", "=f,f"(float %z)
  %wgmma = call { float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $6, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, $4, $5, p, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,l,l,r"(i64 0, i64 0, i32 %u)
  %mma_f16acc = call { i32, i32 } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0,$1}, {$2,$3,$4,$5}, {$6,$7}, {$8,$9};", "=r,=r,r,r,r,r,r,r,r,r"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u)
  %mma_f32acc = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z)
  %mma_f32_c16 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11};", "=f,=f,=f,=f,r,r,r,r,r,r,r,r"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u)
  %mma_e4m3_f32 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z)
  %mma_sp = call { float, float, float, float } asm sideeffect "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9,$10,$11}, {$12,$13,$14,$15}, $16, 0x0;", "=f,=f,=f,=f,r,r,r,r,r,r,r,r,f,f,f,f,r"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z, i32 %u)
  %mma_sp_om = call { float, float, float, float } asm sideeffect "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9,$10,$11}, {$12,$13,$14,$15}, $16, 0x0;", "=f,=f,=f,=f,r,r,r,r,r,r,r,r,f,f,f,f,r"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, float %z, float %z, float %z, float %z, i32 %u)
  %mma_s8 = call { i32, i32, i32, i32 } asm sideeffect "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {$0,$1,$2,$3}, {$4,$5}, {$6}, {$7,$8,$9,$10};", "=r,=r,=r,=r,r,r,r,r,r,r,r"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u)
  %mma_f64 = call { double, double } asm sideeffect "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {$0,$1}, {$2}, {$3}, {$4,$5};", "=d,=d,d,d,d,d"(double 1.0, double 1.0, double 1.0, double 1.0)
  %mma_e4m3_f16 = call { i32, i32 } asm sideeffect "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {$0,$1}, {$2,$3,$4,$5}, {$6,$7}, {$8,$9};", "=r,=r,r,r,r,r,r,r,r,r"(i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u, i32 %u)
  %wgmma_rs = call { float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$4, $5, $6, $7}, $8, 1, 1, 1, 1;", "=f,=f,=f,=f,r,r,r,r,l"(i32 %u, i32 %u, i32 %u, i32 %u, i64 0)
  %wgmma_f16 = call { float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $4, $5, 1, 1, 1, 0, 1;", "=f,=f,=f,=f,l,l"(i64 0, i64 0)
  %f32x2 = call i64 asm "add.rn.f32x2 $0, $1, $2;", "=l,l,l"(i64 0, i64 1)
  %iadd = call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 %u, i32 %v)
  %movonly = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 %u)
  %ld = call float asm "ld.global.f32 $0, [$1];", "=f,l"(ptr %p)
  call void asm sideeffect "wgmma.fence.sync.aligned;", "~{memory}"()
  call void asm sideeffect "wgmma.commit_group.sync.aligned;", "~{memory}"()
  call void asm sideeffect "wgmma.wait_group.sync.aligned 0;", "~{memory}"()
  %mixed = call i32 asm "add.f16x2 $0, $1, $2;\0A  ld.global.b32 $0, [$0];", "=r,r,r"(i32 %u, i32 %v)
  %st = call i32 asm "st.global.f32 [$1], $2;", "=r,l,f"(ptr %p, float %z)
  %atom = call float asm "atom.global.add.f32 $0, [$1], $2;", "=f,l,f"(ptr %p, float %z)
  %bra = call float asm "{ .reg .pred q;\0AL1:\0A add.f32 $0, $0, $0;\0A setp.lt.f32 q, $0, 0f42C80000;\0A @q bra.uni L1;\0A}", "=f,0"(float %z)
  %brkpt = call i32 asm "brkpt;", "=r"()
  %w64 = zext i32 %w to i64
  %redux = call i32 asm "redux.sync.add.s32 $0, $1, 0xffffffff;", "=r,r"(i32 %u)
  %vote = call i32 asm "vote.sync.ballot.b32 $0, 1, 0xffffffff;", "=r"()
  %cvt = call i16 asm "cvt.rn.bf16.f32 $0, $1;", "=h,f"(float %z)
  %dp4a = call i32 asm "dp4a.s32.s32 $0, $1, $1, $1;", "=r,r"(i32 %u)
  %policy = call i64 asm "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"()
  %shfl = call i32 asm "shfl.sync.bfly.b32 $0, $1, 1, 0x1f, 0xffffffff;", "=r,r"(i32 %u)
  %tanh = call float asm "tanh.approx.f32 $0, $1;", "=f,f"(float %z)
  %fma2 = call i64 asm "fma.rn.f32x2 $0, $1, $1, $1;", "=l,l"(i64 %w64)
  %tc = call i32 asm "tcgen05.mma.cta.kind::f16 [$1], $2, $2, $1, 1;", "=r,r,l"(i32 %u, i64 %w64)
  call void asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $4, 0;\0Atcgen05.mma.cta_group::1.kind::f16 [$0], $1, $2, $3, p;\0A}", "r,l,l,r,r,~{memory}"(i32 %u, i64 0, i64 0, i32 138413200, i32 1)
  call void asm sideeffect "{\0A.reg .pred P;\0Asetp.ne.b32 P, $8, 0;\0Atcgen05.mma.cta_group::2.kind::f8f6f4 [$0], [$1], $2, $3, {$4, $5, $6, $7}, P;\0A}", "r,r,l,r,r,r,r,r,r,~{memory}"(i32 %u, i32 %u, i64 0, i32 270532624, i32 0, i32 0, i32 0, i32 0, i32 1)
  call void asm sideeffect "tcgen05.mma.cta_group::1.kind::f16 [$0], $1, $2, $3, 1;", "r,l,l,r,~{memory}"(i32 %u, i64 0, i64 0, i32 %v)
  call void asm sideeffect "tcgen05.fence::after_thread_sync;", "~{memory}"()
  call void asm sideeffect "tcgen05.wait::ld.sync.aligned;", "~{memory}"()
  %tld = call { i32, i32 } asm sideeffect "tcgen05.ld.sync.aligned.32x32b.x2.b32 {$0, $1}, [$2];", "=r,=r,r"(i32 %u)
  %brkpt_mem = call i32 asm sideeffect "brkpt;", "=r,~{memory}"()
  %brkpt_addr = call i32 asm "prefetchu.L1 [$1]; brkpt [$1];", "=r,l"(ptr %p)
  %pred_add = call float asm "{ .reg .f32 r0; .reg .pred p;\0A shfl.sync.down.b32 r0|p, $1, 1, 31, -1;\0A @p add.f32 r0, r0, $1; mov.f32 $0, r0; }", "=f,f"(float %z)
  %pred_mov = call float asm "{ .reg .pred p; setp.ne.f32 p, $1, 0f00000000; @p mov.f32 $0, $1; }", "=f,f"(float %z)
  %pred_st = call i32 asm "{ .reg .pred p; setp.ne.f32 p, $2, 0f00000000; @p st.global.f32 [$1], $2; }", "=r,l,f"(ptr %p, float %z)
  ret void
}

; Calls that were not inlined, by what the callee may touch.
define ptx_kernel void @calls(float %a, ptr %p, ptr %fp) {
entry:
  %ro = call float @ext_readonly(float %a)
  %none = call float @ext_none(float %a)
  %any = call float @ext_any(ptr %p)
  %ind = call float %fp(float %a)
  %pf = call i32 @vprintf(ptr %p, ptr null)
  ret void
}

declare float @llvm.fma.f32(float, float, float)
declare float @llvm.fmuladd.f32(float, float, float)
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.sqrt.f32(float)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1 immarg)
declare float @__nv_expf(float)
declare float @__nv_tanhf(float)
declare double @__nv_sqrt(double)
declare float @__nv_fast_expf(float)
declare float @__nv_erff(float)
declare float @__nv_fmaxf(float, float)
declare double @__nv_fabs(double)
declare float @__nv_fmaf(float, float, float)
declare float @__nv_fmul_rn(float, float)
declare float @__nv_fdiv_rn(float, float)
declare i32 @__nv_isnanf(float)
declare i32 @__nv_isinfd(double)
declare float @__nv_fmaf_rn(float, float, float)
declare float @__nv_fast_fdividef(float, float)
declare float @__nv_fsqrt_rn(float)
declare { i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.bf16.p0(ptr, i32)
declare { i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.bf16.p0(ptr, i32)
declare { i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.a.row.bf16.p0(ptr)
declare i32 @llvm.nvvm.wmma.m8n8k128.load.a.row.stride.b1.p0(ptr, i32)
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m32n8k16.load.a.row.stride.f16.p0(ptr, i32)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.bf16(i32, i32, i32, i32, i32, i32, i32, i32, float, float, float, float, float, float, float, float)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float, float, float, float, float)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k8.mma.row.col.tf32(i32, i32, i32, i32, i32, i32, i32, i32, float, float, float, float, float, float, float, float)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, float, float, float, float)
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f16.f16(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32(i32, i32, i32, i32, i32, i32, float, float, float, float)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr, float, float, float, float, float, float, float, float, i32)
declare float @ext_readonly(float) readonly
declare float @ext_none(float) memory(none)
declare float @ext_any(ptr)
declare i32 @vprintf(ptr, ptr)
)IR";

/// What classifyInstruction reported for one instruction.
/// The algorithmic counts apart from the executed FLOPs
/// ("flops_executed.*", ExecutedMathTest.cpp and the tests at the end).
struct Classified {
  bool Ok = false;
  OpCounts Counts, Executed;
  std::string Why;
  unsigned Affects = 0;
};

/// Moves the "flops_executed.*" counters of C.Counts to C.Executed; an
/// unknown that touches only them leaves the algorithmic counts Ok.
void splitExecuted(Classified &C) {
  for (auto It = C.Counts.begin(); It != C.Counts.end();)
    if (It->first.rfind("flops_executed.", 0) == 0) {
      C.Executed.insert(*It);
      It = C.Counts.erase(It);
    } else {
      ++It;
    }
  if (!C.Ok && C.Affects == AffectsExecuted)
    C.Ok = true;
}

class OpClassifierTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Msg;
    Mod = parseFixture(ClassifierIR, "ClassifierIR", Ctx, Msg);
    if (!Mod)
      FAIL() << Msg;
  }

  /// The instruction named Name in function Fn.
  const llvm::Instruction &inst(const std::string &Fn,
                                const std::string &Name) {
    llvm::Function *F = Mod->getFunction(Fn);
    if (F)
      for (const llvm::Instruction &I : llvm::instructions(*F))
        if (I.getName() == Name)
          return I;
    ADD_FAILURE() << "no instruction %" << Name << " in @" << Fn;
    return *Mod->getFunction("arith")->getEntryBlock().getTerminator();
  }

  /// The N-th (0-based) store of function Fn.
  const llvm::Instruction &store(const std::string &Fn, unsigned N) {
    llvm::Function *F = Mod->getFunction(Fn);
    unsigned Seen = 0;
    if (F)
      for (const llvm::Instruction &I : llvm::instructions(*F))
        if (llvm::isa<llvm::StoreInst>(I) && Seen++ == N)
          return I;
    ADD_FAILURE() << "no store #" << N << " in @" << Fn;
    return *Mod->getFunction("arith")->getEntryBlock().getTerminator();
  }

  /// The first call of function Fn whose callee is Callee.
  const llvm::Instruction &callTo(const std::string &Fn,
                                  const std::string &Callee) {
    llvm::Function *F = Mod->getFunction(Fn);
    if (F)
      for (const llvm::Instruction &I : llvm::instructions(*F))
        if (auto *CB = llvm::dyn_cast<llvm::CallBase>(&I))
          if (CB->getCalledFunction() &&
              CB->getCalledFunction()->getName() == Callee)
            return I;
    ADD_FAILURE() << "no call to @" << Callee << " in @" << Fn;
    return *Mod->getFunction("arith")->getEntryBlock().getTerminator();
  }

  Classified classify(const llvm::Instruction &I) {
    Classified C;
    C.Ok = classifyInstruction(I, Mod->getDataLayout(), C.Counts, C.Why,
                               C.Affects);
    splitExecuted(C);
    return C;
  }

  Classified classify(const std::string &Fn, const std::string &Name) {
    return classify(inst(Fn, Name));
  }

  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> Mod;
};

constexpr unsigned AllCounters =
    AffectsCompute | AffectsShuffles | AffectsLoads | AffectsStores;

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

TEST_F(OpClassifierTest, ScalarFp32) {
  // fadd, fsub, fmul: 1 fp32 FLOP each, nothing else.
  for (const char *N : {"fadd", "fsub", "fmul"}) {
    Classified C = classify("arith", N);
    EXPECT_TRUE(C.Ok) << N;
    EXPECT_EQ(C.Counts, (OpCounts{{"flops.fp32", 1}})) << N;
  }
  // llvm.fma / llvm.fmuladd: one multiply and one add fused = 2 FLOPs.
  EXPECT_EQ(classify("arith", "fma").Counts, (OpCounts{{"flops.fp32", 2}}));
  EXPECT_EQ(classify("arith", "fmuladd").Counts, (OpCounts{{"flops.fp32", 2}}));
  // fdiv: 1 FLOP, and 1 division of its precision.
  EXPECT_EQ(classify("arith", "fdiv").Counts,
            (OpCounts{{"flops.fp32", 1}, {"div.fp32", 1}}));
}

TEST_F(OpClassifierTest, PackedAndDouble) {
  // <2 x half> fadd: one add per lane, 2 lanes -> 2 fp16 FLOPs.
  EXPECT_EQ(classify("arith", "hadd").Counts, (OpCounts{{"flops.fp16", 2}}));
  // llvm.fma.v2f16: 2 FLOPs x 2 lanes = 4.
  EXPECT_EQ(classify("arith", "hfma").Counts, (OpCounts{{"flops.fp16", 4}}));
  // <2 x bfloat> fmul: 2 bf16 FLOPs.
  EXPECT_EQ(classify("arith", "bmul").Counts, (OpCounts{{"flops.bf16", 2}}));
  // <2 x float> fdiv: 2 lanes -> 2 FLOPs and 2 divisions.
  EXPECT_EQ(classify("arith", "vdiv").Counts,
            (OpCounts{{"flops.fp32", 2}, {"div.fp32", 2}}));
  // double: the same rules, precision fp64.
  EXPECT_EQ(classify("arith", "dadd").Counts, (OpCounts{{"flops.fp64", 1}}));
  EXPECT_EQ(classify("arith", "dmul").Counts, (OpCounts{{"flops.fp64", 1}}));
  EXPECT_EQ(classify("arith", "dfma").Counts, (OpCounts{{"flops.fp64", 2}}));
  EXPECT_EQ(classify("arith", "ddiv").Counts,
            (OpCounts{{"flops.fp64", 1}, {"div.fp64", 1}}));
}

TEST_F(OpClassifierTest, NotFlops) {
  // Negation, comparison, conversion, integer index math and min/max are
  // free: counted, but add nothing.
  for (const char *N : {"fneg", "fcmp", "conv", "iadd", "imul", "maxnum"}) {
    Classified C = classify("arith", N);
    EXPECT_TRUE(C.Ok) << N;
    EXPECT_TRUE(C.Counts.empty()) << N;
  }
  // llvm.sqrt: a special function, 0 FLOPs.
  EXPECT_EQ(classify("arith", "sqrtl").Counts, (OpCounts{{"special.sqrt", 1}}));
}

TEST_F(OpClassifierTest, AmountsAccumulate) {
  // Out is added to, not overwritten: fadd (1) + fma (2) + fdiv (1 + 1 div)
  // into one map -> flops.fp32 = 4, div.fp32 = 1.
  Classified C;
  for (const char *N : {"fadd", "fma", "fdiv"})
    ASSERT_TRUE(classifyInstruction(inst("arith", N), Mod->getDataLayout(),
                                    C.Counts, C.Why, C.Affects));
  splitExecuted(C);
  EXPECT_EQ(C.Counts, (OpCounts{{"flops.fp32", 4}, {"div.fp32", 1}}));
  // Executed: 1 + 2 + 10 (an IEEE division, expansions.json).
  EXPECT_EQ(C.Executed, (OpCounts{{"flops_executed.fp32", 13}}));
}

//===----------------------------------------------------------------------===//
// Math library calls
//===----------------------------------------------------------------------===//

TEST_F(OpClassifierTest, LibdeviceSpecials) {
  // __nv_expf, __nv_tanhf (float: the trailing 'f' is dropped) and
  // __nv_sqrt (double): one special function each, no FLOPs.
  Classified E = classify("math", "expf");
  EXPECT_TRUE(E.Ok);
  EXPECT_EQ(E.Counts, (OpCounts{{"special.exp", 1}}));
  EXPECT_EQ(classify("math", "tanhf").Counts, (OpCounts{{"special.tanh", 1}}));
  EXPECT_EQ(classify("math", "sqrt").Counts, (OpCounts{{"special.sqrt", 1}}));
  // __nv_fast_expf (__expf): the fast_ prefix collapses into the same kind.
  EXPECT_EQ(classify("math", "fastexp").Counts, (OpCounts{{"special.exp", 1}}));
  // __nv_erff: "erff" -> "erf" (only one 'f' dropped).
  EXPECT_EQ(classify("math", "erff").Counts, (OpCounts{{"special.erf", 1}}));
}

TEST_F(OpClassifierTest, LibdeviceArithmetic) {
  // __nv_fmaxf and __nv_fabs are not FLOPs: nothing.
  for (const char *N : {"fmaxf", "fabs"}) {
    Classified C = classify("math", N);
    EXPECT_TRUE(C.Ok) << N;
    EXPECT_TRUE(C.Counts.empty()) << N;
  }
  // __nv_fmaf = 2 FLOPs; __nv_fmul_rn = 1; __nv_fdiv_rn = 1 + a division.
  EXPECT_EQ(classify("math", "fmaf").Counts, (OpCounts{{"flops.fp32", 2}}));
  EXPECT_EQ(classify("math", "fmulrn").Counts, (OpCounts{{"flops.fp32", 1}}));
  EXPECT_EQ(classify("math", "fdivrn").Counts,
            (OpCounts{{"flops.fp32", 1}, {"div.fp32", 1}}));
}

// BUG: the float predicates of libdevice return i32, so the classifier does
// not strip their trailing 'f' ("isnanf" stays "isnanf"), and neither
// "isnanf" nor "isinfd" matches the list of free names ("isnan", "isinf"):
// both become special functions. Input: `call i32 @__nv_isnanf(float)` and
// `call i32 @__nv_isinfd(double)` (what isnan(float)/isinf(double) compile
// to in clang's CUDA headers). Expected: no counters (a test is not a FLOP,
// docs/counting.md: "compare ... 0"). Actual: {special.isnanf: 1} and
// {special.isinfd: 1}; end to end, `isnan(x[i])` reports "special isnanf 1".
TEST_F(OpClassifierTest, LibdevicePredicatesAreFree) {
  for (const char *N : {"isnanf", "isinfd"}) {
    Classified C = classify("math", N);
    EXPECT_TRUE(C.Ok) << N;
    EXPECT_TRUE(C.Counts.empty()) << N;
  }
}

// BUG: __fmaf_rn (and _rz/_ru/_rd) call __nv_fmaf_rn. The name does not end
// in 'f', so it stays "fmaf_rn", which matches neither "fma", "fmaf" nor the
// prefix "fma_" and falls through to the special functions. Input:
// `call float @__nv_fmaf_rn(float, float, float)`. Expected: 2 fp32 FLOPs
// (a fused multiply-add). Actual: {special.fmaf_rn: 1}, 0 FLOPs.
TEST_F(OpClassifierTest, LibdeviceRoundedFma) {
  EXPECT_EQ(classify("math", "fmafrn").Counts, (OpCounts{{"flops.fp32", 2}}));
}

// BUG: __fdividef(a, b) calls __nv_fast_fdividef. Its base "fast_fdividef"
// loses the 'f' ("fast_fdivide"), which is neither "fdividef" nor
// "fast_fdividef" nor prefixed "fdiv", so it becomes a special function
// after dropping "fast_". Input: `call float @__nv_fast_fdividef(float,
// float)`. Expected (docs/counting.md lists __fdividef as a division): 1
// FLOP + 1 div.fp32. Actual: {special.fdivide: 1}, 0 FLOPs.
TEST_F(OpClassifierTest, LibdeviceFastDivide) {
  EXPECT_EQ(classify("math", "fastdiv").Counts,
            (OpCounts{{"flops.fp32", 1}, {"div.fp32", 1}}));
}

// BUG (naming): __fsqrt_rn calls __nv_fsqrt_rn, reported under its raw
// name. Input: `call float @__nv_fsqrt_rn(float)`. Expected: the same kind
// as sqrtf / llvm.sqrt, {special.sqrt: 1}. Actual: {special.fsqrt_rn: 1}
// (so a kernel mixing sqrtf and __fsqrt_rn shows two different kinds).
TEST_F(OpClassifierTest, LibdeviceRoundedSqrtKind) {
  EXPECT_EQ(classify("math", "fsqrtrn").Counts,
            (OpCounts{{"special.sqrt", 1}}));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

TEST_F(OpClassifierTest, GlobalLoadsByWidth) {
  // Loads through the kernel pointer %x (generic, derived from an argument):
  // global; one instruction each, bytes = store size of the type.
  struct {
    const char *Name;
    int64_t Bytes;
  } Cases[] = {{"ldf", 4},   // float
               {"ldv4", 16}, // float4: 4 x 4
               {"ldh", 2},   // half
               {"ldd", 8},   // double
               {"ldg1", 4}}; // explicit addrspace(1) pointer
  for (auto &Case : Cases) {
    Classified C = classify("mem", Case.Name);
    EXPECT_TRUE(C.Ok) << Case.Name;
    EXPECT_EQ(C.Counts, (OpCounts{{"global.loads", 1},
                                  {"global.load_bytes", Case.Bytes}}))
        << Case.Name;
    EXPECT_EQ(memorySpaceOf(inst("mem", Case.Name)), MemSpace::Global)
        << Case.Name;
  }
}

TEST_F(OpClassifierTest, SharedAndUncountedLoads) {
  // @sh lives in addrspace(3): through the generic addrspacecast pointer
  // and directly, a shared load of 4 and 8 bytes (no instruction count).
  EXPECT_EQ(memorySpaceOf(inst("mem", "ldsh")), MemSpace::Shared);
  EXPECT_EQ(classify("mem", "ldsh").Counts,
            (OpCounts{{"shared.load_bytes", 4}}));
  EXPECT_EQ(classify("mem", "ldsh3").Counts,
            (OpCounts{{"shared.load_bytes", 8}}));
  // A field of a byval struct parameter: parameter space, not counted.
  EXPECT_EQ(memorySpaceOf(inst("mem", "ldparam")), MemSpace::Constant);
  // A local array (alloca): local, not counted. An addrspace(4) pointer
  // (__constant__): constant, not counted.
  EXPECT_EQ(memorySpaceOf(inst("mem", "ldloc")), MemSpace::Local);
  EXPECT_EQ(memorySpaceOf(inst("mem", "ldcst4")), MemSpace::Constant);
  for (const char *N : {"ldparam", "ldloc", "ldcst4"}) {
    Classified C = classify("mem", N);
    EXPECT_TRUE(C.Ok) << N;
    EXPECT_TRUE(C.Counts.empty()) << N;
  }
  // Not a memory access at all.
  EXPECT_EQ(memorySpaceOf(inst("arith", "fadd")), MemSpace::None);
}

// BUG: a generic pointer whose underlying object is an addrspace(4)
// (__constant__) global is classified as global memory; only an explicit
// addrspace(4) pointer type is recognized as constant. Input: `load float,
// ptr addrspacecast (ptr addrspace(4) @cst to ptr)` -- exactly what clang
// -O3 emits for `coef[threadIdx.x & 15]` with `__constant__ float
// coef[16]`. Expected: MemSpace::Constant and no counters, like the direct
// addrspace(4) load above. Actual: MemSpace::Global, {global.loads: 1,
// global.load_bytes: 4}; end to end `y[i] = x[i] * coef[t & 15]` reports 2
// global loads (8 B) per thread instead of 1 (4 B) and marks
// dram_bytes.lower partial because the constant read has no kernel-pointer
// base.
TEST_F(OpClassifierTest, ConstantThroughGenericPointer) {
  EXPECT_EQ(memorySpaceOf(inst("mem", "ldcst")), MemSpace::Constant);
  Classified C = classify("mem", "ldcst");
  EXPECT_TRUE(C.Ok);
  EXPECT_TRUE(C.Counts.empty());
}

TEST_F(OpClassifierTest, StoresBySpace) {
  // Store #0: float to x[i] -> 1 global store of 4 bytes.
  EXPECT_EQ(classify(store("mem", 0)).Counts,
            (OpCounts{{"global.stores", 1}, {"global.store_bytes", 4}}));
  // #1: <4 x float> -> 16 bytes.
  EXPECT_EQ(classify(store("mem", 1)).Counts,
            (OpCounts{{"global.stores", 1}, {"global.store_bytes", 16}}));
  // #2: float to sh[i] (generic) -> 4 shared bytes; #3: double straight to
  // addrspace(3) -> 8 shared bytes.
  EXPECT_EQ(classify(store("mem", 2)).Counts,
            (OpCounts{{"shared.store_bytes", 4}}));
  EXPECT_EQ(classify(store("mem", 3)).Counts,
            (OpCounts{{"shared.store_bytes", 8}}));
  // #4: to the local array -> nothing.
  Classified Loc = classify(store("mem", 4));
  EXPECT_TRUE(Loc.Ok);
  EXPECT_TRUE(Loc.Counts.empty());
}

TEST_F(OpClassifierTest, Atomics) {
  // atomicrmw fadd float: 1 atomic of 4 bytes, not a load or a store.
  Classified F = classify("mem", "rmw");
  EXPECT_TRUE(F.Ok);
  EXPECT_EQ(F.Counts, (OpCounts{{"atomics", 1}, {"atomic_bytes", 4}}));
  // i64 atomicrmw add: 8 bytes. cmpxchg i32: 4 bytes (the new value).
  EXPECT_EQ(classify("mem", "rmwd").Counts,
            (OpCounts{{"atomics", 1}, {"atomic_bytes", 8}}));
  EXPECT_EQ(classify("mem", "cx").Counts,
            (OpCounts{{"atomics", 1}, {"atomic_bytes", 4}}));
  EXPECT_EQ(memorySpaceOf(inst("mem", "rmw")), MemSpace::Global);
  EXPECT_EQ(memorySpaceOf(inst("mem", "rmwsh")), MemSpace::Shared);
}

// BUG: atomics are counted without regard to their space, and atomic_bytes
// feeds dram_bytes.upper ("every requested global byte"). Input:
// `atomicrmw add ptr %psh, i32 1` with %psh into the addrspace(3) @sh (a
// shared-memory histogram's atomicAdd(&h[b], 1)). Expected: no
// atomic_bytes (no global byte is requested). Actual: {atomics: 1,
// atomic_bytes: 4}; end to end a 4x256 shared histogram (1 global load, 1
// global store per thread) reports dram upper 12 KiB = 4 KiB loads + 4 KiB
// stores + 4 KiB of shared atomics, instead of 8 KiB.
TEST_F(OpClassifierTest, SharedAtomicsAreNotGlobalBytes) {
  Classified C = classify("mem", "rmwsh");
  EXPECT_TRUE(C.Ok);
  EXPECT_EQ(C.Counts.count("atomic_bytes"), 0u);
}

// BUG: a memcpy is counted as global load and store bytes whatever spaces
// its operands address. Input: `llvm.memcpy(ptr %po /*global*/, ptr %psh
// /*@sh, addrspace(3)*/, i64 24)` (clang's form of `out[i] = sh[j]` for a
// 24-byte struct). Expected: {shared.load_bytes: 24, global.stores: 1,
// global.store_bytes: 24} (or at least the shared side not global).
// Actual: {global.load_bytes: 24, global.store_bytes: 24}. End to end, a
// kernel doing `sh[t] = in[i]; out[i] = sh[255 - t]` on a 24-byte struct
// reports 48 B of global loads and 48 B of global stores per thread (truth:
// 24 + 24), no shared traffic, 0 active threads and dram_bytes.lower = 0
// with lower_exact: true.
TEST_F(OpClassifierTest, MemcpyRespectsSpaces) {
  Classified C = classify(callTo("copy", "llvm.memcpy.p0.p0.i64"));
  EXPECT_TRUE(C.Ok);
  EXPECT_EQ(C.Counts.count("global.load_bytes"), 0u);
  EXPECT_EQ(C.Counts["shared.load_bytes"], 24);
  EXPECT_EQ(C.Counts["global.store_bytes"], 24);
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

TEST_F(OpClassifierTest, WmmaMma) {
  // wmma m16n16k16 bf16: 2*16*16*16 = 8192 FLOPs per warp, 8192/32 = 256 per
  // thread, by input precision; and one MMA.
  Classified B = classify("wmma", "mma");
  EXPECT_TRUE(B.Ok);
  EXPECT_EQ(B.Counts, (OpCounts{{"flops.tensor_bf16", 256}, {"mma", 1}}));
  // .f32.f32 names only the accumulators; the inputs are f16: 256 fp16,
  // accumulated in f32.
  EXPECT_EQ(classify("wmma", "mmah").Counts,
            (OpCounts{{"flops.tensor_fp16_fp32acc", 256}, {"mma", 1}}));
  // m16n16k8 tf32: 2*16*16*8 / 32 = 128.
  EXPECT_EQ(classify("wmma", "mmat").Counts,
            (OpCounts{{"flops.tensor_tf32", 128}, {"mma", 1}}));
  // llvm.nvvm.mma m16n8k16 bf16 (mma.sync): 2*16*8*16 / 32 = 128.
  EXPECT_EQ(classify("wmma", "mmasync").Counts,
            (OpCounts{{"flops.tensor_bf16", 128}, {"mma", 1}}));
}

TEST_F(OpClassifierTest, MmaAccumulateType) {
  // f16 inputs count under "fp16" with f16 accumulators and under
  // "fp16_fp32acc" with f32 ones (GeForce runs those at half rate).
  // wmma m16n16k16 .f16.f16: 8192 / 32 = 256 per thread.
  EXPECT_EQ(classify("wmma", "mmah16").Counts,
            (OpCounts{{"flops.tensor_fp16", 256}, {"mma", 1}}));
  // wmma .f32.f32 (as wmma_fp16 GEMMs with float accumulators emit it): 256.
  EXPECT_EQ(classify("wmma", "mmah").Counts,
            (OpCounts{{"flops.tensor_fp16_fp32acc", 256}, {"mma", 1}}));
  // llvm.nvvm.mma m16n8k16 .f32.f32: 2*16*8*16 / 32 = 128.
  EXPECT_EQ(classify("wmma", "mmasynch").Counts,
            (OpCounts{{"flops.tensor_fp16_fp32acc", 128}, {"mma", 1}}));
  // llvm.nvvm.mma m16n8k32 .f32.e4m3.e4m3.f32: fp8 inputs, f32
  // accumulators: 2*16*8*32 / 32 = 256.
  EXPECT_EQ(classify("wmma", "mmafp8").Counts,
            (OpCounts{{"flops.tensor_fp8_fp32acc", 256}, {"mma", 1}}));
  // Inline PTX mma.sync m16n8k16: D and C types around the f16 inputs; a
  // D or C in f32 is the f32-accumulate path. 4096 / 32 = 128.
  EXPECT_EQ(classify("asm", "mma_f16acc").Counts,
            (OpCounts{{"flops.tensor_fp16", 128}, {"mma", 1}}));
  EXPECT_EQ(classify("asm", "mma_f32acc").Counts,
            (OpCounts{{"flops.tensor_fp16_fp32acc", 128}, {"mma", 1}}));
  EXPECT_EQ(classify("asm", "mma_f32_c16").Counts,
            (OpCounts{{"flops.tensor_fp16_fp32acc", 128}, {"mma", 1}}));
  // mma.sync m16n8k32 with e4m3/e5m2 inputs: 2*16*8*32 / 32 = 256.
  EXPECT_EQ(classify("asm", "mma_e4m3_f32").Counts,
            (OpCounts{{"flops.tensor_fp8_fp32acc", 256}, {"mma", 1}}));
  EXPECT_EQ(classify("asm", "mma_e4m3_f16").Counts,
            (OpCounts{{"flops.tensor_fp8", 256}, {"mma", 1}}));
  // wgmma m64n8k16 .f32.f16.f16 on a warpgroup: 2*64*8*16 / 128 = 128;
  // its operands from shared memory, (64 + 8) x 16 x 2 B / 128 = 18 B.
  EXPECT_EQ(classify("asm", "wgmma_f16").Counts,
            (OpCounts{{"flops.tensor_fp16_fp32acc", 128},
                      {"mma", 1},
                      {"shared.load_bytes", 18}}));
  // bf16 (and tf32) always accumulate in f32: one key, unchanged.
  EXPECT_EQ(classify("asm", "mma").Counts,
            (OpCounts{{"flops.tensor_bf16", 128}, {"mma", 1}}));
}

TEST_F(OpClassifierTest, WmmaFragmentTraffic) {
  // load.a of m16n16k16: an M x K = 16 x 16 tile of 2-byte bf16 per warp,
  // 16*16*2 = 512 bytes, 512/32 = 16 per thread; one global load.
  Classified A = classify("wmma", "fa");
  EXPECT_TRUE(A.Ok);
  EXPECT_EQ(A.Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 16}}));
  // load.b: K x N = 16 x 16, also 16 bytes.
  EXPECT_EQ(classify("wmma", "fb").Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 16}}));
  // The same load.a from __shared__: 16 shared bytes, no global load.
  EXPECT_EQ(classify("wmma", "fash").Counts,
            (OpCounts{{"shared.load_bytes", 16}}));
  // m32n8k16 load.a f16: M x K = 32 x 16 x 2 bytes = 1024, /32 = 32.
  EXPECT_EQ(classify("wmma", "fa32").Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 32}}));
  // store.d f32 of m16n16k16: M x N = 16 x 16 x 4 bytes = 1024, /32 = 32.
  EXPECT_EQ(
      classify(callTo("wmma", "llvm.nvvm.wmma.m16n16k16.store.d.row.stride."
                              "f32.p0"))
          .Counts,
      (OpCounts{{"global.stores", 1}, {"global.store_bytes", 32}}));
}

TEST_F(OpClassifierTest, TensorUnknownType) {
  // b1 (single-bit) fragments have no element type the classifier knows:
  // refused with a reason naming the intrinsic; nothing counted.
  Classified C = classify("wmma", "fb1");
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.Why.find("llvm.nvvm.wmma.m8n8k128.load.a.row.stride.b1"),
            std::string::npos)
      << C.Why;
  EXPECT_TRUE(C.Counts.empty());
}

TEST_F(OpClassifierTest, FragmentAccess) {
  // load.a.row.stride.bf16: 16 x 16 (M x K), 2-byte elements, row-major,
  // pointer %a, stride the i32 64 argument.
  const llvm::Instruction &LA = inst("wmma", "fa");
  auto A = fragmentAccess(LA);
  ASSERT_TRUE(A.has_value());
  EXPECT_FALSE(A->IsStore);
  EXPECT_TRUE(A->RowMajor);
  EXPECT_EQ(A->Rows, 16);
  EXPECT_EQ(A->Cols, 16);
  EXPECT_EQ(A->ElemBytes, 2);
  const auto &Call = llvm::cast<llvm::CallBase>(LA);
  EXPECT_EQ(A->Ptr, Call.getArgOperand(0));
  EXPECT_EQ(A->Stride, Call.getArgOperand(1));
  // load.b.col: K x N = 16 x 16, column-major.
  auto B = fragmentAccess(inst("wmma", "fb"));
  ASSERT_TRUE(B.has_value());
  EXPECT_FALSE(B->RowMajor);
  EXPECT_EQ(B->Rows, 16);
  EXPECT_EQ(B->Cols, 16);
  // m32n8k16 load.a f16: M x K = 32 x 16, 2 bytes.
  auto A32 = fragmentAccess(inst("wmma", "fa32"));
  ASSERT_TRUE(A32.has_value());
  EXPECT_EQ(A32->Rows, 32);
  EXPECT_EQ(A32->Cols, 16);
  EXPECT_EQ(A32->ElemBytes, 2);
  // store.d f32: a store, M x N = 16 x 16 of 4 bytes; the stride is the
  // last argument (i32 64), the pointer the first (%c).
  const llvm::Instruction &SD =
      callTo("wmma", "llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0");
  auto D = fragmentAccess(SD);
  ASSERT_TRUE(D.has_value());
  EXPECT_TRUE(D->IsStore);
  EXPECT_TRUE(D->RowMajor);
  EXPECT_EQ(D->Rows, 16);
  EXPECT_EQ(D->Cols, 16);
  EXPECT_EQ(D->ElemBytes, 4);
  const auto &SCall = llvm::cast<llvm::CallBase>(SD);
  EXPECT_EQ(D->Ptr, SCall.getArgOperand(0));
  EXPECT_EQ(D->Stride, SCall.getArgOperand(SCall.arg_size() - 1));
  // The MMA itself, ordinary arithmetic and plain loads are not fragments.
  EXPECT_FALSE(fragmentAccess(inst("wmma", "mma")).has_value());
  EXPECT_FALSE(fragmentAccess(inst("arith", "fadd")).has_value());
  EXPECT_FALSE(fragmentAccess(inst("mem", "ldf")).has_value());
}

// BUG (minor): a WMMA load without a stride operand has one argument, and
// fragmentAccess requires at least two, so it returns nullopt although the
// code explicitly supports a missing stride (Stride stays null unless the
// name has ".stride."). Input: `call @llvm.nvvm.wmma.m16n16k16.load.a.row
// .bf16.p0(ptr %a)`. Expected: a 16 x 16 row-major bf16 fragment at %a with
// a null Stride. Actual: nullopt, so KernelModel drops the access from the
// footprint silently (classifyInstruction does count its 16 bytes). clang's
// mma.h always passes ldm, so CUDA sources do not reach this.
TEST_F(OpClassifierTest, FragmentAccessWithoutStride) {
  const llvm::Instruction &L = inst("wmma", "fanostride");
  EXPECT_EQ(classify(L).Counts,
            (OpCounts{{"global.loads", 1}, {"global.load_bytes", 16}}));
  auto F = fragmentAccess(L);
  ASSERT_TRUE(F.has_value());
  EXPECT_EQ(F->Rows, 16);
  EXPECT_EQ(F->Cols, 16);
  EXPECT_EQ(F->Ptr, llvm::cast<llvm::CallBase>(L).getArgOperand(0));
  EXPECT_EQ(F->Stride, nullptr);
}

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

TEST_F(OpClassifierTest, InlineAsmArithmetic) {
  // add.f16x2: one add on 2 lanes = 2 fp16 FLOPs.
  Classified Add = classify("asm", "hadd2");
  EXPECT_TRUE(Add.Ok);
  EXPECT_EQ(Add.Counts, (OpCounts{{"flops.fp16", 2}}));
  // fma.rn.f16x2: 2 FLOPs x 2 lanes = 4.
  EXPECT_EQ(classify("asm", "hfma2").Counts, (OpCounts{{"flops.fp16", 4}}));
  // A braced block with a .reg declaration, mul.f16x2 (2) and fma.rn.f16x2
  // (4) on separate lines: 6.
  EXPECT_EQ(classify("asm", "block").Counts, (OpCounts{{"flops.fp16", 6}}));
  // ex2.approx.f32: one special exp2. rcp.approx.f32: a division (1 FLOP
  // + 1 div.fp32).
  EXPECT_EQ(classify("asm", "ex2").Counts, (OpCounts{{"special.exp2", 1}}));
  EXPECT_EQ(classify("asm", "rcp").Counts,
            (OpCounts{{"flops.fp32", 1}, {"div.fp32", 1}}));
  // Integer add and mov: index math, nothing counted.
  for (const char *N : {"iadd", "movonly"}) {
    Classified C = classify("asm", N);
    EXPECT_TRUE(C.Ok) << N;
    EXPECT_TRUE(C.Counts.empty()) << N;
  }
}

TEST_F(OpClassifierTest, InlineAsmMma) {
  // mma.sync m16n8k16 with bf16 inputs (the type after the accumulator):
  // 2*16*8*16 = 4096 per warp, 4096/32 = 128 per thread.
  Classified M = classify("asm", "mma");
  EXPECT_TRUE(M.Ok);
  EXPECT_EQ(M.Counts, (OpCounts{{"flops.tensor_bf16", 128}, {"mma", 1}}));
}

/// The N-th (0-based) call to inline assembly returning void in @asm.
static const llvm::Instruction *voidAsm(llvm::Module &M, unsigned N) {
  unsigned Seen = 0;
  for (const llvm::Instruction &I : llvm::instructions(*M.getFunction("asm")))
    if (auto *CB = llvm::dyn_cast<llvm::CallBase>(&I))
      if (CB->isInlineAsm() && CB->getType()->isVoidTy() && Seen++ == N)
        return &I;
  return nullptr;
}

// BUG: wgmma is a warpgroup instruction (4 warps, 128 threads compute one
// m x n x k product together), but addMma divides 2*m*n*k by 32 as for a
// warp-wide mma.sync. Input: inline asm "wgmma.mma_async.sync.aligned
// .m64n8k16.f32.bf16.bf16 {...}, descA, descB, p, 1, 1, 0, 1;". Expected:
// 2*64*8*16 = 16384 FLOPs per warpgroup, 16384/128 = 128 tensor_bf16 per
// thread, 1 mma. Actual: 16384/32 = 512 (4x too many).
// Its operands come from shared memory through the descriptors: A is
// 64 x 16 bf16 = 2048 B and B 8 x 16 = 256 B per warp group, 2304 / 128 =
// 18 B per thread. With A in registers ({a0, a1, a2, a3}) only B's 256 B,
// 2 B per thread.
TEST_F(OpClassifierTest, InlineAsmWgmmaPerThread) {
  Classified W = classify("asm", "wgmma");
  EXPECT_TRUE(W.Ok);
  EXPECT_EQ(W.Counts, (OpCounts{{"flops.tensor_bf16", 128},
                                {"mma", 1},
                                {"shared.load_bytes", 18}}));
  Classified R = classify("asm", "wgmma_rs");
  EXPECT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.Counts, (OpCounts{{"flops.tensor_bf16", 128},
                                {"mma", 1},
                                {"shared.load_bytes", 2}}));
}

// BUG: every inline-asm opcode starting with "wgmma" is parsed as an MMA,
// so the fence/commit/wait statements that always surround wgmma
// ("wgmma.fence.sync.aligned;", "wgmma.commit_group.sync.aligned;",
// "wgmma.wait_group.sync.aligned 0;") have no shape and are refused:
// classifyInstruction returns false ("has an unrecognized shape") and the
// block is marked uncountable. Expected: true with no counters (they are
// synchronization, like bar/fence, which are free). Actual: false.
TEST_F(OpClassifierTest, InlineAsmWgmmaSyncIsFree) {
  for (unsigned N = 0; N < 3; ++N) {
    const llvm::Instruction *I = voidAsm(*Mod, N);
    ASSERT_NE(I, nullptr) << N;
    Classified C = classify(*I);
    EXPECT_TRUE(C.Ok) << N << ": " << C.Why;
    EXPECT_TRUE(C.Counts.empty()) << N;
  }
}

// BUG: packed fp32 PTX (sm_100+: add/sub/mul/fma{.rnd}.f32x2; ptxas accepts
// "add.rn.f32x2" for sm_100a) is not recognized as floating point: only
// f16x2/bf16x2 set the lane count and "f32x2" sets no precision, so the
// opcode is taken for integer index math and counted as nothing, silently.
// Input: inline asm "add.rn.f32x2 $0, $1, $2;". Expected: 2 fp32 FLOPs (one
// add on 2 lanes), or at least a refusal. Actual: true, no counters.
TEST_F(OpClassifierTest, InlineAsmPackedF32) {
  Classified C = classify("asm", "f32x2");
  EXPECT_TRUE(C.Ok);
  EXPECT_EQ(C.Counts, (OpCounts{{"flops.fp32", 2}}));
}

TEST_F(OpClassifierTest, InlineAsmUnknown) {
  // ld.global.f32 is memory, not modelled: false, with the opcode named.
  Classified L = classify("asm", "ld");
  EXPECT_FALSE(L.Ok);
  EXPECT_NE(L.Why.find("ld.global.f32"), std::string::npos) << L.Why;
  EXPECT_NE(L.Why.find("not analyzed"), std::string::npos) << L.Why;
  EXPECT_TRUE(L.Counts.empty());
  // The asm is readnone to LLVM (no volatile, no "memory" clobber, as
  // clang's own __ldcs), but a load is a load: the loads are unknown.
  EXPECT_EQ(L.Affects, unsigned(AffectsLoads));
  // An analyzable add.f16x2 followed by an unknown load: the 2 FLOPs of
  // the add are counted; only the loads are unknown.
  Classified X = classify("asm", "mixed");
  EXPECT_FALSE(X.Ok);
  EXPECT_NE(X.Why.find("ld.global.b32"), std::string::npos) << X.Why;
  EXPECT_EQ(X.Counts, (OpCounts{{"flops.fp16", 2}}));
  EXPECT_EQ(X.Affects, unsigned(AffectsLoads));
  // Stores and atomics in asm make stores (and, for atomics, loads) unknown.
  Classified St = classify("asm", "st");
  EXPECT_FALSE(St.Ok);
  EXPECT_EQ(St.Affects, unsigned(AffectsStores));
  Classified At = classify("asm", "atom");
  EXPECT_FALSE(At.Ok);
  EXPECT_EQ(At.Affects, unsigned(AffectsLoads | AffectsStores));
  // A loop in asm: the add is counted once, but runs an unknown number of
  // times, so what it counts (compute) is unknown; nothing else is.
  Classified Br = classify("asm", "bra");
  EXPECT_FALSE(Br.Ok);
  EXPECT_NE(Br.Why.find("branches"), std::string::npos) << Br.Why;
  EXPECT_EQ(Br.Counts, (OpCounts{{"flops.fp32", 1}}));
  EXPECT_EQ(Br.Affects, unsigned(AffectsCompute));
  // An opcode of unknown effect with no address operand, in a statement
  // without a "memory" clobber, can change registers only: compute and
  // shuffles are unknown, loads and stores stay exact (issue 22).
  Classified Unk = classify("asm", "brkpt");
  EXPECT_FALSE(Unk.Ok);
  EXPECT_EQ(Unk.Affects, unsigned(AffectsRegisters));
  // The clobber says it may touch memory: then it may do anything.
  Classified Mem = classify("asm", "brkpt_mem");
  EXPECT_FALSE(Mem.Ok);
  EXPECT_EQ(Mem.Affects, AllCounters);
  // So may one with an address operand.
  Classified Addr = classify("asm", "brkpt_addr");
  EXPECT_FALSE(Addr.Ok);
  EXPECT_EQ(Addr.Affects, AllCounters);
}

TEST_F(OpClassifierTest, InlineAsmMmaShapes) {
  // Sparse m16n8k32 bf16 multiplies the nonzero half of A: the dense work
  // of k16, 2*16*8*16 / 32 = 128 per thread, in both spellings.
  for (const char *N : {"mma_sp", "mma_sp_om"}) {
    Classified C = classify("asm", N);
    EXPECT_TRUE(C.Ok) << N << ": " << C.Why;
    EXPECT_EQ(C.Counts, (OpCounts{{"flops.tensor_bf16", 128}, {"mma", 1}}))
        << N;
  }
  // int8 m16n8k32: 2*16*8*32 / 32 = 256 operations; f64 m8n8k4:
  // 2*8*8*4 / 32 = 16.
  EXPECT_EQ(classify("asm", "mma_s8").Counts,
            (OpCounts{{"flops.tensor_int8", 256}, {"mma", 1}}));
  EXPECT_EQ(classify("asm", "mma_f64").Counts,
            (OpCounts{{"flops.tensor_fp64", 16}, {"mma", 1}}));
}

TEST_F(OpClassifierTest, InlineAsmTableRows) {
  // Rows of PtxInstructions.def: reductions, votes, conversions, integer
  // dot products, cache policies and tensor-memory loads move nothing and
  // count nothing.
  for (const char *N : {"redux", "vote", "cvt", "dp4a", "policy", "tld"}) {
    Classified C = classify("asm", N);
    EXPECT_TRUE(C.Ok) << N << ": " << C.Why;
    EXPECT_TRUE(C.Counts.empty()) << N;
  }
  // A shuffle is one shuffle; tanh.approx one special function; packed
  // fma.rn.f32x2 two FLOPs on each of two lanes.
  EXPECT_EQ(classify("asm", "shfl").Counts, (OpCounts{{"shuffles", 1}}));
  EXPECT_EQ(classify("asm", "tanh").Counts, (OpCounts{{"special.tanh", 1}}));
  EXPECT_EQ(classify("asm", "fma2").Counts, (OpCounts{{"flops.fp32", 4}}));
  // A tcgen05.mma form the table does not model (no cta_group): unknown,
  // named; it computes and reads shared memory, and writes only tensor
  // memory.
  Classified Tc = classify("asm", "tc");
  EXPECT_FALSE(Tc.Ok);
  EXPECT_NE(Tc.Why.find("tcgen05.mma"), std::string::npos) << Tc.Why;
  EXPECT_EQ(Tc.Affects, unsigned(AffectsCompute | AffectsLoads));
}

// tcgen05.mma: one thread issues the CTA's MMA, its shape in the constant
// instruction descriptor (bits 4-5 D format, 7-9 A format, 17-22 N >> 3,
// 24-28 M >> 4).
TEST_F(OpClassifierTest, InlineAsmTcgen05) {
  // 0x08400490 = 138413200: D f32 (1 << 4), A and B bf16 (1 << 7, 1 << 10),
  // N = 256 (32 << 17), M = 128 (8 << 24); kind::f16 has K = 16:
  // 2 x 128 x 256 x 16 = 1048576 FLOPs; A 128 x 16 x 2 B = 4096 B and B
  // 256 x 16 x 2 B = 8192 B read from shared memory.
  Classified Bf16 = classify(*voidAsm(*Mod, 3));
  EXPECT_TRUE(Bf16.Ok) << Bf16.Why;
  EXPECT_EQ(Bf16.Counts, (OpCounts{{"flops.tensor_bf16", 1048576},
                                   {"mma", 1},
                                   {"shared.load_bytes", 12288}}));
  // CCCL's form, A in tensor memory ([$1]), a CTA pair: 0x10200010 =
  // 270532624: D f32, A e4m3, N = 128 (16 << 17), M = 256 (16 << 24);
  // kind::f8f6f4 has K = 32: 2 x 256 x 128 x 32 = 2097152 FLOPs at the
  // fp8 f32-accumulate rate; only B, 128 x 32 x 1 B, from shared memory.
  Classified Fp8 = classify(*voidAsm(*Mod, 4));
  EXPECT_TRUE(Fp8.Ok) << Fp8.Why;
  EXPECT_EQ(Fp8.Counts, (OpCounts{{"flops.tensor_fp8_fp32acc", 2097152},
                                  {"mma", 1},
                                  {"shared.load_bytes", 4096}}));
  // A descriptor known only at run time: the shape is unknown.
  Classified Any = classify(*voidAsm(*Mod, 5));
  EXPECT_FALSE(Any.Ok);
  EXPECT_NE(Any.Why.find("instruction descriptor is not a constant"),
            std::string::npos)
      << Any.Why;
  EXPECT_EQ(Any.Affects, unsigned(AffectsCompute | AffectsLoads));
  // Its fences and waits ("tcgen05.fence::after_thread_sync", a '::' after
  // the row's prefix) move nothing.
  for (unsigned N : {6u, 7u}) {
    Classified Sync = classify(*voidAsm(*Mod, N));
    EXPECT_TRUE(Sync.Ok) << N << ": " << Sync.Why;
    EXPECT_TRUE(Sync.Counts.empty()) << N;
  }
}

TEST_F(OpClassifierTest, InlineAsmPredicated) {
  // "@p add.f32" runs only in the lanes where p holds: its FLOPs are
  // unknown, not counted in every lane; the unguarded shuffle before it is
  // counted (1), and the shuffles stay exact (only compute is affected).
  Classified P = classify("asm", "pred_add");
  EXPECT_FALSE(P.Ok);
  EXPECT_NE(P.Why.find("@p add.f32"), std::string::npos) << P.Why;
  EXPECT_NE(P.Why.find("predicate"), std::string::npos) << P.Why;
  EXPECT_EQ(P.Counts, (OpCounts{{"shuffles", 1}}));
  EXPECT_EQ(P.Affects, unsigned(AffectsCompute));
  // A guarded instruction that counts as nothing (a mov) is harmless.
  Classified M = classify("asm", "pred_mov");
  EXPECT_TRUE(M.Ok) << M.Why;
  EXPECT_TRUE(M.Counts.empty());
  // A guarded store is still a store of unknown count.
  Classified S = classify("asm", "pred_st");
  EXPECT_FALSE(S.Ok);
  EXPECT_EQ(S.Affects, unsigned(AffectsStores));
}

//===----------------------------------------------------------------------===//
// Calls that were not inlined, and the Affects mask
//===----------------------------------------------------------------------===//

TEST_F(OpClassifierTest, UncountableCallsAffects) {
  // A readonly callee may compute and load, never store.
  Classified RO = classify("calls", "ro");
  EXPECT_FALSE(RO.Ok);
  EXPECT_NE(RO.Why.find("ext_readonly"), std::string::npos) << RO.Why;
  EXPECT_NE(RO.Why.find("not inlined"), std::string::npos) << RO.Why;
  EXPECT_EQ(RO.Affects,
            unsigned(AffectsCompute | AffectsShuffles | AffectsLoads));
  EXPECT_TRUE(RO.Counts.empty());
  // memory(none): compute only.
  Classified None = classify("calls", "none");
  EXPECT_FALSE(None.Ok);
  EXPECT_EQ(None.Affects, unsigned(AffectsCompute | AffectsShuffles));
  // No memory attribute: anything.
  Classified Any = classify("calls", "any");
  EXPECT_FALSE(Any.Ok);
  EXPECT_EQ(Any.Affects, AllCounters);
  // Indirect call: unknown callee, anything.
  Classified Ind = classify("calls", "ind");
  EXPECT_FALSE(Ind.Ok);
  EXPECT_NE(Ind.Why.find("indirect call"), std::string::npos) << Ind.Why;
  EXPECT_EQ(Ind.Affects, AllCounters);
  // printf is ignored: counted (as nothing).
  Classified Pf = classify("calls", "pf");
  EXPECT_TRUE(Pf.Ok);
  EXPECT_TRUE(Pf.Counts.empty());
}

TEST_F(OpClassifierTest, CounterCategory) {
  // Shuffles have a category of their own.
  EXPECT_EQ(counterCategory("shuffles"), unsigned(AffectsShuffles));
  // Compute: FLOPs, divisions, specials, MMAs (anything else not memory).
  for (const char *C :
       {"flops.fp32", "flops.tensor_bf16", "div.fp64", "special.exp", "mma"})
    EXPECT_EQ(counterCategory(C), unsigned(AffectsCompute)) << C;
  // Loads.
  for (const char *C :
       {"global.loads", "global.load_bytes", "shared.load_bytes"})
    EXPECT_EQ(counterCategory(C), unsigned(AffectsLoads)) << C;
  // Stores, including atomics.
  for (const char *C : {"global.stores", "global.store_bytes",
                        "shared.store_bytes", "atomics", "atomic_bytes"})
    EXPECT_EQ(counterCategory(C), unsigned(AffectsStores)) << C;
  // shared_bytes (loads + stores) belongs to both.
  EXPECT_EQ(counterCategory("shared_bytes"),
            unsigned(AffectsLoads | AffectsStores));
  // Every counter classifyInstruction produced for the bf16 WMMA load falls
  // in the loads category; a readonly call's mask covers them.
  for (auto &KV : classify("wmma", "fa").Counts)
    EXPECT_EQ(counterCategory(KV.first) & ~classify("calls", "ro").Affects, 0u)
        << KV.first;
}

} // namespace
