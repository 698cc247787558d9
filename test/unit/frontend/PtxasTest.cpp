//===- PtxasTest.cpp - Registers and spills from ptxas -v -----------------===//
//
// Part of cuda-roofline.
//
// parsePtxasVerbose on reports recorded from the real ptxas of CUDA 13.0
// (V13.0.88): several kernels and a device function, a spilling kernel
// (-maxrregcount), constant-bank usage and relocatable (-c) output; runPtxas
// on a hand-written kernel with the build's ptxas, and its errors.
//
//===----------------------------------------------------------------------===//

#include "Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace roofline;

namespace {

// clang-22 --cuda-device-only -S --cuda-gpu-arch=sm_90 -nocudalib -O2 of
// three kernels (heavy<64>: 64 accumulators, smemk: a 4 KiB __shared__
// array, kernel: calls the __noinline__ device function helper, whose
// local array is its stack frame), then ptxas -v --gpu-name sm_90.
constexpr const char *ThreeKernels = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z5heavyILi64EEvPKfPf' for 'sm_90'
ptxas info    : Function properties for _Z5heavyILi64EEvPKfPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 70 registers, used 0 barriers
ptxas info    : Compile time = 97.239 ms
ptxas info    : Compiling entry function '_Z5smemkPf' for 'sm_90'
ptxas info    : Function properties for _Z5smemkPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 4096 bytes smem
ptxas info    : Compile time = 7.348 ms
ptxas info    : Compiling entry function '_Z6kernelPf' for 'sm_90'
ptxas info    : Function properties for _Z6kernelPf
    128 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 18 registers, used 0 barriers, 128 bytes cumulative stack size
ptxas info    : Compile time = 11.114 ms
ptxas info    : Function properties for _Z6helperPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
)";

// The same PTX with -maxrregcount 16, which ptxas raises to 24 on sm_90:
// heavy<64> now spills.
constexpr const char *Spilling =
    R"(ptxas warning : For profile sm_90 adjusting per thread register count of 16 to lower bound of 24
ptxas info    : Overriding maximum register limit 256 for '_Z5heavyILi64EEvPKfPf' with  24 of maxrregcount option
ptxas info    : Overriding maximum register limit 256 for '_Z5smemkPf' with  24 of maxrregcount option
ptxas info    : Overriding maximum register limit 256 for '_Z6kernelPf' with  24 of maxrregcount option
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z5heavyILi64EEvPKfPf' for 'sm_90'
ptxas info    : Function properties for _Z5heavyILi64EEvPKfPf
    1328 bytes stack frame, 2640 bytes spill stores, 2704 bytes spill loads
ptxas info    : Used 24 registers, used 0 barriers, 1328 bytes cumulative stack size
ptxas info    : Compile time = 902.573 ms
ptxas info    : Compiling entry function '_Z5smemkPf' for 'sm_90'
ptxas info    : Function properties for _Z5smemkPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 4096 bytes smem
ptxas info    : Compile time = 3.322 ms
)";

// nvcc -ptx -arch=sm_80 of a kernel reading a __constant__ array and one
// using extern __shared__ memory (dynamic: not in the report), then ptxas
// -v --gpu-name sm_80: the parameter bank cmem[0] is reported from sm_80
// down, and the module's constant and global data on the first line.
constexpr const char *ConstantBanks =
    R"(ptxas info    : 512 bytes gmem, 256 bytes cmem[3], 8 bytes cmem[4]
ptxas info    : Compiling entry function '_Z3dynPf' for 'sm_80'
ptxas info    : Function properties for _Z3dynPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 360 bytes cmem[0]
ptxas info    : Compile time = 8.459 ms
ptxas info    : Compiling entry function '_Z2ckPf' for 'sm_80'
ptxas info    : Function properties for _Z2ckPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers, 360 bytes cmem[0]
ptxas info    : Compile time = 2.998 ms
)";

// nvcc -ptx -rdc=true -arch=sm_90 of a kernel calling an extern device
// function, then ptxas -v -c: the device functions come before and after
// the kernel, each with its own frame line.
constexpr const char *Relocatable = R"(ptxas info    : 0 bytes gmem
ptxas info    : Function properties for _Z3extPfi$1
    40 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compile time = 9.989 ms
ptxas info    : Compiling entry function '_Z2rkPf' for 'sm_90'
ptxas info    : Function properties for _Z2rkPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 24 registers, used 0 barriers
ptxas info    : Compile time = 3.189 ms
ptxas info    : Function properties for _Z3extPfi
    40 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compile time = 3.567 ms
)";

// A kernel that loads, adds one and stores through a 512-byte __shared__
// tile. ptxas -v of CUDA 13.0 reports "Used 8 registers, used 1 barriers,
// 512 bytes smem" for it on sm_90.
constexpr const char *HandWrittenPtx = R"(.version 7.8
.target sm_90
.address_size 64

.visible .entry add_one(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<3>;
  .shared .align 4 .b8 tile[512];

  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  ld.global.f32 %f1, [%rd2];
  add.f32 %f2, %f1, 0f3F800000;
  st.shared.f32 [tile], %f2;
  bar.sync 0;
  ld.shared.f32 %f2, [tile+4];
  st.global.f32 [%rd2], %f2;
  ret;
}
)";

} // namespace

TEST(Ptxas, SeveralKernelsAndADeviceFunction) {
  std::map<std::string, PtxasUsage> U = parsePtxasVerbose(ThreeKernels);
  ASSERT_EQ(U.size(), 4u);
  const PtxasUsage &Heavy = U.at("_Z5heavyILi64EEvPKfPf");
  EXPECT_EQ(Heavy.Registers, 70u);
  EXPECT_EQ(Heavy.SharedBytes, 0u);
  EXPECT_EQ(Heavy.SpillStoreBytes, 0u);
  const PtxasUsage &Smem = U.at("_Z5smemkPf");
  EXPECT_EQ(Smem.Registers, 10u);
  EXPECT_EQ(Smem.SharedBytes, 4096u);
  const PtxasUsage &Kernel = U.at("_Z6kernelPf");
  EXPECT_EQ(Kernel.Registers, 18u);
  EXPECT_EQ(Kernel.StackFrameBytes, 128u);
  // The "cumulative stack size" item is not the shared memory.
  EXPECT_EQ(Kernel.SharedBytes, 0u);
  // A device function of the whole program: a frame line, no registers.
  const PtxasUsage &Helper = U.at("_Z6helperPfi");
  EXPECT_EQ(Helper.Registers, 0u);
  EXPECT_EQ(Helper.StackFrameBytes, 0u);
}

TEST(Ptxas, Spills) {
  std::map<std::string, PtxasUsage> U = parsePtxasVerbose(Spilling);
  ASSERT_EQ(U.size(), 2u);
  const PtxasUsage &Heavy = U.at("_Z5heavyILi64EEvPKfPf");
  EXPECT_EQ(Heavy.Registers, 24u);
  EXPECT_EQ(Heavy.StackFrameBytes, 1328u);
  EXPECT_EQ(Heavy.SpillStoreBytes, 2640u);
  EXPECT_EQ(Heavy.SpillLoadBytes, 2704u);
  EXPECT_EQ(U.at("_Z5smemkPf").SpillStoreBytes, 0u);
  EXPECT_EQ(U.at("_Z5smemkPf").Registers, 10u);
}

TEST(Ptxas, ConstantBanksAreNotSharedMemory) {
  std::map<std::string, PtxasUsage> U = parsePtxasVerbose(ConstantBanks);
  ASSERT_EQ(U.size(), 2u);
  EXPECT_EQ(U.at("_Z3dynPf").Registers, 10u);
  EXPECT_EQ(U.at("_Z3dynPf").SharedBytes, 0u);
  EXPECT_EQ(U.at("_Z2ckPf").Registers, 10u);
}

TEST(Ptxas, RelocatableDeviceFunctions) {
  std::map<std::string, PtxasUsage> U = parsePtxasVerbose(Relocatable);
  ASSERT_EQ(U.size(), 3u);
  EXPECT_EQ(U.at("_Z2rkPf").Registers, 24u);
  EXPECT_EQ(U.at("_Z2rkPf").StackFrameBytes, 0u);
  EXPECT_EQ(U.at("_Z3extPfi").StackFrameBytes, 40u);
  EXPECT_EQ(U.at("_Z3extPfi$1").StackFrameBytes, 40u);
  EXPECT_EQ(U.at("_Z3extPfi").Registers, 0u);
}

TEST(Ptxas, OldToolkitFormat) {
  // Toolkits before CUDA 12 print no barriers and split shared memory into
  // static + dynamic ("16+0 bytes smem" in the oldest); the counts add.
  std::map<std::string, PtxasUsage> U = parsePtxasVerbose(
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_70'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 32 registers, 4096+16 bytes smem, 368 bytes "
      "cmem[0]\n");
  ASSERT_EQ(U.size(), 1u);
  EXPECT_EQ(U.at("_Z1kPf").Registers, 32u);
  EXPECT_EQ(U.at("_Z1kPf").SharedBytes, 4112u);
  EXPECT_EQ(U.at("_Z1kPf").SpillLoadBytes, 4u);
}

TEST(Ptxas, NothingToRead) {
  EXPECT_TRUE(parsePtxasVerbose("").empty());
  // A "Used" line with no function before it belongs to none.
  EXPECT_TRUE(parsePtxasVerbose("ptxas info    : Used 8 registers\n"
                                "ptxas fatal   : Ptx assembly aborted\n")
                  .empty());
}

TEST(Ptxas, MissingPtxas) {
  auto R = runPtxas(HandWrittenPtx, "sm_90", "/nonexistent/cuda", 30);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "ptxas not found at '/nonexistent/cuda/bin/ptxas' (CUDA "
            "toolkit); registers per thread are unknown");
}

TEST(Ptxas, RunsTheRealPtxas) {
  if (!llvm::sys::fs::can_execute(ptxasPath("")))
    GTEST_SKIP() << "no ptxas at " << ptxasPath("");
  auto R = runPtxas(HandWrittenPtx, "sm_90", "", 60);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->size(), 1u);
  const PtxasUsage &U = R->at("add_one");
  EXPECT_EQ(U.Registers, 8u);
  EXPECT_EQ(U.SharedBytes, 512u);
  EXPECT_EQ(U.SpillStoreBytes, 0u);
}

TEST(Ptxas, TheDebugMarkOfTheTargetIsDropped) {
  if (!llvm::sys::fs::can_execute(ptxasPath("")))
    GTEST_SKIP() << "no ptxas at " << ptxasPath("");
  // Line tables make the back end write ".target sm_90, debug", and ptxas
  // then compiles as for a debug build (more registers: kernels/gemm/
  // naive.cu takes 36 against 29). runPtxas drops the mark: the same
  // kernel marked so assembles as the unmarked one does, where ptxas
  // itself refuses it ("Debug information not found in presence of
  // .target debug": this PTX has no debug sections to go with it).
  std::string Marked = HandWrittenPtx;
  size_t At = Marked.find(".target sm_90");
  ASSERT_NE(At, std::string::npos);
  Marked.insert(At + strlen(".target sm_90"), ", debug");
  auto R = runPtxas(Marked, "sm_90", "", 60);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->at("add_one").Registers, 8u);
}

TEST(Ptxas, CallsToDeclaredFunctionsAssembleRelocatable) {
  if (!llvm::sys::fs::can_execute(ptxasPath("")))
    GTEST_SKIP() << "no ptxas at " << ptxasPath("");
  // The kernel calls __nv_sqrtf, which the PTX only declares (libdevice is
  // not linked into what the analysis compiles): a whole-program assembly
  // fails with "Unresolved extern function", the relocatable one does not,
  // and the kernel's registers are read from it.
  std::string Calls = R"(.version 7.8
.target sm_90
.address_size 64

.extern .func (.param .b32 r) __nv_sqrtf(.param .b32 x);

.visible .entry root(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .f32 %f<3>;

  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.f32 %f1, [%rd2];
  {
  .param .b32 x;
  st.param.f32 [x], %f1;
  .param .b32 r;
  call.uni (r), __nv_sqrtf, (x);
  ld.param.f32 %f2, [r];
  }
  st.global.f32 [%rd2], %f2;
  ret;
}
)";
  auto R = runPtxas(Calls, "sm_90", "", 60);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->count("root"), 1u);
  EXPECT_GT(R->at("root").Registers, 0u);
}

TEST(Ptxas, ReportsTheFirstError) {
  if (!llvm::sys::fs::can_execute(ptxasPath("")))
    GTEST_SKIP() << "no ptxas at " << ptxasPath("");
  std::string Bad = HandWrittenPtx;
  Bad.replace(Bad.find("add.f32"), 7, "addx.f32");
  auto R = runPtxas(Bad, "sm_90", "", 60);
  ASSERT_FALSE(bool(R));
  // The line of ptxas's error, not its closing "aborted due to errors",
  // with the temporary file's name left out.
  EXPECT_EQ(llvm::toString(R.takeError()),
            "ptxas failed for sm_90 (exit code 255): ptxas <ptx>, line 18; "
            "error   : Not a name of any known instruction: 'addx'; "
            "registers per thread are unknown");
  // An architecture ptxas does not know fails with its fatal line.
  auto Arch = runPtxas(HandWrittenPtx, "sm_1", "", 60);
  ASSERT_FALSE(bool(Arch));
  EXPECT_NE(llvm::toString(Arch.takeError())
                .find("ptxas fatal   : Value 'sm_1' is not defined for option "
                      "'gpu-name'"),
            std::string::npos);
}

/// A CUDA directory in a fresh temporary directory whose bin/ptxas is the
/// shell script Body: ptxas failures the real one cannot be made to show.
static std::string fakeCuda(llvm::StringRef Body) {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("roofline-fake-cuda", Dir))
    return "";
  llvm::SmallString<128> Bin(Dir);
  llvm::sys::path::append(Bin, "bin");
  llvm::sys::fs::create_directory(Bin);
  llvm::sys::path::append(Bin, "ptxas");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Bin, EC);
    OS << "#!/bin/sh\n" << Body << "\n";
  }
  llvm::sys::fs::setPermissions(Bin, llvm::sys::fs::all_read |
                                         llvm::sys::fs::owner_exe);
  return std::string(Dir);
}

static void removeFakeCuda(llvm::StringRef Dir) {
  llvm::sys::fs::remove_directories(Dir);
}

TEST(Ptxas, EntryAtLine) {
  // Lines 1-3 header, 4-8 the .func, 9-15 kernel "k1" (params on their
  // own line, a nested block), 16 outside, 17-19 "k2".
  const char *Ptx = ".version 8.8\n"
                    ".target sm_90a\n"
                    ".address_size 64\n"
                    ".func helper(\n"
                    ".param .b32 x)\n"
                    "{\n"
                    "ret;\n"
                    "}\n"
                    ".visible .entry k1(\n"
                    ".param .u64 p)\n"
                    "{\n"
                    "{\n"
                    "wgmma.fence.sync.aligned;\n"
                    "}\n"
                    "}\n"
                    "// between\n"
                    ".visible .entry k2()\n"
                    "{\n"
                    "}\n";
  EXPECT_EQ(ptxEntryAtLine(Ptx, 7), "");    // In the .func.
  EXPECT_EQ(ptxEntryAtLine(Ptx, 13), "k1"); // In k1's nested block.
  EXPECT_EQ(ptxEntryAtLine(Ptx, 15), "k1"); // k1's closing brace.
  EXPECT_EQ(ptxEntryAtLine(Ptx, 16), "");   // Between kernels.
  EXPECT_EQ(ptxEntryAtLine(Ptx, 19), "k2");
  EXPECT_EQ(ptxEntryAtLine(Ptx, 2), "");
  EXPECT_EQ(ptxEntryAtLine(Ptx, 99), "");
  // Without k1 (lines 9-15) the .func and k2 remain, line for line.
  std::string Rest = ptxWithoutEntry(Ptx, "k1");
  EXPECT_EQ(Rest, ".version 8.8\n"
                  ".target sm_90a\n"
                  ".address_size 64\n"
                  ".func helper(\n"
                  ".param .b32 x)\n"
                  "{\n"
                  "ret;\n"
                  "}\n"
                  "// between\n"
                  ".visible .entry k2()\n"
                  "{\n"
                  "}\n");
  EXPECT_EQ(ptxEntryAtLine(Rest, 12), "k2");
  // A name no entry has (or only a prefix of one) removes nothing.
  EXPECT_EQ(ptxWithoutEntry(Ptx, "k"), Ptx);
}

TEST(Ptxas, TimesOut) {
  std::string Cuda = fakeCuda("exec sleep 30");
  ASSERT_FALSE(Cuda.empty());
  auto R = runPtxas(HandWrittenPtx, "sm_90", Cuda, 1);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "ptxas timed out after 1 s assembling the device code for "
            "sm_90; registers per thread are unknown");
  removeFakeCuda(Cuda);
}

TEST(Ptxas, FailsWithoutAnErrorLine) {
  // A crash or an unknown message: the last line says what there is.
  std::string Cuda = fakeCuda("echo 'Segmentation fault' >&2; exit 139");
  ASSERT_FALSE(Cuda.empty());
  auto R = runPtxas(HandWrittenPtx, "sm_90", Cuda, 30);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "ptxas failed for sm_90 (exit code 139): Segmentation fault; "
            "registers per thread are unknown");
  removeFakeCuda(Cuda);

  // Killed by a signal: the signal, and the (empty) report.
  Cuda = fakeCuda("kill -SEGV $$");
  ASSERT_FALSE(Cuda.empty());
  R = runPtxas(HandWrittenPtx, "sm_90", Cuda, 30);
  ASSERT_FALSE(bool(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_EQ(Msg.rfind("ptxas failed for sm_90 (", 0), 0u) << Msg;
  EXPECT_NE(Msg.find("Segmentation fault"), std::string::npos) << Msg;
  removeFakeCuda(Cuda);
}
