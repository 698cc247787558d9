//===- LibraryInstructions.cpp --------------------------------------------===//

#include "LibraryInstructions.h"
#include "Counters.h"
#include "MachineInstructions.h"
#include "PtxCodegen.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <mutex>
#include <optional>
#include <set>

using namespace roofline;
using namespace llvm;

/// What the run of one function executes: its blocks compiled alone (the
/// functions that ran defined, the rest declared), weighted by their runs.
static Expected<std::map<std::string, Rational>>
compileRun(const Function &F, const BlockRuns &Runs, const std::string &Arch) {
  std::set<const Function *> Ran;
  for (const auto &KV : Runs)
    Ran.insert(KV.first->getParent());
  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Copy =
      CloneModule(*F.getParent(), VMap, [&](const GlobalValue *GV) {
        const auto *Fn = dyn_cast<Function>(GV);
        return !Fn || Ran.count(Fn);
      });
  Copy->setTargetTriple(Triple("nvptx64-nvidia-cuda"));
  // Nothing in the copy calls the function run; kept visible, the back end
  // emits it.
  for (Function &Fn : *Copy)
    if (!Fn.isDeclaration())
      Fn.setLinkage(GlobalValue::ExternalLinkage);
  auto P = emitMarkedPtx(*Copy, Arch);
  if (!P)
    return P.takeError();
  auto Blocks = blockInstructions(*P);
  std::map<std::string, Rational> Out;
  for (const auto &[BB, N] : Runs) {
    auto It = Blocks.find(cast<BasicBlock>(VMap[BB]));
    if (It == Blocks.end())
      continue;
    for (const auto &[Counter, PerRun] : It->second)
      Out[Counter] = Out[Counter] + PerRun * Rational(N);
  }
  // Linked into the kernel, the function and the library's own calls in
  // it are inlined: their bodies ran (and are counted); each call, and the
  // return of each function entered (the calls and the function itself),
  // are gone.
  Rational Calls = Out[counter::InstCall];
  Out.erase(counter::InstCall);
  Out[counter::InstIssue] =
      Out[counter::InstIssue] - (Calls + Calls + Rational(1));
  return Out;
}

Expected<std::map<std::string, Rational>>
roofline::libraryCallInstructions(StringRef Name, const MathMode &Mode,
                                  StringRef LibdevicePath,
                                  const std::string &Arch) {
  using Entry =
      std::pair<std::optional<std::map<std::string, Rational>>, std::string>;
  static std::mutex Lock;
  static std::map<std::string, Entry> Cache;
  std::string Key = Name.str() + "|" + LibdevicePath.str() + "|" + Arch + "|" +
                    std::to_string(Mode.Ftz) + std::to_string(Mode.Approx) +
                    std::to_string(Mode.Arch);
  std::lock_guard<std::mutex> G(Lock);
  auto It = Cache.find(Key);
  if (It == Cache.end()) {
    Entry E;
    Error Err = withLibdeviceRun(
        Name, Mode, LibdevicePath,
        [&](const Function &F, const BlockRuns &Runs) -> Error {
          auto C = compileRun(F, Runs, Arch);
          if (!C)
            return C.takeError();
          E.first = std::move(*C);
          return Error::success();
        });
    if (Err)
      E.second = toString(std::move(Err));
    It = Cache.emplace(Key, std::move(E)).first;
  }
  if (!It->second.first)
    return createStringError(inconvertibleErrorCode(), It->second.second);
  return *It->second.first;
}

void roofline::addLibraryInstructions(
    std::map<const BasicBlock *, std::map<std::string, Rational>> &Machine,
    const std::string &Arch) {
  for (auto &[BB, Counts] : Machine) {
    const Function &Fn = *BB->getParent();
    MathMode Mode = mathModeOf(Fn);
    std::string Path = libdevicePathOf(*Fn.getParent());
    for (const Instruction &I : *BB) {
      const auto *CI = dyn_cast<CallInst>(&I);
      const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
      if (!Callee || !Callee->isDeclaration() ||
          !Callee->getName().starts_with("__nv_"))
        continue;
      auto Body = libraryCallInstructions(Callee->getName(), Mode, Path, Arch);
      if (!Body) {
        consumeError(Body.takeError());
        continue;
      }
      for (const auto &[Counter, N] : *Body)
        Counts[Counter] = Counts[Counter] + N;
      for (const char *Call : {counter::InstCall, counter::InstIssue})
        Counts[Call] = Counts[Call] - Rational(1);
    }
  }
}
