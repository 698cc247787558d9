//===- GpuDatabaseTest.cpp - Unit tests for the GPU database --------------===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#include "GpuDatabase.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include "gtest/gtest.h"

#include <limits>
#include <string>

using namespace llvm;
using namespace roofline;

namespace {

constexpr const char *RequiredIds[] = {"v100-sxm2",
                                       "t4",
                                       "a100-40gb-sxm",
                                       "a100-80gb-sxm",
                                       "a100-80gb-pcie",
                                       "a10",
                                       "l4",
                                       "l40s",
                                       "rtx-4090",
                                       "rtx-6000-ada",
                                       "h100-sxm",
                                       "h100-pcie",
                                       "h200",
                                       "b200",
                                       "rtx-5090"};

/// A valid GPU entry with round numbers; tests remove or change keys.
json::Object minimalGpu(StringRef Id) {
  return json::Object{
      {"id", Id.str()},
      {"name", "Test GPU"},
      {"arch", "sm_90"},
      {"sms", 100},
      {"memory_gb", 40},
      {"dram_bandwidth_gbs", 1000},
      {"l2_bytes", 1048576},
      {"shared_per_sm_bytes", 65536},
      {"shared_per_block_bytes", 49152},
      {"max_threads_per_sm", 2048},
      {"max_blocks_per_sm", 32},
      {"peak_tflops",
       json::Object{{"cuda_core", json::Object{{"fp32", 10}}},
                    {"tensor_core", json::Object{{"bf16", 100}}}}}};
}

std::string databaseJson(json::Array Gpus) {
  json::Value Root =
      json::Object{{"schema_version", 1}, {"gpus", std::move(Gpus)}};
  return formatv("{0}", Root).str();
}

/// Parses \p Text and returns the error message, or "" if it parsed.
std::string parseError(StringRef Text) {
  Expected<GpuDatabase> DB = GpuDatabase::parse(Text, "user-gpus.json");
  if (DB)
    return "";
  return toString(DB.takeError());
}

GpuDatabase parseOrDie(StringRef Text) {
  Expected<GpuDatabase> DB = GpuDatabase::parse(Text, "user-gpus.json");
  if (!DB) {
    ADD_FAILURE() << toString(DB.takeError());
    return GpuDatabase();
  }
  return std::move(*DB);
}

TEST(GpuDatabaseTest, ComputeUnitNames) {
  EXPECT_EQ(computeUnitName(ComputeUnit::CudaCore), "cuda_core");
  EXPECT_EQ(computeUnitName(ComputeUnit::TensorCore), "tensor_core");
}

TEST(GpuDatabaseTest, BuiltinHasEveryRequiredId) {
  const GpuDatabase &DB = GpuDatabase::builtin();
  for (const char *Id : RequiredIds)
    EXPECT_NE(DB.find(Id), nullptr) << "missing builtin GPU " << Id;
}

TEST(GpuDatabaseTest, BuiltinRowsAreComplete) {
  for (const GpuSpec &G : GpuDatabase::builtin().all()) {
    SCOPED_TRACE(G.Id);
    EXPECT_FALSE(G.Name.empty());
    EXPECT_TRUE(StringRef(G.Arch).starts_with("sm_"));
    EXPECT_GT(G.SMs, 0u);
    EXPECT_GT(G.DramBandwidth, 1e11); // Every listed part exceeds 100 GB/s.
    EXPECT_GT(G.L2Bytes, 0u);
    EXPECT_LE(G.SharedPerBlockBytes, G.SharedPerSMBytes);
    EXPECT_TRUE(G.peak(ComputeUnit::CudaCore, "fp32").has_value());
    EXPECT_FALSE(G.Sources.empty());
    EXPECT_FALSE(G.Notes.empty());
    // Every notes field states that tensor peaks are dense.
    EXPECT_TRUE(StringRef(G.Notes).contains("dense"));
  }
}

TEST(GpuDatabaseTest, H100SxmFigures) {
  const GpuSpec *H100 = GpuDatabase::builtin().find("h100-sxm");
  ASSERT_NE(H100, nullptr);
  EXPECT_EQ(H100->Arch, "sm_90");
  EXPECT_EQ(H100->SMs, 132u);
  EXPECT_EQ(H100->L2Bytes, 50u * 1024 * 1024);
  EXPECT_EQ(H100->SharedPerSMBytes, 228u * 1024);
  EXPECT_EQ(H100->SharedPerBlockBytes, 227u * 1024);
  EXPECT_EQ(H100->MaxThreadsPerSM, 2048u);
  EXPECT_EQ(H100->MaxBlocksPerSM, 32u);
  EXPECT_DOUBLE_EQ(H100->DramBandwidth, 3.35e12);

  std::optional<double> Fp32 = H100->peak(ComputeUnit::CudaCore, "fp32");
  ASSERT_TRUE(Fp32.has_value());
  EXPECT_DOUBLE_EQ(*Fp32, 67e12);
  std::optional<double> Bf16 = H100->peak(ComputeUnit::TensorCore, "bf16");
  ASSERT_TRUE(Bf16.has_value());
  EXPECT_DOUBLE_EQ(*Bf16, 989.4e12);
  // Dense, not the datasheet's sparse 3958 TFLOP/s.
  std::optional<double> Fp8 = H100->peak(ComputeUnit::TensorCore, "fp8");
  ASSERT_TRUE(Fp8.has_value());
  EXPECT_DOUBLE_EQ(*Fp8, 1978.9e12);

  std::optional<double> RidgeFp32 = H100->ridge(ComputeUnit::CudaCore, "fp32");
  ASSERT_TRUE(RidgeFp32.has_value());
  EXPECT_NEAR(*RidgeFp32, 20.0, 0.01);
  std::optional<double> RidgeBf16 =
      H100->ridge(ComputeUnit::TensorCore, "bf16");
  ASSERT_TRUE(RidgeBf16.has_value());
  EXPECT_NEAR(*RidgeBf16, 295.3, 0.05);
}

TEST(GpuDatabaseTest, A100Bandwidths) {
  const GpuDatabase &DB = GpuDatabase::builtin();
  const GpuSpec *Sxm80 = DB.find("a100-80gb-sxm");
  ASSERT_NE(Sxm80, nullptr);
  EXPECT_DOUBLE_EQ(Sxm80->DramBandwidth, 2039e9);
  const GpuSpec *Sxm40 = DB.find("a100-40gb-sxm");
  ASSERT_NE(Sxm40, nullptr);
  EXPECT_DOUBLE_EQ(Sxm40->DramBandwidth, 1555e9);
  const GpuSpec *Pcie80 = DB.find("a100-80gb-pcie");
  ASSERT_NE(Pcie80, nullptr);
  EXPECT_DOUBLE_EQ(Pcie80->DramBandwidth, 1935e9);
}

TEST(GpuDatabaseTest, GeForceTensorPeaksByAccumulate) {
  // Ada whitepaper appendix (RTX 4090, dense): FP16 330.3 TFLOP/s with FP16
  // accumulate, 165.2 with FP32; FP8 660.6 and 330.3; BF16 (always FP32
  // accumulate) 165.2.
  const GpuSpec *Rtx4090 = GpuDatabase::builtin().find("rtx-4090");
  ASSERT_NE(Rtx4090, nullptr);
  auto Peak = [&](StringRef P) {
    return Rtx4090->peak(ComputeUnit::TensorCore, P).value_or(0);
  };
  EXPECT_DOUBLE_EQ(Peak("fp16"), 330.3e12);
  EXPECT_DOUBLE_EQ(Peak("fp16_fp32acc"), 165.2e12);
  EXPECT_DOUBLE_EQ(Peak("fp8"), 660.6e12);
  EXPECT_DOUBLE_EQ(Peak("fp8_fp32acc"), 330.3e12);
  EXPECT_DOUBLE_EQ(Peak("bf16"), 165.2e12);
  // Every GeForce part lists its FP32-accumulate fp16 rate, half the fp16.
  for (const char *Id : {"rtx-3090", "rtx-4090", "rtx-5090"}) {
    const GpuSpec *G = GpuDatabase::builtin().find(Id);
    ASSERT_NE(G, nullptr) << Id;
    EXPECT_EQ(G->TensorCorePeak.count("fp16_fp32acc"), 1u) << Id;
    EXPECT_NEAR(*G->peak(ComputeUnit::TensorCore, "fp16_fp32acc") /
                    *G->peak(ComputeUnit::TensorCore, "fp16"),
                0.5, 0.001)
        << Id;
  }
}

TEST(GpuDatabaseTest, FullRatePartsAnswerFp32AccumulateWithTheirRate) {
  // Data-center parts list no "_fp32acc" key: FP32 accumulate runs at the
  // fp16 (fp8) rate, H100 SXM 989.4 (1978.9) TFLOP/s, and so does the pipe.
  const GpuSpec *H100 = GpuDatabase::builtin().find("h100-sxm");
  ASSERT_NE(H100, nullptr);
  EXPECT_EQ(H100->TensorCorePeak.count("fp16_fp32acc"), 0u);
  EXPECT_DOUBLE_EQ(*H100->peak(ComputeUnit::TensorCore, "fp16_fp32acc"),
                   989.4e12);
  EXPECT_DOUBLE_EQ(*H100->peak(ComputeUnit::TensorCore, "fp8_fp32acc"),
                   1978.9e12);
  EXPECT_DOUBLE_EQ(*H100->ridge(ComputeUnit::TensorCore, "fp16_fp32acc"),
                   *H100->ridge(ComputeUnit::TensorCore, "fp16"));
  EXPECT_DOUBLE_EQ(*H100->pipeRate("tensor.fp16_fp32acc"),
                   *H100->pipeRate("tensor.fp16"));
  // No fallback from a precision the part lacks, nor on CUDA cores.
  const GpuSpec *V100 = GpuDatabase::builtin().find("v100-sxm2");
  ASSERT_NE(V100, nullptr);
  EXPECT_FALSE(V100->peak(ComputeUnit::TensorCore, "fp8_fp32acc"));
  EXPECT_FALSE(V100->pipeRate("tensor.fp8_fp32acc"));
  EXPECT_FALSE(H100->peak(ComputeUnit::CudaCore, "fp16_fp32acc"));
}

TEST(GpuDatabaseTest, MissingPrecisionHasNoPeakOrRidge) {
  const GpuDatabase &DB = GpuDatabase::builtin();
  const GpuSpec *V100 = DB.find("v100-sxm2");
  ASSERT_NE(V100, nullptr);
  EXPECT_FALSE(V100->peak(ComputeUnit::TensorCore, "bf16").has_value());
  EXPECT_FALSE(V100->ridge(ComputeUnit::TensorCore, "bf16").has_value());
  EXPECT_TRUE(V100->peak(ComputeUnit::TensorCore, "fp16").has_value());

  const GpuSpec *Rtx4090 = DB.find("rtx-4090");
  ASSERT_NE(Rtx4090, nullptr);
  EXPECT_FALSE(Rtx4090->peak(ComputeUnit::TensorCore, "fp64").has_value());
  EXPECT_FALSE(Rtx4090->peak(ComputeUnit::CudaCore, "no-such").has_value());
}

TEST(GpuDatabaseTest, FindIgnoresCaseAndRejectsUnknownIds) {
  const GpuDatabase &DB = GpuDatabase::builtin();
  const GpuSpec *H100 = DB.find("H100-SXM");
  ASSERT_NE(H100, nullptr);
  EXPECT_EQ(H100->Id, "h100-sxm");
  EXPECT_EQ(DB.find("h100"), nullptr);
  EXPECT_EQ(DB.find(""), nullptr);
}

TEST(GpuDatabaseTest, ParsesAndConvertsUnits) {
  json::Object Gpu = minimalGpu("my-gpu");
  Gpu["sources"] = json::Array{"my measurements"};
  Gpu["notes"] = "hand-written";
  GpuDatabase DB = parseOrDie(databaseJson(json::Array{std::move(Gpu)}));
  ASSERT_EQ(DB.all().size(), 1u);
  const GpuSpec &G = DB.all().front();
  EXPECT_EQ(G.Id, "my-gpu");
  EXPECT_EQ(G.Name, "Test GPU");
  EXPECT_EQ(G.SMs, 100u);
  EXPECT_DOUBLE_EQ(G.MemoryGB, 40);
  EXPECT_DOUBLE_EQ(G.DramBandwidth, 1e12);
  EXPECT_EQ(G.L2Bytes, 1048576u);
  EXPECT_EQ(G.SharedPerSMBytes, 65536u);
  EXPECT_EQ(G.SharedPerBlockBytes, 49152u);
  EXPECT_DOUBLE_EQ(*G.peak(ComputeUnit::CudaCore, "fp32"), 10e12);
  EXPECT_DOUBLE_EQ(*G.peak(ComputeUnit::TensorCore, "bf16"), 100e12);
  EXPECT_DOUBLE_EQ(*G.ridge(ComputeUnit::TensorCore, "bf16"), 100.0);
  ASSERT_EQ(G.Sources.size(), 1u);
  EXPECT_EQ(G.Sources.front(), "my measurements");
  EXPECT_EQ(G.Notes, "hand-written");
}

TEST(GpuDatabaseTest, MalformedJsonIsAnError) {
  std::string Msg = parseError("{\"schema_version\": 1, \"gpus\": [");
  EXPECT_TRUE(StringRef(Msg).contains("user-gpus.json")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("invalid JSON")) << Msg;
}

TEST(GpuDatabaseTest, MissingBandwidthIsAnError) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu.erase("dram_bandwidth_gbs");
  std::string Msg = parseError(databaseJson(json::Array{std::move(Gpu)}));
  EXPECT_TRUE(StringRef(Msg).contains("user-gpus.json")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("gpus[0]")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("'gpu-a'")) << Msg;
  EXPECT_TRUE(
      StringRef(Msg).contains("missing required key 'dram_bandwidth_gbs'"))
      << Msg;
}

TEST(GpuDatabaseTest, NonPositiveBandwidthIsAnError) {
  for (double Bandwidth : {0.0, -5.0}) {
    json::Object Gpu = minimalGpu("gpu-a");
    Gpu["dram_bandwidth_gbs"] = Bandwidth;
    std::string Msg = parseError(databaseJson(json::Array{std::move(Gpu)}));
    EXPECT_TRUE(StringRef(Msg).contains("'dram_bandwidth_gbs'")) << Msg;
    EXPECT_TRUE(StringRef(Msg).contains("must be positive")) << Msg;
  }
}

TEST(GpuDatabaseTest, WrongTypeIsAnError) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["sms"] = "lots";
  std::string Msg = parseError(databaseJson(json::Array{std::move(Gpu)}));
  EXPECT_TRUE(StringRef(Msg).contains("key 'sms' must be an integer")) << Msg;

  json::Object Fractional = minimalGpu("gpu-b");
  Fractional["l2_bytes"] = 1.5;
  Msg = parseError(databaseJson(json::Array{std::move(Fractional)}));
  EXPECT_TRUE(StringRef(Msg).contains("key 'l2_bytes' must be an integer"))
      << Msg;
}

TEST(GpuDatabaseTest, DuplicateIdIsAnError) {
  std::string Msg = parseError(
      databaseJson(json::Array{minimalGpu("gpu-a"), minimalGpu("gpu-a")}));
  EXPECT_TRUE(StringRef(Msg).contains("duplicate id 'gpu-a'")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("gpus[1]")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("gpus[0]")) << Msg;
}

TEST(GpuDatabaseTest, UpperCaseIdIsAnError) {
  std::string Msg =
      parseError(databaseJson(json::Array{minimalGpu("H100-SXM")}));
  EXPECT_TRUE(StringRef(Msg).contains("gpus[0]")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("key 'id'")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("lower-case")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("'H100-SXM'")) << Msg;
}

TEST(GpuDatabaseTest, ParsesAccumulateTensorPeaks) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["peak_tflops"] =
      json::Object{{"tensor_core", json::Object{{"fp16", 200},
                                                {"fp16_fp32acc", 100},
                                                {"fp8", 400},
                                                {"fp8_fp32acc", 200},
                                                {"int4", 800}}}};
  GpuDatabase DB = parseOrDie(databaseJson(json::Array{std::move(Gpu)}));
  ASSERT_EQ(DB.all().size(), 1u);
  const GpuSpec &G = DB.all().front();
  EXPECT_DOUBLE_EQ(*G.peak(ComputeUnit::TensorCore, "fp16"), 200e12);
  EXPECT_DOUBLE_EQ(*G.peak(ComputeUnit::TensorCore, "fp16_fp32acc"), 100e12);
  EXPECT_DOUBLE_EQ(*G.peak(ComputeUnit::TensorCore, "fp8_fp32acc"), 200e12);
  EXPECT_DOUBLE_EQ(*G.peak(ComputeUnit::TensorCore, "int4"), 800e12);
}

TEST(GpuDatabaseTest, AccumulatePeakOnCudaCoresIsAnError) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["peak_tflops"] =
      json::Object{{"cuda_core", json::Object{{"fp16_fp32acc", 100}}}};
  std::string Msg = parseError(databaseJson(json::Array{std::move(Gpu)}));
  EXPECT_TRUE(StringRef(Msg).contains("peak_tflops.cuda_core.fp16_fp32acc"))
      << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("tensor cores only")) << Msg;
}

TEST(GpuDatabaseTest, UnknownPrecisionIsAnError) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["peak_tflops"] =
      json::Object{{"tensor_core", json::Object{{"bf61", 100}}}};
  std::string Msg = parseError(databaseJson(json::Array{std::move(Gpu)}));
  EXPECT_TRUE(StringRef(Msg).contains("peak_tflops.tensor_core.bf61")) << Msg;
}

TEST(GpuDatabaseTest, UnknownKeyIsAnError) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["dram_bandwith_gbs"] = 1000;
  std::string Msg = parseError(databaseJson(json::Array{std::move(Gpu)}));
  EXPECT_TRUE(StringRef(Msg).contains("unknown key(s) 'dram_bandwith_gbs'"))
      << Msg;
}

TEST(GpuDatabaseTest, UnsupportedSchemaVersionIsAnError) {
  json::Value Root =
      json::Object{{"schema_version", 2}, {"gpus", json::Array{}}};
  std::string Msg = parseError(formatv("{0}", Root).str());
  EXPECT_TRUE(StringRef(Msg).contains("schema_version")) << Msg;
}

TEST(GpuDatabaseTest, MergeReplacesAndAdds) {
  GpuDatabase DB = GpuDatabase::builtin();
  size_t BuiltinCount = DB.all().size();

  json::Object Override = minimalGpu("h100-sxm");
  Override["dram_bandwidth_gbs"] = 3000;
  GpuDatabase User = parseOrDie(
      databaseJson(json::Array{std::move(Override), minimalGpu("my-new-gpu")}));
  DB.merge(User);

  EXPECT_EQ(DB.all().size(), BuiltinCount + 1);
  const GpuSpec *H100 = DB.find("h100-sxm");
  ASSERT_NE(H100, nullptr);
  EXPECT_DOUBLE_EQ(H100->DramBandwidth, 3e12);
  EXPECT_EQ(H100->Name, "Test GPU");
  // The whole entry is replaced, not merged key by key.
  EXPECT_FALSE(H100->peak(ComputeUnit::TensorCore, "fp8").has_value());
  EXPECT_NE(DB.find("my-new-gpu"), nullptr);

  // The builtin database itself is unchanged.
  const GpuSpec *BuiltinH100 = GpuDatabase::builtin().find("h100-sxm");
  ASSERT_NE(BuiltinH100, nullptr);
  EXPECT_DOUBLE_EQ(BuiltinH100->DramBandwidth, 3.35e12);
}

/// A valid "pipes" object: every figure with its source; tests remove or
/// change keys.
json::Object minimalPipes() {
  return json::Object{
      {"clock_mhz", 1000},
      {"tensor_clock_mhz", 500},
      {"per_sm_per_clock",
       json::Object{{"fp32", 128},
                    {"issue", 4},
                    {"tensor", json::Object{{"fp16", 1024}, {"fp64", 64}}}}},
      {"dram_achievable_fraction", 0.9},
      {"sources", json::Object{{"clock_mhz", "a datasheet"},
                               {"tensor_clock_mhz", "a datasheet"},
                               {"fp32", "a guide"},
                               {"issue", "a whitepaper"},
                               {"tensor.fp16", "a datasheet"},
                               {"tensor.fp64", "a datasheet"},
                               {"dram_achievable_fraction", "a paper"}}}};
}

/// Parses a GPU with \p Pipes and returns the error message ("" if none).
std::string pipesError(json::Object Pipes) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["pipes"] = std::move(Pipes);
  return parseError(databaseJson(json::Array{std::move(Gpu)}));
}

json::Object &figuresOf(json::Object &Pipes) {
  return *Pipes.getObject("per_sm_per_clock");
}

TEST(GpuDatabaseTest, ParsesPipesAndScalesThemToTheGpu) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["pipes"] = minimalPipes();
  GpuDatabase DB = parseOrDie(databaseJson(json::Array{std::move(Gpu)}));
  ASSERT_EQ(DB.all().size(), 1u);
  const GpuSpec &G = DB.all().front();
  EXPECT_DOUBLE_EQ(G.Pipes.Clock, 1e9);
  EXPECT_DOUBLE_EQ(G.Pipes.TensorClock, 5e8);
  EXPECT_EQ(G.Pipes.Sources.at("tensor.fp16"), "a datasheet");
  ASSERT_TRUE(G.Pipes.DramAchievableFraction.has_value());
  EXPECT_DOUBLE_EQ(*G.Pipes.DramAchievableFraction, 0.9);
  // 100 SMs: 128 lanes x 100 x 1 GHz; 4 warp instructions x 100 x 1 GHz.
  EXPECT_DOUBLE_EQ(*G.pipeRate("fp32"), 128 * 100 * 1e9);
  EXPECT_DOUBLE_EQ(*G.pipeRate("issue"), 4 * 100 * 1e9);
  // Tensor figures run at the tensor clock, except fp64 (the SM clock).
  EXPECT_DOUBLE_EQ(*G.pipeRate("tensor.fp16"), 1024 * 100 * 5e8);
  EXPECT_DOUBLE_EQ(*G.pipeRate("tensor.fp64"), 64 * 100 * 1e9);
  EXPECT_FALSE(G.pipeRate("fp64").has_value());
  EXPECT_FALSE(G.pipeRate("tensor.fp32").has_value());
  EXPECT_FALSE(G.pipeRate("tensor").has_value());
}

TEST(GpuDatabaseTest, ParsesAccumulateAndInt4TensorPipes) {
  json::Object Gpu = minimalGpu("gpu-a");
  json::Object Pipes = minimalPipes();
  json::Object &Tensor = *figuresOf(Pipes).getObject("tensor");
  Tensor["fp16_fp32acc"] = 512;
  Tensor["int4"] = 4096;
  json::Object &Sources = *Pipes.getObject("sources");
  Sources["tensor.fp16_fp32acc"] = "a whitepaper";
  Sources["tensor.int4"] = "a datasheet";
  Gpu["pipes"] = std::move(Pipes);
  GpuDatabase DB = parseOrDie(databaseJson(json::Array{std::move(Gpu)}));
  ASSERT_EQ(DB.all().size(), 1u);
  const GpuSpec &G = DB.all().front();
  // 100 SMs at the 500 MHz tensor clock.
  EXPECT_DOUBLE_EQ(*G.pipeRate("tensor.fp16_fp32acc"), 512 * 100 * 5e8);
  EXPECT_DOUBLE_EQ(*G.pipeRate("tensor.int4"), 4096 * 100 * 5e8);
}

TEST(GpuDatabaseTest, PipesAreOptional) {
  GpuDatabase DB = parseOrDie(databaseJson(json::Array{minimalGpu("gpu-a")}));
  ASSERT_EQ(DB.all().size(), 1u);
  const GpuSpec &G = DB.all().front();
  EXPECT_TRUE(G.Pipes.empty());
  EXPECT_FALSE(G.pipeRate("fp32").has_value());
  EXPECT_FALSE(G.pipeRate("tensor.fp16").has_value());
}

TEST(GpuDatabaseTest, H100SxmPipeRates) {
  const GpuSpec *H100 = GpuDatabase::builtin().find("h100-sxm");
  ASSERT_NE(H100, nullptr);
  EXPECT_DOUBLE_EQ(H100->Pipes.Clock, 1980e6);
  EXPECT_DOUBLE_EQ(H100->Pipes.TensorClock, 1830e6);
  EXPECT_DOUBLE_EQ(H100->Pipes.PerSMPerClock.at("fp32"), 128);
  EXPECT_DOUBLE_EQ(H100->Pipes.TensorPerSMPerClock.at("fp16"), 4096);

  // 128 FMA results/clk/SM x 132 SMs = 16,896 per clock; x 1.98e9 Hz =
  // 33,454.08e9 = 3.345408e13 FMA results/s (= 66.9 TFLOP/s at 2 FLOP each,
  // the datasheet's 67).
  std::optional<double> Fp32 = H100->pipeRate("fp32");
  ASSERT_TRUE(Fp32.has_value());
  EXPECT_DOUBLE_EQ(*Fp32, 3.345408e13);

  // 4096 FLOP/clk/SM x 132 SMs = 540,672 per clock; x 1.83e9 Hz (the tensor
  // clock) = 989,429.76e9 = 9.8942976e14 FLOP/s: the datasheet's dense
  // 989.4 TFLOP/s, already in peak_tflops.
  std::optional<double> TensorFp16 = H100->pipeRate("tensor.fp16");
  ASSERT_TRUE(TensorFp16.has_value());
  EXPECT_DOUBLE_EQ(*TensorFp16, 9.8942976e14);
  std::optional<double> Peak = H100->peak(ComputeUnit::TensorCore, "fp16");
  ASSERT_TRUE(Peak.has_value());
  EXPECT_NEAR(*TensorFp16 / *Peak, 1.0, 0.001);

  // FP64 tensor runs at the 1.98 GHz SM clock: 256 x 132 x 1.98e9 =
  // 6.690816e13, the datasheet's 67 TFLOP/s.
  EXPECT_DOUBLE_EQ(*H100->pipeRate("tensor.fp64"), 6.690816e13);
  EXPECT_EQ(H100->Pipes.Sources.count("tensor.fp16"), 1u);
}

TEST(GpuDatabaseTest, GeForceFp32AccumulateTensorRateIsHalf) {
  const GpuSpec *Rtx3090 = GpuDatabase::builtin().find("rtx-3090");
  ASSERT_NE(Rtx3090, nullptr);
  std::optional<double> Fp16 = Rtx3090->pipeRate("tensor.fp16");
  std::optional<double> Fp32Acc = Rtx3090->pipeRate("tensor.fp16_fp32acc");
  ASSERT_TRUE(Fp16.has_value());
  ASSERT_TRUE(Fp32Acc.has_value());
  EXPECT_DOUBLE_EQ(*Fp32Acc, *Fp16 / 2);
  // 1024 FLOP/clk/SM x 82 SMs x 1.695e9 Hz = 142.3e12, the whitepaper's
  // FP16-accumulate 142 TFLOP/s.
  EXPECT_NEAR(*Fp16, 142e12, 0.01 * 142e12);
}

/// The per-clock figures times SMs times clock must reproduce the vendor
/// peaks already in the file (where both exist): catches a typo in either.
TEST(GpuDatabaseTest, BuiltinPipeRatesAgreeWithPeaks) {
  constexpr double Tolerance = 0.02;
  unsigned Compared = 0;
  for (const GpuSpec &G : GpuDatabase::builtin().all()) {
    SCOPED_TRACE(G.Id);
    for (const auto &[Precision, Peak] : G.TensorCorePeak) {
      // Peaks and pipes key the two accumulate rates alike.
      std::string Key = "tensor." + Precision;
      std::optional<double> Rate = G.pipeRate(Key);
      if (!Rate)
        continue;
      EXPECT_NEAR(*Rate / Peak, 1.0, Tolerance) << Key;
      ++Compared;
    }
    for (const auto &[Precision, Peak] : G.CudaCorePeak) {
      std::optional<double> Results = G.pipeRate(Precision);
      if (!Results)
        continue;
      // One FMA result is 2 FLOP.
      EXPECT_NEAR(2 * *Results / Peak, 1.0, Tolerance) << Precision;
      ++Compared;
    }
  }
  // Every built-in GPU has at least fp32 and fp64 on both sides.
  EXPECT_GE(Compared, 2 * GpuDatabase::builtin().all().size());
}

TEST(GpuDatabaseTest, BuiltinPipesAreComplete) {
  for (const GpuSpec &G : GpuDatabase::builtin().all()) {
    SCOPED_TRACE(G.Id);
    ASSERT_FALSE(G.Pipes.empty());
    // The per-clock figures use the clock the vendor peaks use.
    EXPECT_DOUBLE_EQ(G.Pipes.Clock, G.SMClock);
    EXPECT_TRUE(G.pipeRate("fp32").has_value());
    EXPECT_TRUE(G.pipeRate("fp64").has_value());
    EXPECT_FALSE(G.Pipes.TensorPerSMPerClock.empty());
    // The loader rejects a figure without a source; every source is text.
    for (const auto &[Key, Source] : G.Pipes.Sources)
      EXPECT_GT(Source.size(), 20u) << Key;
  }
}

TEST(GpuDatabaseTest, UnknownPipeKeyIsAnError) {
  json::Object Pipes = minimalPipes();
  Pipes["clock_mhzz"] = 1000;
  std::string Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains("'gpu-a'")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("unknown key(s) 'clock_mhzz' in 'pipes'"))
      << Msg;

  Pipes = minimalPipes();
  figuresOf(Pipes)["fp33"] = 64;
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains(
      "unknown key(s) 'fp33' in 'pipes.per_sm_per_clock'"))
      << Msg;

  Pipes = minimalPipes();
  figuresOf(Pipes).getObject("tensor")->try_emplace("fp61", 64);
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains(
      "unknown key(s) 'fp61' in 'pipes.per_sm_per_clock.tensor'"))
      << Msg;
}

TEST(GpuDatabaseTest, PipeFigureWithoutSourceIsAnError) {
  json::Object Pipes = minimalPipes();
  figuresOf(Pipes)["lsu"] = 1;
  std::string Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains("gpus[0] (id 'gpu-a')")) << Msg;
  EXPECT_TRUE(StringRef(Msg).contains("figure 'lsu' in 'pipes' has no source"))
      << Msg;

  Pipes = minimalPipes();
  Pipes.getObject("sources")->erase("tensor.fp16");
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(
      StringRef(Msg).contains("figure 'tensor.fp16' in 'pipes' has no source"))
      << Msg;

  Pipes = minimalPipes();
  Pipes.erase("sources");
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains("missing required key 'pipes.sources'"))
      << Msg;

  // A source must name a figure that is there (a misspelt key is caught).
  Pipes = minimalPipes();
  (*Pipes.getObject("sources"))["tensor.fp61"] = "a datasheet";
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains(
      "key 'pipes.sources.tensor.fp61' names no figure present in 'pipes'"))
      << Msg;

  Pipes = minimalPipes();
  (*Pipes.getObject("sources"))["fp32"] = "";
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains(
      "key 'pipes.sources.fp32' must be a non-empty string"))
      << Msg;
}

TEST(GpuDatabaseTest, NonPositivePipeRateIsAnError) {
  for (double Rate : {0.0, -64.0}) {
    json::Object Pipes = minimalPipes();
    figuresOf(Pipes)["fp32"] = Rate;
    std::string Msg = pipesError(std::move(Pipes));
    EXPECT_TRUE(StringRef(Msg).contains("'gpu-a'")) << Msg;
    EXPECT_TRUE(StringRef(Msg).contains(
        "key 'pipes.per_sm_per_clock.fp32' must be positive"))
        << Msg;
  }
  json::Object Pipes = minimalPipes();
  (*figuresOf(Pipes).getObject("tensor"))["fp16"] = 0;
  std::string Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains(
      "key 'pipes.per_sm_per_clock.tensor.fp16' must be positive"))
      << Msg;

  Pipes = minimalPipes();
  Pipes["clock_mhz"] = 0;
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains("key 'pipes.clock_mhz' must be positive"))
      << Msg;
}

TEST(GpuDatabaseTest, BadPipeClockOrFractionIsAnError) {
  json::Object Pipes = minimalPipes();
  Pipes.erase("clock_mhz");
  std::string Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains("missing required key 'pipes.clock_mhz'"))
      << Msg;

  Pipes = minimalPipes();
  Pipes["dram_achievable_fraction"] = 1.2;
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains(
      "key 'pipes.dram_achievable_fraction' must be at most 1"))
      << Msg;

  Pipes = minimalPipes();
  figuresOf(Pipes)["tensor"] = 4096;
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains(
      "key 'pipes.per_sm_per_clock.tensor' must be an object"))
      << Msg;
}

/// "pipes" with latencies: one measured, one a placeholder.
json::Object pipesWithLatencies() {
  json::Object Pipes = minimalPipes();
  Pipes["latency_cycles"] = json::Object{{"dram", 700}, {"fp32", 4}};
  json::Object &Sources = *Pipes.getObject("sources");
  Sources["latency_cycles.dram"] = "a pointer-chase benchmark";
  Sources["latency_cycles.fp32"] =
      "Placeholder, not a measurement: carried over from another chip";
  return Pipes;
}

TEST(GpuDatabaseTest, ParsesLatenciesAndRegisters) {
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["registers_per_sm"] = 65536;
  Gpu["pipes"] = pipesWithLatencies();
  GpuDatabase DB = parseOrDie(databaseJson(json::Array{std::move(Gpu)}));
  ASSERT_EQ(DB.all().size(), 1u);
  const GpuSpec &G = DB.all().front();
  EXPECT_EQ(G.RegistersPerSM, 65536u);
  EXPECT_EQ(G.Pipes.latencyCycles("dram"), 700.0);
  EXPECT_EQ(G.Pipes.latencyCycles("fp32"), 4.0);
  EXPECT_FALSE(G.Pipes.latencyCycles("l2").has_value());
  // The source's first word says which figure stands in for a measurement.
  EXPECT_TRUE(G.Pipes.isPlaceholder("latency_cycles.fp32"));
  EXPECT_FALSE(G.Pipes.isPlaceholder("latency_cycles.dram"));
  EXPECT_FALSE(G.Pipes.isPlaceholder("latency_cycles.l2"));

  // Both are optional.
  GpuDatabase Plain =
      parseOrDie(databaseJson(json::Array{minimalGpu("gpu-b")}));
  ASSERT_EQ(Plain.all().size(), 1u);
  EXPECT_EQ(Plain.all().front().RegistersPerSM, 0u);
  EXPECT_FALSE(Plain.all().front().Pipes.latencyCycles("dram").has_value());
}

TEST(GpuDatabaseTest, BadLatencyIsAnError) {
  json::Object Pipes = pipesWithLatencies();
  (*Pipes.getObject("latency_cycles"))["l3"] = 900;
  std::string Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains("(id 'gpu-a')")) << Msg;
  EXPECT_TRUE(
      StringRef(Msg).contains("unknown key(s) 'l3' in 'pipes.latency_cycles'"))
      << Msg;

  Pipes = pipesWithLatencies();
  Pipes.getObject("sources")->erase("latency_cycles.dram");
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains(
      "figure 'latency_cycles.dram' in 'pipes' has no source"))
      << Msg;

  Pipes = pipesWithLatencies();
  (*Pipes.getObject("sources"))["latency_cycles.l2"] = "a benchmark";
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(StringRef(Msg).contains("key 'pipes.sources.latency_cycles.l2' "
                                      "names no figure present in 'pipes'"))
      << Msg;

  for (double Cycles : {0.0, -4.0}) {
    Pipes = pipesWithLatencies();
    (*Pipes.getObject("latency_cycles"))["fp32"] = Cycles;
    Msg = pipesError(std::move(Pipes));
    EXPECT_TRUE(StringRef(Msg).contains(
        "key 'pipes.latency_cycles.fp32' must be positive"))
        << Msg;
  }

  Pipes = pipesWithLatencies();
  Pipes["latency_cycles"] = 700;
  Msg = pipesError(std::move(Pipes));
  EXPECT_TRUE(
      StringRef(Msg).contains("key 'pipes.latency_cycles' must be an object"))
      << Msg;
}

TEST(GpuDatabaseTest, BadRegistersPerSMIsAnError) {
  for (json::Value Bad : {json::Value(0), json::Value(-65536)}) {
    json::Object Gpu = minimalGpu("gpu-a");
    Gpu["registers_per_sm"] = std::move(Bad);
    std::string Msg = parseError(databaseJson(json::Array{std::move(Gpu)}));
    EXPECT_TRUE(
        StringRef(Msg).contains("key 'registers_per_sm' must be positive"))
        << Msg;
  }
  json::Object Gpu = minimalGpu("gpu-a");
  Gpu["registers_per_sm"] = 65536.5;
  std::string Msg = parseError(databaseJson(json::Array{std::move(Gpu)}));
  EXPECT_TRUE(
      StringRef(Msg).contains("key 'registers_per_sm' must be an integer"))
      << Msg;
}

TEST(GpuDatabaseTest, H100SxmLatencies) {
  const GpuSpec *H100 = GpuDatabase::builtin().find("h100-sxm");
  ASSERT_NE(H100, nullptr);
  EXPECT_EQ(H100->RegistersPerSM, 65536u);
  // Dependent pointer chases on an H100 SXM (markdewing/AI_kernels) and the
  // H800's shared-memory latency (Luo et al., IPDPS 2024, Table IV).
  EXPECT_EQ(H100->Pipes.latencyCycles("dram"), 700.0);
  EXPECT_EQ(H100->Pipes.latencyCycles("l2"), 291.0);
  EXPECT_EQ(H100->Pipes.latencyCycles("l1"), 40.0);
  EXPECT_EQ(H100->Pipes.latencyCycles("shared"), 29.0);
  // No FFMA or mma.sync latency was found for Hopper: both stand in.
  EXPECT_EQ(H100->Pipes.latencyCycles("fp32"), 4.0);
  EXPECT_TRUE(H100->Pipes.isPlaceholder("latency_cycles.fp32"));
  EXPECT_TRUE(H100->Pipes.isPlaceholder("latency_cycles.mma"));
  EXPECT_FALSE(H100->Pipes.isPlaceholder("latency_cycles.dram"));
  // The A100's were measured on it.
  const GpuSpec *A100 = GpuDatabase::builtin().find("a100-40gb-sxm");
  ASSERT_NE(A100, nullptr);
  EXPECT_EQ(A100->Pipes.latencyCycles("mma"), 32.0);
  EXPECT_FALSE(A100->Pipes.isPlaceholder("latency_cycles.mma"));
  EXPECT_FALSE(A100->Pipes.isPlaceholder("latency_cycles.fp32"));
}

/// Checks that hold for every built-in GPU's latencies, whatever the source.
TEST(GpuDatabaseTest, BuiltinLatenciesAreConsistent) {
  for (const GpuSpec &G : GpuDatabase::builtin().all()) {
    SCOPED_TRACE(G.Id);
    // Compute capability 7.0-12.x: 64K registers per SM.
    EXPECT_EQ(G.RegistersPerSM, 65536u);
    const PipeRates &P = G.Pipes;
    // Each level of the hierarchy is slower than the one above it (a
    // missing figure compares as 0 below and infinite above).
    constexpr double None = std::numeric_limits<double>::infinity();
    EXPECT_LE(P.latencyCycles("shared").value_or(0),
              P.latencyCycles("l1").value_or(None));
    EXPECT_LT(P.latencyCycles("l1").value_or(0),
              P.latencyCycles("l2").value_or(None));
    EXPECT_LT(P.latencyCycles("l2").value_or(0),
              P.latencyCycles("dram").value_or(None));
    // A DRAM figure comes with the L2 figure of the same measurement.
    EXPECT_EQ(P.latencyCycles("dram").has_value(),
              P.latencyCycles("dram") && P.latencyCycles("l2"));
    // Memory latencies are all measured: only pipe latencies stand in.
    for (const char *Key : {"dram", "l2", "l1", "shared"})
      EXPECT_FALSE(P.isPlaceholder(std::string("latency_cycles.") + Key))
          << Key;
    // Every GPU has at least the FP32 pipe's (measured or a placeholder).
    EXPECT_TRUE(P.latencyCycles("fp32").has_value());
  }
  const GpuSpec *B200 = GpuDatabase::builtin().find("b200");
  ASSERT_NE(B200, nullptr);
  EXPECT_EQ(B200->Pipes.latencyCycles("tcgen05_mma"), 11.0);
  EXPECT_TRUE(B200->Pipes.isPlaceholder("latency_cycles.tcgen05_mma"));
}

} // namespace
