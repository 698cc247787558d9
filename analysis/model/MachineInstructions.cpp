//===- MachineInstructions.cpp --------------------------------------------===//

#include "MachineInstructions.h"
#include "Counters.h"
#include "Expansions.h"
#include "LoadRounds.h"
#include "WideAddresses.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cctype>
#include <cstdlib>

using namespace roofline;
using llvm::StringRef;

namespace {
enum class TypeKind {
  None,
  Int,
  Int64,
  F32,
  F32x2,
  F64,
  F16,
  F16x2,
  Bf16,
  Bf16x2,
  OtherFloat
};
} // namespace

static TypeKind typeKind(StringRef Mod) {
  return llvm::StringSwitch<TypeKind>(Mod)
      .Cases({"s8", "u8", "b8", "s16", "u16", "b16", "s32", "u32", "b32"},
             TypeKind::Int)
      .Cases({"s64", "u64", "b64"}, TypeKind::Int64)
      .Case("f32", TypeKind::F32)
      .Case("f32x2", TypeKind::F32x2)
      .Case("f64", TypeKind::F64)
      .Case("f16", TypeKind::F16)
      .Case("f16x2", TypeKind::F16x2)
      .Case("bf16", TypeKind::Bf16)
      .Case("bf16x2", TypeKind::Bf16x2)
      .Cases({"tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2"}, TypeKind::OtherFloat)
      .Default(TypeKind::None);
}

static bool isFloat(TypeKind K) {
  return K != TypeKind::None && K != TypeKind::Int && K != TypeKind::Int64;
}

static void add(OpCounts &Out, const char *Counter, int64_t N) {
  if (N)
    Out[Counter] += N;
}

/// An instruction of Class that issues once.
static void one(OpCounts &Out, const char *Class, int64_t Lanes = 1) {
  add(Out, Class, Lanes);
  add(Out, counter::InstIssue, 1);
}

/// What ptxas expands Op into (the expansion table): its MUFU
/// instructions, and its FLOPs as FFMAs (2 each), the fewest instructions
/// that execute them.
static bool expanded(StringRef Op, OpCounts &Out) {
  const ExpansionTable &T = ExpansionTable::builtin();
  const Expansion *E = T.find(Op);
  std::string NoFtz;
  if (!E) {
    NoFtz = Op.str();
    size_t P = NoFtz.find(".ftz");
    if (P != std::string::npos)
      NoFtz.erase(P, 4);
    E = T.find(NoFtz);
  }
  if (!E)
    return false;
  int64_t Fp32 = 0, Fp64 = 0;
  if (auto It = E->Flops.find("fp32"); It != E->Flops.end())
    Fp32 = (It->second + 1) / 2;
  if (auto It = E->Flops.find("fp64"); It != E->Flops.end())
    Fp64 = (It->second + 1) / 2;
  add(Out, counter::InstMufu, E->Xu);
  add(Out, counter::InstFp32, Fp32);
  add(Out, counter::InstFp64, Fp64);
  add(Out, counter::InstIssue, E->Xu + Fp32 + Fp64);
  return true;
}

/// add, sub, mul, fma, mad on a floating-point type: the FP pipes.
static void floatArithmetic(TypeKind K, OpCounts &Out) {
  switch (K) {
  case TypeKind::F32:
    return one(Out, counter::InstFp32);
  case TypeKind::F32x2:
    return one(Out, counter::InstFp32, 2);
  case TypeKind::F64:
    return one(Out, counter::InstFp64);
  case TypeKind::F16:
    return one(Out, counter::InstFp16);
  case TypeKind::F16x2:
    return one(Out, counter::InstFp16, 2);
  case TypeKind::Bf16:
    return one(Out, counter::InstBf16);
  case TypeKind::Bf16x2:
    return one(Out, counter::InstBf16, 2);
  default:
    return one(Out, counter::InstAlu);
  }
}

static bool readsSpecialRegister(StringRef Operands) {
  for (StringRef R : {"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid",
                      "%warpid", "%smid", "%clock", "%globaltimer"})
    if (Operands.contains(R))
      return true;
  return false;
}

static void classifyOpcode(StringRef Opcode, StringRef Operands,
                           OpCounts &Out) {
  llvm::SmallVector<StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  StringRef Base = Parts[0];
  llvm::ArrayRef<StringRef> Mods = llvm::ArrayRef(Parts).drop_front();
  auto has = [&](StringRef M) { return llvm::is_contained(Mods, M); };
  TypeKind Type = TypeKind::None;
  llvm::SmallVector<TypeKind, 2> Types;
  for (StringRef M : Mods)
    if (TypeKind K = typeKind(M); K != TypeKind::None) {
      Type = K;
      Types.push_back(K);
    }

  // Kernel parameters are operands of the machine instructions that use
  // them, and ptxas removes register copies.
  if ((Base == "ld" || Base == "st") && has("param"))
    return;
  // A generic address is the global one: no instruction converts it.
  if (Base == "cvta")
    return;
  if (Base == "mov")
    return readsSpecialRegister(Operands) ? one(Out, counter::InstAlu) : void();
  if (Base == "wmma")
    return one(Out, Mods.empty() || Mods[0] == "mma" ? counter::InstTensor
                                                     : counter::InstMemory);
  if (Base == "mma" || Base == "wgmma" || Base == "tcgen05")
    return one(Out, counter::InstTensor);
  // The bookkeeping of asynchronous copies moves nothing.
  if (Base == "cp" && llvm::any_of(Mods, [](StringRef M) {
        return M == "commit_group" || M == "wait_group" || M == "wait_all";
      }))
    return void(add(Out, counter::InstIssue, 1));
  if (Base == "ld" || Base == "st" || Base == "ldu" || Base == "atom" ||
      Base == "red" || Base == "ldmatrix" || Base == "stmatrix" ||
      Base == "prefetch" || Base == "cp" || Base == "tex" || Base == "suld" ||
      Base == "sust")
    return one(Out, counter::InstMemory);
  if (Base == "shfl")
    return one(Out, counter::InstShuffle);
  if (Base == "cvt") {
    bool Float = llvm::any_of(Types, isFloat);
    bool Same = Types.size() == 2 && Types[0] == Types[1];
    return one(Out, Float && (!Same || Mods.size() > 2) ? counter::InstConvert
                                                        : counter::InstAlu);
  }
  if (isFloat(Type) && (Base == "div" || Base == "rcp" || Base == "sqrt" ||
                        Base == "rsqrt" || Base == "ex2" || Base == "lg2" ||
                        Base == "sin" || Base == "cos" || Base == "tanh")) {
    if (expanded(Opcode, Out))
      return;
    return has("approx") ? one(Out, counter::InstMufu)
                         : floatArithmetic(Type, Out);
  }
  if (Base == "add" || Base == "sub" || Base == "mul" || Base == "fma" ||
      Base == "mad") {
    if (isFloat(Type)) {
      if (Base == "fma" || Base == "mad")
        add(Out, counter::InstFma, 1);
      return floatArithmetic(Type, Out);
    }
    if (Base == "mul" || Base == "mad")
      return one(Out, counter::InstIntMad, Type == TypeKind::Int64 ? 2 : 1);
  }
  if (Base == "mul24" || Base == "mad24" || Base == "dp4a" || Base == "dp2a")
    return one(Out, counter::InstIntMad);
  if (Type == TypeKind::F64 &&
      (Base == "setp" || Base == "min" || Base == "max" || Base == "neg" ||
       Base == "abs"))
    return one(Out, counter::InstFp64);
  if (Base == "call")
    add(Out, counter::InstCall, 1);
  if (Base == "bar" || Base == "barrier" || Base == "membar" ||
      Base == "fence" || Base == "bra" || Base == "ret" || Base == "exit" ||
      Base == "call" || Base == "trap" || Base == "nanosleep" ||
      Base == "brx" || Base == "elect" || Base == "mbarrier")
    return void(add(Out, counter::InstIssue, 1));
  // Integer and logic operations, comparisons, selects, and the
  // floating-point compares and min/max the ALU does; a 64-bit one is two
  // 32-bit halves.
  int64_t N = Type == TypeKind::Int64 ? 2 : 1;
  add(Out, counter::InstAlu, N);
  add(Out, counter::InstIssue, N);
}

std::pair<StringRef, StringRef>
roofline::ptxOpcodeAndOperands(StringRef Statement) {
  StringRef S = Statement.trim();
  while (!S.empty() && (S.front() == '{' || S.front() == '}'))
    S = S.drop_front().ltrim();
  S = S.split("//").first.trim();
  if (S.empty() || S.front() == '.' || S.back() == ':')
    return {};
  if (S.front() == '@') // A guard predicate: @%p1 or @!%p1.
    S = S.split(' ').second.ltrim();
  auto [Opcode, Operands] = S.split(' ');
  if (Opcode.empty() || !std::isalpha(static_cast<unsigned char>(Opcode[0])))
    return {};
  return {Opcode, Operands.trim()};
}

void roofline::classifyPtxInstruction(StringRef Statement, OpCounts &Out) {
  auto [Opcode, Operands] = ptxOpcodeAndOperands(Statement);
  if (!Opcode.empty())
    classifyOpcode(Opcode, Operands, Out);
}

std::pair<StringRef, StringRef>
roofline::ptxDestinationAndSources(StringRef Opcode, StringRef Operands) {
  if (Opcode.starts_with("st.") || Opcode.starts_with("red.") ||
      Opcode.starts_with("cp.") || Opcode.starts_with("prefetch") ||
      Operands.starts_with("["))
    return {StringRef(), Operands};
  size_t End =
      Operands.starts_with("{") ? Operands.find('}') : Operands.find(',');
  if (End == StringRef::npos)
    return {Operands, StringRef()};
  return {Operands.take_front(End + 1), Operands.drop_front(End + 1)};
}

llvm::SmallVector<StringRef, 8> roofline::ptxRegisters(StringRef Text) {
  llvm::SmallVector<StringRef, 8> Out;
  for (size_t I = Text.find('%'); I != StringRef::npos;
       I = Text.find('%', I + 1)) {
    size_t E = I + 1;
    while (E < Text.size() &&
           (std::isalnum(static_cast<unsigned char>(Text[E])) ||
            Text[E] == '_' || Text[E] == '.' || Text[E] == '$'))
      ++E;
    if (E > I + 1)
      Out.push_back(Text.slice(I, E));
  }
  return Out;
}

bool roofline::isPtxFunctionStart(StringRef Line) {
  for (StringRef W : {".entry", ".func"}) {
    size_t P = Line.find(W);
    if (P != StringRef::npos &&
        (P + W.size() == Line.size() || Line[P + W.size()] == ' '))
      return Line.front() == '.';
  }
  return false;
}

namespace {
/// One machine basic block of the PTX: its instructions and the markers in
/// it (marker -> copies).
struct MachineBlock {
  OpCounts Counts;
  std::map<size_t, int64_t> Markers; ///< Copies of each marked block.
  std::optional<size_t> Beside;      ///< Runs as often as one copy of it.
  bool Rest = false;                 ///< In a partial unroll's remainder.
  bool FunctionStart = false;
  PtxBlock Code;
};
} // namespace

/// Adds the global-load rounds of the function whose blocks start at First
/// (LoadRounds.h) to the blocks their regions start in.
static void addLoadRounds(std::vector<MachineBlock> &Blocks, size_t First) {
  std::vector<PtxBlock> Code;
  for (size_t I = First; I < Blocks.size(); ++I)
    Code.push_back(std::move(Blocks[I].Code));
  std::vector<RegionRounds> Rounds = loadRounds(Code);
  for (size_t I = 0; I < Rounds.size(); ++I) {
    OpCounts &Counts = Blocks[First + I].Counts;
    if (Rounds[I].Rounds)
      Counts[counter::InstLoadRounds] += Rounds[I].Rounds;
    if (Rounds[I].AtBarrier)
      Counts[counter::InstBarrierRounds] += Rounds[I].AtBarrier;
  }
}

/// The machine blocks of P in layout order. Instructions before a function's
/// first marker (its parameter set-up) open its first block.
static std::vector<MachineBlock> machineBlocks(const MarkedPtx &P) {
  std::vector<MachineBlock> Blocks;
  bool InFunction = false, EndsBlock = true;
  size_t First = 0;
  WideAddresses Wide;
  StringRef Rest = P.Ptx;
  while (!Rest.empty()) {
    StringRef Line;
    std::tie(Line, Rest) = Rest.split('\n');
    Line = Line.trim();
    if (isPtxFunctionStart(Line)) {
      if (InFunction)
        addLoadRounds(Blocks, First);
      InFunction = EndsBlock = true;
      First = Blocks.size();
      Blocks.emplace_back().FunctionStart = true;
      Wide = WideAddresses::of(Rest);
      continue;
    }
    if (!InFunction)
      continue;
    bool Label = Line.starts_with("$L__BB") && Line.ends_with(":");
    if (Label || EndsBlock) {
      const MachineBlock &Back = Blocks.back();
      if (!Back.Counts.empty() || !Back.Markers.empty() || Back.Beside ||
          Back.Rest)
        Blocks.emplace_back();
      EndsBlock = false;
    }
    if (Label)
      Blocks.back().Code.Labels.push_back(Line.drop_back());
    if (Line.contains(BlockMarker)) {
      std::optional<MarkerRef> R = parseMarker(Line);
      if (R && R->Id < P.Blocks.size()) {
        if (R->Kind == MarkerKind::Copy)
          ++Blocks.back().Markers[R->Id];
        else if (R->Kind == MarkerKind::Beside)
          Blocks.back().Beside = R->Id;
        else
          Blocks.back().Rest = true;
      }
      continue;
    }
    llvm::SmallVector<StringRef, 4> Statements;
    Line.split("//").first.split(Statements, ';');
    for (StringRef S : Statements) {
      auto [Opcode, Operands] = ptxOpcodeAndOperands(S);
      if (Opcode.empty())
        continue;
      OpCounts &Counts = Blocks.back().Counts;
      if (!Wide.count(Opcode, Operands, Counts))
        classifyOpcode(Opcode, Operands, Counts);
      Blocks.back().Code.Statements.push_back(S);
      if (Opcode.starts_with("bra") || Opcode.starts_with("ret") ||
          Opcode.starts_with("exit"))
        EndsBlock = true;
    }
  }
  if (InFunction)
    addLoadRounds(Blocks, First);
  return Blocks;
}

std::map<const llvm::BasicBlock *, std::map<std::string, Rational>>
roofline::blockInstructions(const MarkedPtx &P) {
  std::vector<MachineBlock> Blocks = machineBlocks(P);
  std::vector<int64_t> Copies(P.Blocks.size(), 0);
  for (const MachineBlock &B : Blocks)
    for (auto [Id, N] : B.Markers)
      Copies[Id] += N;
  std::map<const llvm::BasicBlock *, std::map<std::string, Rational>> Out;
  std::optional<size_t> Last;
  for (const MachineBlock &B : Blocks) {
    if (B.FunctionStart)
      Last.reset();
    std::optional<size_t> Owner;
    double Share = 0;
    for (auto [Id, N] : B.Markers)
      if (double S = double(N) / double(Copies[Id]); S > Share) {
        Share = S;
        Owner = Id;
      }
    if (!Owner)
      Owner = B.Beside;
    // A remainder loop runs fewer times per entry than the unroll count:
    // against the unrolled body's, it and the blocks split off it are
    // charged nothing.
    if (!Owner && B.Rest) {
      Last.reset();
      continue;
    }
    if (!Owner)
      Owner = Last;
    if (!Owner)
      continue;
    Last = Owner;
    auto &Counts = Out[P.Blocks[*Owner]];
    for (auto &KV : B.Counts) {
      Rational &C = Counts[KV.first];
      C = C +
          Rational(KV.second) / Rational(std::max<int64_t>(Copies[*Owner], 1));
    }
  }
  // A marked block whose machine block went to another marker still has
  // counts (none): the engine walks only blocks with instructions.
  return Out;
}
