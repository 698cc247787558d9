//===- WideAddresses.cpp --------------------------------------------------===//

#include "WideAddresses.h"
#include "Counters.h"
#include "MachineInstructions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace roofline;
using llvm::StringRef;

/// The 64-bit registers (%rdN) Operands names, in order.
static llvm::SmallVector<StringRef, 4> wideRegisters(StringRef Operands) {
  llvm::SmallVector<StringRef, 4> Regs;
  for (StringRef R : ptxRegisters(Operands))
    if (R.size() > 3 && R.starts_with("%rd") &&
        llvm::all_of(R.drop_front(3), llvm::isDigit))
      Regs.push_back(R);
  return Regs;
}

static bool isWideAdd(StringRef Opcode) {
  return Opcode == "add.s64" || Opcode == "add.u64";
}

static bool isProduct(StringRef Opcode) {
  return Opcode == "mul.wide.s32" || Opcode == "mul.wide.u32";
}

WideAddresses WideAddresses::of(StringRef Text) {
  // Two passes: the products, then every use of them (a use before the
  // definition is a loop's back edge).
  llvm::SmallVector<std::pair<StringRef, StringRef>, 64> Body;
  WideAddresses W;
  while (!Text.empty()) {
    StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    if (isPtxFunctionStart(Line.trim()))
      break;
    llvm::SmallVector<StringRef, 4> Statements;
    Line.split("//").first.split(Statements, ';');
    for (StringRef S : Statements) {
      auto Op = ptxOpcodeAndOperands(S);
      if (Op.first.empty())
        continue;
      Body.push_back(Op);
      if (isProduct(Op.first))
        if (auto R = wideRegisters(Op.second); !R.empty())
          W.Products.insert(R.front().str());
    }
  }
  std::map<std::string, std::pair<unsigned, unsigned>> Uses; // all, in adds
  for (auto [Opcode, Operands] : Body) {
    bool Add = isWideAdd(Opcode);
    for (StringRef R :
         wideRegisters(ptxDestinationAndSources(Opcode, Operands).second))
      if (W.Products.count(R.str())) {
        auto &U = Uses[R.str()];
        ++U.first;
        U.second += Add;
      }
  }
  for (auto &[Reg, U] : Uses)
    if (U.first == U.second)
      W.Folded.insert(Reg);
  return W;
}

bool WideAddresses::count(StringRef Opcode, StringRef Operands,
                          OpCounts &Out) const {
  auto Regs = wideRegisters(Operands);
  if (Regs.empty())
    return false;
  if (isProduct(Opcode))
    return Folded.count(Regs.front().str()) != 0;
  if (!isWideAdd(Opcode))
    return false;
  for (StringRef R :
       wideRegisters(ptxDestinationAndSources(Opcode, Operands).second))
    if (Products.count(R.str())) {
      Out[counter::InstIntMad] += 1;
      Out[counter::InstIssue] += 1;
      return true;
    }
  return false;
}
