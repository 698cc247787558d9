//===- GpuDatabase.cpp - GPU peak figures for roofline analysis -----------===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#include "GpuDatabase.h"

#include "BuiltinGpus.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace llvm;

namespace roofline {

StringRef computeUnitName(ComputeUnit U) {
  switch (U) {
  case ComputeUnit::CudaCore:
    return "cuda_core";
  case ComputeUnit::TensorCore:
    return "tensor_core";
  }
  llvm_unreachable("unknown ComputeUnit");
}

/// The tensor figure \p Type ("bf16", "fp16_fp32acc") of \p Figures. A
/// part that lists no "<type>_fp32acc" figure runs FP32 accumulate at its
/// "<type>" rate (data-center and pro parts; GeForce parts list both).
static std::optional<double>
tensorFigure(const std::map<std::string, double> &Figures, StringRef Type) {
  auto It = Figures.find(Type.str());
  if (It == Figures.end() && Type.consume_back("_fp32acc"))
    It = Figures.find(Type.str());
  if (It == Figures.end())
    return std::nullopt;
  return It->second;
}

std::optional<double> GpuSpec::peak(ComputeUnit U, StringRef Precision) const {
  if (U == ComputeUnit::TensorCore)
    return tensorFigure(TensorCorePeak, Precision);
  auto It = CudaCorePeak.find(Precision.str());
  if (It == CudaCorePeak.end())
    return std::nullopt;
  return It->second;
}

std::optional<double> GpuSpec::ridge(ComputeUnit U, StringRef Precision) const {
  std::optional<double> Peak = peak(U, Precision);
  if (!Peak || DramBandwidth <= 0)
    return std::nullopt;
  return *Peak / DramBandwidth;
}

double PipeRates::tensorClock(StringRef Type) const {
  // NVIDIA figures the Hopper/Blackwell FP64 tensor (DMMA) peak at the max
  // SM clock and the lower-precision tensor peaks at a lower clock (H100:
  // 67 TFLOP/s FP64 at 1.98 GHz, 989.4 BF16 at 1.83 GHz).
  if (TensorClock == 0 || Type == "fp64")
    return Clock;
  return TensorClock;
}

std::optional<double> PipeRates::latencyCycles(StringRef Key) const {
  auto It = LatencyCycles.find(Key.str());
  if (It == LatencyCycles.end())
    return std::nullopt;
  return It->second;
}

bool PipeRates::isPlaceholder(StringRef SourceKey) const {
  auto It = Sources.find(SourceKey.str());
  return It != Sources.end() &&
         StringRef(It->second).trim().starts_with_insensitive("placeholder");
}

std::optional<double> GpuSpec::pipeRate(StringRef Key) const {
  if (Pipes.empty())
    return std::nullopt;
  if (Key.consume_front("tensor.")) {
    std::optional<double> Rate = tensorFigure(Pipes.TensorPerSMPerClock, Key);
    if (!Rate)
      return std::nullopt;
    return *Rate * SMs * Pipes.tensorClock(Key);
  }
  auto It = Pipes.PerSMPerClock.find(Key.str());
  if (It == Pipes.PerSMPerClock.end())
    return std::nullopt;
  return It->second * SMs * Pipes.Clock;
}

namespace {

constexpr double BytesPerGB = 1e9;
constexpr double FlopsPerTFlop = 1e12;
constexpr double HzPerMHz = 1e6;
constexpr int64_t SupportedSchemaVersion = 1;

constexpr StringLiteral KnownPrecisions[] = {"fp64", "fp32", "tf32", "fp16",
                                             "bf16", "fp8",  "fp6",  "fp4",
                                             "int8", "int4"};

/// Tensor-core peaks only: the FP32-accumulate rates of fp16 and fp8 MMAs
/// where they differ from the FP16-accumulate "fp16" and "fp8" (GeForce).
constexpr StringLiteral AccumulatePrecisions[] = {"fp16_fp32acc",
                                                  "fp8_fp32acc"};

constexpr StringLiteral GpuKeys[] = {"id",
                                     "name",
                                     "arch",
                                     "sms",
                                     "memory_gb",
                                     "dram_bandwidth_gbs",
                                     "l2_bytes",
                                     "shared_per_sm_bytes",
                                     "shared_per_block_bytes",
                                     "max_threads_per_sm",
                                     "max_blocks_per_sm",
                                     "registers_per_sm",
                                     "l1_shared_per_sm_bytes",
                                     "l2_bandwidth_gbs",
                                     "sm_clock_mhz",
                                     "peak_tflops",
                                     "pipes",
                                     "sources",
                                     "notes"};

constexpr StringLiteral PeakUnitKeys[] = {"cuda_core", "tensor_core"};

constexpr StringLiteral PipeKeys[] = {
    "clock_mhz",        "tensor_clock_mhz",
    "per_sm_per_clock", "dram_achievable_fraction",
    "latency_cycles",   "sources"};

/// The keys of "pipes.latency_cycles": dependent-chain latencies in SM
/// clock cycles, of a load hitting each level and of the FP32 and tensor
/// pipes.
constexpr StringLiteral LatencyKeys[] = {"dram", "l2",  "l1",         "shared",
                                         "fp32", "mma", "tcgen05_mma"};

/// The keys of "pipes.per_sm_per_clock": lane results, warp instructions
/// (issue, lsu) and bytes (shared_bytes, l1_bytes), plus the tensor object.
constexpr StringLiteral PerSMPerClockKeys[] = {
    "fp32",         "fp64",       "fp16",    "bf16",  "int32",
    "mufu",         "conversion", "shuffle", "issue", "lsu",
    "shared_bytes", "l1_bytes",   "tensor"};

constexpr StringLiteral TensorTypeKeys[] = {
    "fp64", "tf32",        "fp16", "fp16_fp32acc", "bf16",
    "fp8",  "fp8_fp32acc", "int8", "int4",         "fp4"};

constexpr StringLiteral TopLevelKeys[] = {"schema_version", "gpus"};

/// Ids are used on command lines and in file names: lower-case letters,
/// digits and '-'.
bool isValidId(StringRef Id) {
  return !Id.empty() && all_of(Id, [](char C) {
    return isLower(C) || isDigit(C) || C == '-';
  });
}

/// Accepts "sm_<digits>" with an optional lower-case suffix ("sm_90a").
bool isValidArch(StringRef Arch) {
  if (!Arch.consume_front("sm_"))
    return false;
  StringRef Digits = Arch.take_while(isDigit);
  if (Digits.empty())
    return false;
  return all_of(Arch.drop_front(Digits.size()), isLower);
}

/// Renders a JSON value for an error message, shortened if long.
std::string describe(const json::Value &V) {
  std::string Text = formatv("{0}", V).str();
  constexpr size_t MaxLen = 40;
  if (Text.size() > MaxLen)
    Text = Text.substr(0, MaxLen) + "...";
  return Text;
}

/// Returns the keys of \p Obj that are not in \p Allowed, sorted.
SmallVector<std::string, 2> unknownKeys(const json::Object &Obj,
                                        ArrayRef<StringLiteral> Allowed) {
  SmallVector<std::string, 2> Unknown;
  for (const auto &KV : Obj) {
    StringRef Key = KV.first;
    if (!is_contained(Allowed, Key))
      Unknown.push_back(Key.str());
  }
  llvm::sort(Unknown);
  return Unknown;
}

std::string quoteList(ArrayRef<std::string> Keys) {
  std::string Out;
  for (const std::string &Key : Keys) {
    if (!Out.empty())
      Out += ", ";
    Out += "'" + Key + "'";
  }
  return Out;
}

std::string quoteList(ArrayRef<StringLiteral> Keys) {
  SmallVector<std::string, 16> Strings;
  for (StringLiteral Key : Keys)
    Strings.push_back(Key.str());
  return quoteList(Strings);
}

/// The object's keys in sorted order, so that the first error is
/// deterministic.
SmallVector<StringRef, 16> sortedKeys(const json::Object &Obj) {
  SmallVector<StringRef, 16> Keys;
  for (const auto &KV : Obj)
    Keys.push_back(KV.first);
  llvm::sort(Keys);
  return Keys;
}

/// Parses one element of "gpus". Every error is prefixed with the source
/// name, the element index and, once known, the GPU id.
class GpuEntryParser {
public:
  GpuEntryParser(StringRef SourceName, size_t Index, const json::Object &Obj)
      : SourceName(SourceName), Index(Index), Obj(Obj) {}

  Expected<GpuSpec> parse();

private:
  Error error(const Twine &Msg) const;
  Expected<const json::Value *> require(StringRef Key) const;
  Error readString(StringRef Key, std::string &Out) const;
  Error readPositiveNumber(const json::Value &V, const Twine &KeyPath,
                           double &Out) const;
  Error readPositiveNumber(StringRef Key, double &Out) const;
  Error readPositiveInteger(StringRef Key, uint64_t Max, uint64_t &Out) const;
  Error readUnsigned(StringRef Key, unsigned &Out) const;
  Error readPeaks(GpuSpec &Spec) const;
  Error readUnitPeaks(const json::Object &Peaks, ComputeUnit U,
                      std::map<std::string, double> &Out) const;
  Error readOptionalMetadata(GpuSpec &Spec) const;
  Expected<const json::Object *> readObject(const json::Value &V,
                                            const Twine &KeyPath) const;
  Error readPipes(GpuSpec &Spec) const;
  Error readPipeFigures(const json::Object &Figures, StringRef Path,
                        ArrayRef<StringLiteral> Allowed,
                        std::map<std::string, double> &Out) const;
  Error readPipeSources(const json::Object &Pipes, PipeRates &Out) const;
  Error checkPipeSources(const PipeRates &Pipes) const;

  StringRef SourceName;
  size_t Index;
  const json::Object &Obj;
  std::string Id; // Set as soon as the id has been validated.
};

Error GpuEntryParser::error(const Twine &Msg) const {
  std::string Where = (SourceName + ": gpus[" + Twine(Index) + "]").str();
  if (!Id.empty())
    Where += " (id '" + Id + "')";
  return createStringError(Where + ": " + Msg);
}

Expected<const json::Value *> GpuEntryParser::require(StringRef Key) const {
  const json::Value *V = Obj.get(Key);
  if (!V)
    return error("missing required key '" + Key + "'");
  return V;
}

Error GpuEntryParser::readString(StringRef Key, std::string &Out) const {
  Expected<const json::Value *> V = require(Key);
  if (!V)
    return V.takeError();
  std::optional<StringRef> S = (*V)->getAsString();
  if (!S)
    return error("key '" + Key + "' must be a string, got " + describe(**V));
  if (S->empty())
    return error("key '" + Key + "' must not be empty");
  Out = S->str();
  return Error::success();
}

Error GpuEntryParser::readPositiveNumber(const json::Value &V,
                                         const Twine &KeyPath,
                                         double &Out) const {
  std::optional<double> D = V.getAsNumber();
  if (!D)
    return error("key '" + KeyPath + "' must be a number, got " + describe(V));
  if (!std::isfinite(*D) || *D <= 0)
    return error("key '" + KeyPath + "' must be positive, got " + describe(V));
  Out = *D;
  return Error::success();
}

Error GpuEntryParser::readPositiveNumber(StringRef Key, double &Out) const {
  Expected<const json::Value *> V = require(Key);
  if (!V)
    return V.takeError();
  return readPositiveNumber(**V, Key, Out);
}

Error GpuEntryParser::readPositiveInteger(StringRef Key, uint64_t Max,
                                          uint64_t &Out) const {
  Expected<const json::Value *> V = require(Key);
  if (!V)
    return V.takeError();
  const json::Value &Val = **V;
  std::optional<double> AsDouble = Val.getAsNumber();
  if (!AsDouble || *AsDouble != std::trunc(*AsDouble))
    return error("key '" + Key + "' must be an integer, got " + describe(Val));
  if (*AsDouble <= 0)
    return error("key '" + Key + "' must be positive, got " + describe(Val));
  // Integer literals convert exactly through getAsUINT64; integral doubles
  // such as 1e6 go through getAsInteger.
  std::optional<uint64_t> U = Val.getAsUINT64();
  if (!U) {
    std::optional<int64_t> I = Val.getAsInteger();
    if (!I)
      return error("key '" + Key + "' is out of range, got " + describe(Val));
    U = static_cast<uint64_t>(*I);
  }
  if (*U > Max)
    return error("key '" + Key + "' is out of range, got " + describe(Val));
  Out = *U;
  return Error::success();
}

Error GpuEntryParser::readUnsigned(StringRef Key, unsigned &Out) const {
  uint64_t Value = 0;
  if (Error E =
          readPositiveInteger(Key, std::numeric_limits<unsigned>::max(), Value))
    return E;
  Out = static_cast<unsigned>(Value);
  return Error::success();
}

Error GpuEntryParser::readUnitPeaks(const json::Object &Peaks, ComputeUnit U,
                                    std::map<std::string, double> &Out) const {
  StringRef UnitName = computeUnitName(U);
  const json::Value *UnitValue = Peaks.get(UnitName);
  if (!UnitValue)
    return Error::success();
  std::string UnitPath = ("peak_tflops." + UnitName).str();
  const json::Object *UnitObj = UnitValue->getAsObject();
  if (!UnitObj)
    return error("key '" + UnitPath + "' must be an object, got " +
                 describe(*UnitValue));
  // Iterate in sorted key order so that the first error is deterministic.
  SmallVector<StringRef, 8> Precisions;
  for (const auto &KV : *UnitObj)
    Precisions.push_back(KV.first);
  llvm::sort(Precisions);
  for (StringRef Precision : Precisions) {
    std::string KeyPath = UnitPath + "." + Precision.str();
    bool Accumulate = is_contained(AccumulatePrecisions, Precision);
    if (Accumulate && U != ComputeUnit::TensorCore)
      return error("precision key '" + KeyPath +
                   "' is for tensor cores only (under 'tensor_core')");
    if (!Accumulate && !is_contained(KnownPrecisions, Precision))
      return error("unknown precision key '" + KeyPath +
                   "' (expected one of fp64, fp32, tf32, fp16, bf16, fp8, "
                   "fp6, fp4, int8, int4; fp16_fp32acc, fp8_fp32acc for "
                   "tensor cores)");
    double TFlops = 0;
    if (Error E = readPositiveNumber(*UnitObj->get(Precision), KeyPath, TFlops))
      return E;
    Out[Precision.str()] = TFlops * FlopsPerTFlop;
  }
  return Error::success();
}

Error GpuEntryParser::readPeaks(GpuSpec &Spec) const {
  Expected<const json::Value *> V = require("peak_tflops");
  if (!V)
    return V.takeError();
  const json::Object *Peaks = (*V)->getAsObject();
  if (!Peaks)
    return error("key 'peak_tflops' must be an object, got " + describe(**V));
  SmallVector<std::string, 2> Unknown = unknownKeys(*Peaks, PeakUnitKeys);
  if (!Unknown.empty())
    return error("unknown key(s) " + quoteList(Unknown) +
                 " in 'peak_tflops' (expected 'cuda_core', 'tensor_core')");
  if (Error E = readUnitPeaks(*Peaks, ComputeUnit::CudaCore, Spec.CudaCorePeak))
    return E;
  if (Error E =
          readUnitPeaks(*Peaks, ComputeUnit::TensorCore, Spec.TensorCorePeak))
    return E;
  if (Spec.CudaCorePeak.empty() && Spec.TensorCorePeak.empty())
    return error("key 'peak_tflops' lists no peaks");
  return Error::success();
}

Error GpuEntryParser::readOptionalMetadata(GpuSpec &Spec) const {
  if (const json::Value *Sources = Obj.get("sources")) {
    const json::Array *Arr = Sources->getAsArray();
    if (!Arr)
      return error("key 'sources' must be an array of strings, got " +
                   describe(*Sources));
    for (const json::Value &Item : *Arr) {
      std::optional<StringRef> S = Item.getAsString();
      if (!S)
        return error("key 'sources' must be an array of strings, got " +
                     describe(Item) + " as an element");
      Spec.Sources.push_back(S->str());
    }
  }
  if (const json::Value *Notes = Obj.get("notes")) {
    std::optional<StringRef> S = Notes->getAsString();
    if (!S)
      return error("key 'notes' must be a string, got " + describe(*Notes));
    Spec.Notes = S->str();
  }
  return Error::success();
}

Expected<const json::Object *>
GpuEntryParser::readObject(const json::Value &V, const Twine &KeyPath) const {
  const json::Object *Obj = V.getAsObject();
  if (!Obj)
    return error("key '" + KeyPath + "' must be an object, got " + describe(V));
  return Obj;
}

/// Reads the numbers of one "pipes" object (per_sm_per_clock or its tensor
/// part); a non-numeric key such as "tensor" is read by the caller.
Error GpuEntryParser::readPipeFigures(
    const json::Object &Figures, StringRef Path,
    ArrayRef<StringLiteral> Allowed, std::map<std::string, double> &Out) const {
  SmallVector<std::string, 2> Unknown = unknownKeys(Figures, Allowed);
  if (!Unknown.empty())
    return error("unknown key(s) " + quoteList(Unknown) + " in '" + Path +
                 "' (expected " + quoteList(Allowed) + ")");
  for (StringRef Key : sortedKeys(Figures)) {
    if (Key == "tensor")
      continue;
    double Rate = 0;
    if (Error E = readPositiveNumber(*Figures.get(Key), Path + "." + Key, Rate))
      return E;
    Out[Key.str()] = Rate;
  }
  return Error::success();
}

Error GpuEntryParser::readPipeSources(const json::Object &Pipes,
                                      PipeRates &Out) const {
  const json::Value *SourcesValue = Pipes.get("sources");
  if (!SourcesValue)
    return error("missing required key 'pipes.sources' (every figure in "
                 "'pipes' names its source)");
  Expected<const json::Object *> Sources =
      readObject(*SourcesValue, "pipes.sources");
  if (!Sources)
    return Sources.takeError();
  for (StringRef Key : sortedKeys(**Sources)) {
    std::optional<StringRef> Text = (*Sources)->get(Key)->getAsString();
    if (!Text || Text->trim().empty())
      return error("key 'pipes.sources." + Key +
                   "' must be a non-empty string, got " +
                   describe(*(*Sources)->get(Key)));
    Out.Sources[Key.str()] = Text->str();
  }
  return Error::success();
}

/// Every figure names its source and every source names a figure, so that
/// neither an uncited number nor a misspelt source key goes unnoticed.
Error GpuEntryParser::checkPipeSources(const PipeRates &Pipes) const {
  SmallVector<std::string, 24> Figures = {"clock_mhz"};
  if (Pipes.TensorClock != 0)
    Figures.push_back("tensor_clock_mhz");
  for (const auto &KV : Pipes.PerSMPerClock)
    Figures.push_back(KV.first);
  for (const auto &KV : Pipes.TensorPerSMPerClock)
    Figures.push_back("tensor." + KV.first);
  if (Pipes.DramAchievableFraction)
    Figures.push_back("dram_achievable_fraction");
  for (const auto &KV : Pipes.LatencyCycles)
    Figures.push_back("latency_cycles." + KV.first);
  for (const std::string &Figure : Figures)
    if (!Pipes.Sources.count(Figure))
      return error("figure '" + Figure +
                   "' in 'pipes' has no source (add 'pipes.sources." + Figure +
                   "')");
  for (const auto &KV : Pipes.Sources)
    if (!is_contained(Figures, KV.first))
      return error("key 'pipes.sources." + KV.first +
                   "' names no figure present in 'pipes'");
  return Error::success();
}

Error GpuEntryParser::readPipes(GpuSpec &Spec) const {
  const json::Value *PipesValue = Obj.get("pipes");
  if (!PipesValue)
    return Error::success();
  Expected<const json::Object *> Pipes = readObject(*PipesValue, "pipes");
  if (!Pipes)
    return Pipes.takeError();
  SmallVector<std::string, 2> Unknown = unknownKeys(**Pipes, PipeKeys);
  if (!Unknown.empty())
    return error("unknown key(s) " + quoteList(Unknown) + " in 'pipes' " +
                 "(expected " + quoteList(PipeKeys) + ")");

  PipeRates &Out = Spec.Pipes;
  const json::Value *Clock = (*Pipes)->get("clock_mhz");
  if (!Clock)
    return error("missing required key 'pipes.clock_mhz'");
  if (Error E = readPositiveNumber(*Clock, "pipes.clock_mhz", Out.Clock))
    return E;
  Out.Clock *= HzPerMHz;
  if (const json::Value *TensorClock = (*Pipes)->get("tensor_clock_mhz")) {
    if (Error E = readPositiveNumber(*TensorClock, "pipes.tensor_clock_mhz",
                                     Out.TensorClock))
      return E;
    Out.TensorClock *= HzPerMHz;
  }

  const json::Value *FiguresValue = (*Pipes)->get("per_sm_per_clock");
  if (!FiguresValue)
    return error("missing required key 'pipes.per_sm_per_clock'");
  Expected<const json::Object *> Figures =
      readObject(*FiguresValue, "pipes.per_sm_per_clock");
  if (!Figures)
    return Figures.takeError();
  if (Error E = readPipeFigures(**Figures, "pipes.per_sm_per_clock",
                                PerSMPerClockKeys, Out.PerSMPerClock))
    return E;
  if (const json::Value *TensorValue = (*Figures)->get("tensor")) {
    Expected<const json::Object *> Tensor =
        readObject(*TensorValue, "pipes.per_sm_per_clock.tensor");
    if (!Tensor)
      return Tensor.takeError();
    if (Error E = readPipeFigures(**Tensor, "pipes.per_sm_per_clock.tensor",
                                  TensorTypeKeys, Out.TensorPerSMPerClock))
      return E;
  }

  if (const json::Value *Fraction = (*Pipes)->get("dram_achievable_fraction")) {
    double Value = 0;
    if (Error E = readPositiveNumber(*Fraction,
                                     "pipes.dram_achievable_fraction", Value))
      return E;
    if (Value > 1)
      return error(Twine("key 'pipes.dram_achievable_fraction' must be at "
                         "most 1, got ") +
                   describe(*Fraction));
    Out.DramAchievableFraction = Value;
  }

  if (const json::Value *Latency = (*Pipes)->get("latency_cycles")) {
    Expected<const json::Object *> Cycles =
        readObject(*Latency, "pipes.latency_cycles");
    if (!Cycles)
      return Cycles.takeError();
    if (Error E = readPipeFigures(**Cycles, "pipes.latency_cycles", LatencyKeys,
                                  Out.LatencyCycles))
      return E;
  }

  if (Error E = readPipeSources(**Pipes, Out))
    return E;
  return checkPipeSources(Out);
}

Expected<GpuSpec> GpuEntryParser::parse() {
  GpuSpec Spec;

  // The id comes first so that all later errors can name the GPU.
  std::string RawId;
  if (Error E = readString("id", RawId))
    return E;
  if (!isValidId(RawId))
    return error("key 'id' must be lower-case letters, digits and '-', got '" +
                 RawId + "'");
  Id = RawId;
  Spec.Id = RawId;

  SmallVector<std::string, 2> Unknown = unknownKeys(Obj, GpuKeys);
  if (!Unknown.empty())
    return error("unknown key(s) " + quoteList(Unknown));

  if (Error E = readString("name", Spec.Name))
    return E;
  if (Error E = readString("arch", Spec.Arch))
    return E;
  if (!isValidArch(Spec.Arch))
    return error("key 'arch' must look like 'sm_90' or 'sm_90a', got '" +
                 Spec.Arch + "'");
  if (Error E = readUnsigned("sms", Spec.SMs))
    return E;
  if (Error E = readPositiveNumber("memory_gb", Spec.MemoryGB))
    return E;
  double BandwidthGBs = 0;
  if (Error E = readPositiveNumber("dram_bandwidth_gbs", BandwidthGBs))
    return E;
  Spec.DramBandwidth = BandwidthGBs * BytesPerGB;

  constexpr uint64_t MaxBytes = std::numeric_limits<uint64_t>::max();
  if (Error E = readPositiveInteger("l2_bytes", MaxBytes, Spec.L2Bytes))
    return E;
  if (Error E = readPositiveInteger("shared_per_sm_bytes", MaxBytes,
                                    Spec.SharedPerSMBytes))
    return E;
  if (Error E = readPositiveInteger("shared_per_block_bytes", MaxBytes,
                                    Spec.SharedPerBlockBytes))
    return E;
  if (Spec.SharedPerBlockBytes > Spec.SharedPerSMBytes)
    return error("key 'shared_per_block_bytes' (" +
                 Twine(Spec.SharedPerBlockBytes) +
                 ") exceeds 'shared_per_sm_bytes' (" +
                 Twine(Spec.SharedPerSMBytes) + ")");
  if (Error E = readUnsigned("max_threads_per_sm", Spec.MaxThreadsPerSM))
    return E;
  if (Error E = readUnsigned("max_blocks_per_sm", Spec.MaxBlocksPerSM))
    return E;
  if (Obj.get("registers_per_sm"))
    if (Error E = readUnsigned("registers_per_sm", Spec.RegistersPerSM))
      return E;

  // Optional: the reuse cost model (docs/findings.md) needs them and says
  // so when a GPU lacks them.
  if (Obj.get("l1_shared_per_sm_bytes")) {
    if (Error E = readPositiveInteger("l1_shared_per_sm_bytes", MaxBytes,
                                      Spec.L1SharedPerSMBytes))
      return E;
    if (Spec.L1SharedPerSMBytes < Spec.SharedPerSMBytes)
      return error("key 'l1_shared_per_sm_bytes' (" +
                   Twine(Spec.L1SharedPerSMBytes) +
                   ") is less than 'shared_per_sm_bytes' (" +
                   Twine(Spec.SharedPerSMBytes) + ")");
  }
  if (Obj.get("l2_bandwidth_gbs")) {
    double L2GBs = 0;
    if (Error E = readPositiveNumber("l2_bandwidth_gbs", L2GBs))
      return E;
    Spec.L2Bandwidth = L2GBs * BytesPerGB;
  }
  if (Obj.get("sm_clock_mhz")) {
    double MHz = 0;
    if (Error E = readPositiveNumber("sm_clock_mhz", MHz))
      return E;
    Spec.SMClock = MHz * 1e6;
  }

  if (Error E = readPeaks(Spec))
    return E;
  if (Error E = readPipes(Spec))
    return E;
  if (Error E = readOptionalMetadata(Spec))
    return E;
  return Spec;
}

} // namespace

Expected<GpuDatabase> GpuDatabase::parse(StringRef JsonText,
                                         StringRef SourceName) {
  Expected<json::Value> Root = json::parse(JsonText);
  if (!Root)
    return createStringError(SourceName +
                             ": invalid JSON: " + toString(Root.takeError()));

  const json::Object *Top = Root->getAsObject();
  if (!Top)
    return createStringError(SourceName +
                             ": top-level JSON value must be an object");
  SmallVector<std::string, 2> Unknown = unknownKeys(*Top, TopLevelKeys);
  if (!Unknown.empty())
    return createStringError(SourceName + ": unknown top-level key(s) " +
                             quoteList(Unknown) +
                             " (expected 'schema_version', 'gpus')");

  const json::Value *Version = Top->get("schema_version");
  if (!Version)
    return createStringError(SourceName +
                             ": missing required key 'schema_version'");
  std::optional<int64_t> VersionNumber = Version->getAsInteger();
  if (!VersionNumber || *VersionNumber != SupportedSchemaVersion)
    return createStringError(SourceName + ": unsupported 'schema_version' " +
                             describe(*Version) + " (expected " +
                             Twine(SupportedSchemaVersion) + ")");

  const json::Value *GpusValue = Top->get("gpus");
  if (!GpusValue)
    return createStringError(SourceName + ": missing required key 'gpus'");
  const json::Array *GpuArray = GpusValue->getAsArray();
  if (!GpuArray)
    return createStringError(SourceName +
                             ": key 'gpus' must be an array, got " +
                             describe(*GpusValue));

  GpuDatabase DB;
  StringMap<size_t> FirstIndex;
  for (size_t I = 0, E = GpuArray->size(); I != E; ++I) {
    const json::Value &Entry = (*GpuArray)[I];
    const json::Object *Obj = Entry.getAsObject();
    if (!Obj)
      return createStringError(SourceName + ": gpus[" + Twine(I) +
                               "]: must be an object, got " + describe(Entry));
    Expected<GpuSpec> Spec = GpuEntryParser(SourceName, I, *Obj).parse();
    if (!Spec)
      return Spec.takeError();
    auto [It, Inserted] = FirstIndex.try_emplace(Spec->Id, I);
    if (!Inserted)
      return createStringError(SourceName + ": gpus[" + Twine(I) + "] (id '" +
                               Spec->Id + "'): duplicate id '" + Spec->Id +
                               "' (first defined at gpus[" + Twine(It->second) +
                               "])");
    DB.Gpus.push_back(std::move(*Spec));
  }
  return DB;
}

const GpuDatabase &GpuDatabase::builtin() {
  static const GpuDatabase Builtin = [] {
    Expected<GpuDatabase> DB =
        parse(builtinGpuJson(), "builtin analysis/machine/data/gpus.json");
    if (!DB)
      report_fatal_error(Twine("embedded GPU database is invalid: ") +
                         toString(DB.takeError()));
    return std::move(*DB);
  }();
  return Builtin;
}

void GpuDatabase::merge(const GpuDatabase &Other) {
  for (const GpuSpec &Spec : Other.Gpus) {
    auto It = find_if(
        Gpus, [&](const GpuSpec &Existing) { return Existing.Id == Spec.Id; });
    if (It != Gpus.end()) {
      *It = Spec;
      continue;
    }
    Gpus.push_back(Spec);
  }
}

const GpuSpec *GpuDatabase::find(StringRef Id) const {
  auto It = find_if(Gpus, [&](const GpuSpec &Spec) {
    return Id.equals_insensitive(Spec.Id);
  });
  if (It == Gpus.end())
    return nullptr;
  return &*It;
}

} // namespace roofline

llvm::Expected<roofline::GpuDatabase>
roofline::GpuDatabase::withFiles(llvm::ArrayRef<std::string> Files) {
  GpuDatabase Gpus = builtin();
  for (const std::string &F : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(F);
    if (!Buf)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot read --gpu-file '" + F +
                                         "': " + Buf.getError().message());
    auto Extra = parse((*Buf)->getBuffer(), F);
    if (!Extra)
      return Extra.takeError();
    Gpus.merge(*Extra);
  }
  return std::move(Gpus);
}
