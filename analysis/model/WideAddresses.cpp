//===- WideAddresses.cpp --------------------------------------------------===//

#include "WideAddresses.h"
#include "Counters.h"
#include "MachineInstructions.h"

#include "llvm/ADT/SmallVector.h"

#include <cctype>
#include <map>

using namespace roofline;
using llvm::StringRef;

/// The 64-bit registers (%rdN) Operands names, in order.
static llvm::SmallVector<StringRef, 4> wideRegisters(StringRef Operands) {
  llvm::SmallVector<StringRef, 4> Regs;
  for (size_t P = Operands.find("%rd"); P != StringRef::npos;
       P = Operands.find("%rd", P + 3)) {
    size_t E = P + 3;
    while (E < Operands.size() && std::isdigit((unsigned char)Operands[E]))
      ++E;
    if (E > P + 3)
      Regs.push_back(Operands.slice(P, E));
  }
  return Regs;
}

static bool isWideAdd(StringRef Opcode) {
  return Opcode == "add.s64" || Opcode == "add.u64";
}

static bool isProduct(StringRef Opcode) {
  return Opcode == "mul.wide.s32" || Opcode == "mul.wide.u32";
}

/// The operands an instruction reads: all but the first, the registers it
/// writes ({...} for several), except in stores, reductions, prefetches and
/// asynchronous copies, whose first operand is an address.
static StringRef sources(StringRef Opcode, StringRef Operands) {
  if (Opcode.starts_with("st.") || Opcode.starts_with("red.") ||
      Opcode.starts_with("cp.") || Opcode.starts_with("prefetch"))
    return Operands;
  size_t End = Operands.starts_with("{") ? Operands.find('}') : 0;
  return Operands.drop_front(End == StringRef::npos ? Operands.size() : End)
      .split(',')
      .second;
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
    for (StringRef R : wideRegisters(sources(Opcode, Operands)))
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
  for (StringRef R : wideRegisters(sources(Opcode, Operands)))
    if (Products.count(R.str())) {
      Out[counter::InstIntMad] += 1;
      Out[counter::InstIssue] += 1;
      return true;
    }
  return false;
}
