//===- LoadRounds.cpp -----------------------------------------------------===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#include "LoadRounds.h"
#include "MachineInstructions.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

using namespace roofline;
using llvm::StringRef;

/// The guard predicate of a statement ("@%p1", "@!%p1"), or "".
static StringRef guard(StringRef Statement) {
  StringRef S = Statement.ltrim(" \t{}");
  return S.starts_with("@") ? S.split(' ').first : StringRef();
}

/// A load whose data comes from global memory: ld/ldu of the global space,
/// or a bulk (TMA) copy from global into shared memory.
static bool loadsGlobal(StringRef Opcode) {
  size_t Global = Opcode.find(".global");
  if (Global == StringRef::npos)
    return false;
  if (Opcode.starts_with("ld.") || Opcode.starts_with("ldu."))
    return true;
  return Opcode.starts_with("cp.async.bulk") && Opcode.find(".shared") < Global;
}

/// A barrier every thread of the block waits at (bar.sync, barrier.sync,
/// bar.red), not an arrival or a warp's own.
static bool blockBarrier(StringRef Opcode) {
  return (Opcode.starts_with("bar.") || Opcode.starts_with("barrier.")) &&
         !Opcode.contains("arrive") && !Opcode.starts_with("bar.warp");
}

/// Instructions after which no load of the region is still in flight for
/// the scheduler to overlap: waits on asynchronous copies, calls, returns.
static bool closesRegion(StringRef Opcode) {
  for (StringRef P :
       {"mbarrier.try_wait", "mbarrier.test_wait", "cp.async.wait",
        "cp.async.bulk.wait", "call", "ret", "exit"})
    if (Opcode.starts_with(P))
      return true;
  return false;
}

namespace {

/// The dependences at one point of a region.
struct State {
  int Region = -1; ///< -1: between regions, the next instruction opens one.
  std::map<std::string, unsigned> Level; ///< Round a register waits for.
  unsigned Control = 0; ///< Round the branches taken so far wait for.
  unsigned Used = 0;    ///< Latest round an instruction has used.

  unsigned level(StringRef Reg) const {
    auto It = Level.find(Reg.str());
    return It == Level.end() ? 0u : It->second;
  }
  /// Where two forward edges meet: either path's values may arrive.
  void merge(const State &O) {
    for (const auto &KV : O.Level)
      Level[KV.first] = std::max(Level[KV.first], KV.second);
    Control = std::max(Control, O.Control);
    Used = std::max(Used, O.Used);
  }
};

struct Region {
  size_t Head = 0;
  RegionRounds Rounds;
};

/// The control flow of one function: successors, back edges (to a block on
/// the depth-first path: a loop's head), and an order that visits every
/// block after its forward predecessors.
struct Flow {
  std::vector<llvm::SmallVector<size_t, 2>> Preds; ///< Forward edges only.
  std::vector<bool> LoopHead, LeavesLoop;
  std::vector<size_t> Order;
};

} // namespace

static std::vector<llvm::SmallVector<size_t, 2>>
successors(llvm::ArrayRef<PtxBlock> F) {
  llvm::StringMap<size_t> Labels;
  for (size_t I = 0; I < F.size(); ++I)
    for (StringRef L : F[I].Labels)
      Labels[L] = I;
  std::vector<llvm::SmallVector<size_t, 2>> Succ(F.size());
  for (size_t I = 0; I < F.size(); ++I) {
    bool FallsThrough = true;
    for (StringRef S : F[I].Statements) {
      auto [Opcode, Operands] = ptxOpcodeAndOperands(S);
      bool Guarded = !guard(S).empty();
      if (Opcode.starts_with("bra")) {
        auto It = Labels.find(Operands.trim());
        if (It != Labels.end())
          Succ[I].push_back(It->second);
        FallsThrough &= Guarded;
      } else if (Opcode.starts_with("ret") || Opcode.starts_with("exit")) {
        FallsThrough &= Guarded;
      }
    }
    if (FallsThrough && I + 1 < F.size())
      Succ[I].push_back(I + 1);
  }
  return Succ;
}

static Flow flow(llvm::ArrayRef<PtxBlock> F) {
  auto Succ = successors(F);
  size_t N = F.size();
  Flow G;
  G.Preds.resize(N);
  G.LoopHead.assign(N, false);
  G.LeavesLoop.assign(N, false);
  enum { White, Grey, Black };
  std::vector<int> Color(N, White);
  std::vector<size_t> Post;
  std::vector<std::pair<size_t, size_t>> Stack; // block, next successor
  for (size_t Root = 0; Root < N; ++Root) {
    if (Color[Root] != White)
      continue;
    Stack.push_back({Root, 0});
    Color[Root] = Grey;
    while (!Stack.empty()) {
      auto &[B, Next] = Stack.back();
      if (Next == Succ[B].size()) {
        Color[B] = Black;
        Post.push_back(B);
        Stack.pop_back();
        continue;
      }
      size_t S = Succ[B][Next++];
      if (Color[S] == Grey) {
        G.LoopHead[S] = true;
        G.LeavesLoop[B] = true;
        continue;
      }
      G.Preds[S].push_back(B);
      if (Color[S] == White) {
        Color[S] = Grey;
        Stack.push_back({S, 0});
      }
    }
  }
  G.Order.assign(Post.rbegin(), Post.rend());
  return G;
}

/// One statement's dependences; true if it closes the region.
static bool step(State &S, StringRef Statement, RegionRounds &R) {
  auto [Opcode, Operands] = ptxOpcodeAndOperands(Statement);
  unsigned Data = 0;
  for (StringRef Reg : ptxRegisters(guard(Statement)))
    Data = std::max(Data, S.level(Reg));
  auto [Dest, Sources] = ptxDestinationAndSources(Opcode, Operands);
  for (StringRef Reg : ptxRegisters(Sources))
    Data = std::max(Data, S.level(Reg));
  S.Used = std::max(S.Used, Data);
  unsigned Result = Data;
  if (loadsGlobal(Opcode)) {
    // A load also waits for the branches that decide whether it runs.
    Result = std::max(Data, S.Control) + 1;
    R.Rounds = std::max(R.Rounds, Result);
  }
  // Only the registers that wait for a load are kept: the state is copied
  // at every block, and most of a kernel's registers wait for none.
  for (StringRef Reg : ptxRegisters(Dest)) {
    if (Result)
      S.Level[Reg.str()] = Result;
    else
      S.Level.erase(Reg.str());
  }
  if (Opcode.starts_with("bra")) {
    S.Control = std::max(S.Control, Data);
    return false;
  }
  if (blockBarrier(Opcode)) {
    R.AtBarrier = std::max(R.AtBarrier, std::min(S.Used, R.Rounds));
    return true;
  }
  return closesRegion(Opcode);
}

std::vector<RegionRounds> roofline::loadRounds(llvm::ArrayRef<PtxBlock> F) {
  Flow G = flow(F);
  std::vector<State> Exit(F.size());
  std::vector<Region> Regions;
  for (size_t B : G.Order) {
    State S;
    // A region continues into a block only if every forward edge into it
    // comes from inside that region.
    const auto &Preds = G.Preds[B];
    bool Continues =
        !G.LoopHead[B] && !Preds.empty() && llvm::all_of(Preds, [&](size_t P) {
          return Exit[P].Region >= 0 &&
                 Exit[P].Region == Exit[Preds.front()].Region;
        });
    if (Continues) {
      S = Exit[Preds.front()];
      for (size_t P : llvm::drop_begin(Preds))
        S.merge(Exit[P]);
    }
    for (StringRef St : F[B].Statements) {
      if (ptxOpcodeAndOperands(St).first.empty())
        continue;
      if (S.Region < 0) {
        S.Region = int(Regions.size());
        Regions.push_back({B, {}});
      }
      if (step(S, St, Regions[S.Region].Rounds))
        S = State();
    }
    // The way out of a loop is not overlapped with its body.
    if (G.LeavesLoop[B])
      S = State();
    Exit[B] = std::move(S);
  }
  std::vector<RegionRounds> Out(F.size());
  for (const Region &R : Regions) {
    Out[R.Head].Rounds += R.Rounds.Rounds;
    Out[R.Head].AtBarrier += R.Rounds.AtBarrier;
  }
  return Out;
}
