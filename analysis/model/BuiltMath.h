//===- BuiltMath.h - Division as the build compiles it ----------*- C++ -*-===//
//
// Part of cuda-roofline.
//
// The NVPTX back end picks the PTX of a float division from the
// instruction's fast-math flags only; nvcc's -use_fast_math (recorded as a
// module flag, ExecutedMath.h) makes it div.full.f32, or rcp.approx.f32 for
// 1/x. The executed FLOPs already count what the build executes
// (expandedPtxOp); the PTX counted for instructions must divide the same
// way, or a fast-math kernel counts the IEEE division's expansion.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_BUILTMATH_H
#define CUDA_ROOFLINE_BUILTMATH_H

namespace llvm {
class Module;
}

namespace roofline {

/// Replaces every fp32 division of M whose build approximates it (fast
/// math) with the PTX instruction expandedPtxOp names, as inline assembly,
/// so that the back end emits that instruction. For the copy of a module
/// compiled to PTX (emitMarkedPtx), not for the analyzed module.
void divideAsBuilt(llvm::Module &M);

} // namespace roofline

#endif
