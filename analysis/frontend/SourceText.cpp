//===- SourceText.cpp -----------------------------------------------------===//

#include "SourceText.h"

#include <algorithm>
#include <cctype>
#include <optional>

using namespace roofline;
using llvm::StringRef;

namespace {

/// UTF-8 bytes (>= 0x80) belong to identifiers: clang accepts them there.
bool isIdent(char C) {
  return std::isalnum((unsigned char)C) || C == '_' || (unsigned char)C >= 0x80;
}

/// A string or character literal from its opening quote at Q: the index of
/// its closing quote (brackets inside it do not count).
size_t literalEnd(StringRef Text, size_t Q) {
  char Quote = Text[Q];
  size_t J = Q + 1;
  while (J < Text.size() && Text[J] != Quote && Text[J] != '\n')
    J += Text[J] == '\\' ? 2 : 1;
  return std::min(J, Text.size() - 1);
}

/// The same from its closing quote at Q, scanning back.
size_t literalStart(StringRef Text, size_t Q) {
  char Quote = Text[Q];
  size_t J = Q;
  while (J > 0) {
    --J;
    if (Text[J] == Quote && (J == 0 || Text[J - 1] != '\\'))
      return J;
    if (Text[J] == '\n')
      break;
  }
  return J;
}

/// The offset of Line:Column (1-based) in Text; none past the end of the
/// text or of the line.
std::optional<size_t> offsetOf(StringRef Text, unsigned Line, unsigned Column) {
  if (Line == 0 || Column == 0)
    return std::nullopt;
  size_t Pos = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Pos = Text.find('\n', Pos);
    if (Pos == StringRef::npos)
      return std::nullopt;
    ++Pos;
  }
  Pos += Column - 1;
  size_t LineEnd = Text.find('\n', Pos);
  if (Pos >= Text.size() || (LineEnd != StringRef::npos && Pos > LineEnd))
    return std::nullopt;
  return Pos;
}

/// Where the operand that ends at E starts, scanning back over
/// identifiers, member accesses, balanced brackets and dereferences; none
/// if a bracket does not close.
std::optional<size_t> operandStart(StringRef Text, size_t E) {
  size_t B = E;
  while (B > 0) {
    char C = Text[B - 1];
    if (C == ']' || C == ')') {
      char Open = C == ']' ? '[' : '(';
      int Depth = 0;
      size_t J = B;
      while (J > 0) {
        --J;
        if (Text[J] == '"' || Text[J] == '\'') {
          J = literalStart(Text, J);
          continue;
        }
        Depth += Text[J] == C;
        Depth -= Text[J] == Open;
        if (Depth == 0)
          break;
      }
      if (Depth != 0)
        return std::nullopt;
      B = J;
      continue;
    }
    if (isIdent(C) || C == '.' || (C == '>' && B > 1 && Text[B - 2] == '-')) {
      B -= C == '>' ? 2 : 1;
      continue;
    }
    if (C == '*' && (B == 1 || !isIdent(Text[B - 2]))) {
      --B;
      continue;
    }
    break;
  }
  return B;
}

/// The left-hand side of the store or compound assignment whose operator
/// is at Pos (Line:Column), on one line.
std::string storeTarget(StringRef Text, size_t Pos, unsigned Line,
                        unsigned Column, unsigned *StartColumn,
                        unsigned *StartLine) {
  size_t E = Pos;
  while (E > 0 && Text[E - 1] == ' ')
    --E;
  std::optional<size_t> Start = operandStart(Text, E);
  if (!Start)
    return "";
  size_t B = *Start;
  // *reinterpret_cast<T *>(&X[i]) = v: the scan stops at the cast's
  // parenthesis; the access is to X[i].
  if (E - B > 3 && Text[B] == '(' && Text[B + 1] == '&' && Text[E - 1] == ')') {
    B += 2;
    --E;
  }
  if (B == E)
    return "";
  std::string S = Text.substr(B, E - B).str();
  if (S.find('\n') != std::string::npos || B + Column < Pos + 1)
    return "";
  for (char &C : S)
    if (C == '\r' || C == '\t')
      C = ' ';
  if (StartColumn)
    *StartColumn = unsigned(Column - (Pos - B));
  if (StartLine)
    *StartLine = Line;
  return S;
}

/// The end of the expression from Pos whose first identifier is at I:
/// identifiers, subscripts, calls and member accesses, and the closing
/// parentheses of the Parens opened before it; none if a bracket does not
/// close or a parenthesis stays open.
std::optional<size_t> expressionEnd(StringRef Text, size_t Pos, size_t I,
                                    int Parens) {
  while (I < Text.size()) {
    if (isIdent(Text[I])) {
      while (I < Text.size() && isIdent(Text[I]))
        ++I;
      continue;
    }
    if (Text[I] == '[' || (Text[I] == '(' && I > Pos && isIdent(Text[I - 1]))) {
      char Open = Text[I], Close = Open == '[' ? ']' : ')';
      int Depth = 0;
      size_t J = I;
      for (; J < Text.size(); ++J) {
        if (Text[J] == '"' || Text[J] == '\'') {
          J = literalEnd(Text, J);
          continue;
        }
        Depth += Text[J] == Open;
        Depth -= Text[J] == Close;
        if (Depth == 0)
          break;
      }
      if (J == Text.size())
        return std::nullopt;
      I = J + 1;
      continue;
    }
    if (Text[I] == '.' && I + 1 < Text.size() && isIdent(Text[I + 1])) {
      ++I;
      continue;
    }
    if (Text.substr(I).starts_with("->") && I + 2 < Text.size() &&
        isIdent(Text[I + 2])) {
      I += 2;
      continue;
    }
    if (Text[I] == ')' && Parens > 0) {
      --Parens;
      ++I;
      continue;
    }
    break;
  }
  if (Parens != 0)
    return std::nullopt;
  return I;
}

/// The expression that starts at Pos (Line:Column), a dereference or an
/// identifier and what follows it, on one line.
std::string expressionFrom(StringRef Text, size_t Pos, unsigned Line,
                           unsigned Column, unsigned *StartColumn,
                           unsigned *StartLine) {
  // reinterpret_cast<float4 *>(&X[i]) is located at its '(': the access is
  // to X[i].
  while (Pos + 1 < Text.size() && Text[Pos] == '(' && Text[Pos + 1] == '&') {
    Pos += 2;
    ++Column;
    ++Column;
  }
  size_t I = Pos;
  while (I < Text.size() && (Text[I] == '*' || Text[I] == '('))
    ++I; // *p, (*p)
  if (I == Text.size() || !isIdent(Text[I]))
    return "";
  int Parens = 0;
  for (size_t J = Pos; J < I; ++J)
    Parens += Text[J] == '(';
  std::optional<size_t> End = expressionEnd(Text, Pos, I, Parens);
  if (!End)
    return "";
  std::string S = Text.substr(Pos, *End - Pos).str();
  if (StartColumn)
    *StartColumn = Column;
  if (StartLine)
    *StartLine = Line;
  // Keep one line of source in messages (a CRLF break is one space).
  std::string One;
  for (char C : S) {
    if (C == '\r')
      continue;
    One += C == '\n' || C == '\t' ? ' ' : C;
  }
  return One;
}

} // namespace

std::string roofline::expressionAt(StringRef Text, unsigned Line,
                                   unsigned Column, unsigned *StartColumn,
                                   bool IsLoad, unsigned *StartLine) {
  std::optional<size_t> At = offsetOf(Text, Line, Column);
  if (!At)
    return "";
  size_t Pos = *At;
  // A copy (*(float4 *)&r[0] = *(const float4 *)&s[i]) is located at its
  // '=': the load is the right-hand side.
  if (IsLoad && Text[Pos] == '=' && Pos + 1 < Text.size() &&
      Text[Pos + 1] != '=') {
    size_t R = Pos + 1;
    unsigned RLine = Line, RCol = Column + 1;
    while (R < Text.size() && (Text[R] == ' ' || Text[R] == '\t' ||
                               Text[R] == '\n' || Text[R] == '\r')) {
      if (Text[R] == '\n') {
        ++RLine;
        RCol = 0;
      }
      ++R;
      ++RCol;
    }
    return expressionAt(Text, RLine, RCol, StartColumn, false, StartLine);
  }
  // Through a cast: *reinterpret_cast<const float4 *>(&X[i]) reads X[i].
  for (StringRef Cast : {"*reinterpret_cast<", "reinterpret_cast<"}) {
    if (!Text.substr(Pos).starts_with(Cast))
      continue;
    size_t Close = Text.find('>', Pos);
    if (Close != StringRef::npos && Close + 1 < Text.size() &&
        Text[Close + 1] == '(')
      return expressionAt(Text, Line, unsigned(Column + (Close + 1 - Pos)),
                          StartColumn, false, StartLine);
  }
  // Stores and compound assignments are located at their operator: the
  // expression is the left-hand side.
  if (Text[Pos] == '=' || (Pos + 1 < Text.size() && Text[Pos + 1] == '=' &&
                           StringRef("+-*/%&|^").contains(Text[Pos])))
    return storeTarget(Text, Pos, Line, Column, StartColumn, StartLine);
  std::string E =
      expressionFrom(Text, Pos, Line, Column, StartColumn, StartLine);
  // An inline-PTX access (ldmatrix, cp.async) is located at its asm
  // statement, whose keyword names nothing it reads or writes: the caller
  // names the array instead.
  if (E == "asm" || E == "__asm__" || E == "__asm")
    return "";
  return E;
}

llvm::StringRef SourceFiles::text(const std::string &Path) {
  auto It = Files.find(Path);
  if (It == Files.end()) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    It = Files.emplace(Path, Buf ? std::move(*Buf) : nullptr).first;
  }
  return It->second ? It->second->getBuffer() : llvm::StringRef();
}

void SourceFiles::set(const std::string &Path, llvm::StringRef Text) {
  Files[Path] = llvm::MemoryBuffer::getMemBufferCopy(Text, Path);
}

std::string SourceFiles::line(const SourceLoc &L) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  text(L.File).split(Lines, '\n');
  return L.Line >= 1 && L.Line <= Lines.size()
             ? Lines[L.Line - 1].rtrim("\r").str()
             : std::string();
}
