//===- Suppressions.cpp ---------------------------------------------------===//

#include "Suppressions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <tuple>

using namespace roofline;

namespace {

/// The text of one comment, without its `//`, `/*` or `*/`.
struct CommentBody {
  size_t Begin, End;
};

/// Just enough of a C++ lexer to know which bytes are comment text: string
/// and character literals (raw strings included) hide comment markers and
/// NOLINT keywords, and a digit separator (1'000) is not a character literal.
class CommentFinder {
public:
  explicit CommentFinder(llvm::StringRef Text) : Text(Text) {}

  std::vector<CommentBody> run() {
    while (Pos < Text.size()) {
      char C = Text[Pos];
      if (C == '/' && peek(1) == '/') {
        lineComment();
      } else if (C == '/' && peek(1) == '*') {
        blockComment();
      } else if (C == '"' || C == '\'') {
        quoted(C);
      } else if (llvm::isAlpha(C) || C == '_') {
        identifier();
      } else if (llvm::isDigit(C) || (C == '.' && llvm::isDigit(peek(1)))) {
        number();
      } else {
        ++Pos;
      }
    }
    return std::move(Comments);
  }

private:
  char peek(size_t Ahead) const {
    return Pos + Ahead < Text.size() ? Text[Pos + Ahead] : '\0';
  }

  // A `//` comment ends at a newline that is not escaped by a backslash
  // (line splicing continues it onto the next line).
  void lineComment() {
    size_t Begin = Pos + 2;
    Pos = Begin;
    while (Pos < Text.size() && Text[Pos] != '\n') {
      if (Text[Pos] == '\\' && skipSplice(Pos + 1))
        continue;
      ++Pos;
    }
    Comments.push_back({Begin, Pos});
  }

  // After a backslash at Pos - 1: steps over a following (CR)LF, if any.
  bool skipSplice(size_t After) {
    if (After < Text.size() && Text[After] == '\n') {
      Pos = After + 1;
      return true;
    }
    if (After + 1 < Text.size() && Text[After] == '\r' &&
        Text[After + 1] == '\n') {
      Pos = After + 2;
      return true;
    }
    return false;
  }

  void blockComment() {
    size_t Begin = Pos + 2;
    size_t End = Text.find("*/", Begin);
    if (End == llvm::StringRef::npos) {
      // Unterminated: the rest of the file is comment, as for a compiler.
      Comments.push_back({Begin, Text.size()});
      Pos = Text.size();
      return;
    }
    Comments.push_back({Begin, End});
    Pos = End + 2;
  }

  // A string or character literal from its opening quote. An unescaped
  // newline ends an unterminated one so that one stray quote (an apostrophe
  // in an #error line) cannot hide the comments of the rest of the file.
  void quoted(char Quote) {
    ++Pos;
    while (Pos < Text.size()) {
      char C = Text[Pos];
      if (C == Quote) {
        ++Pos;
        return;
      }
      if (C == '\n')
        return;
      if (C == '\\') {
        if (!skipSplice(Pos + 1))
          Pos += 2;
        continue;
      }
      ++Pos;
    }
  }

  // Identifiers are skipped whole so that a trailing R, u8R... introduces a
  // raw string and a quote after a letter is not mistaken for anything else.
  void identifier() {
    size_t Begin = Pos;
    while (Pos < Text.size() && (llvm::isAlnum(Text[Pos]) || Text[Pos] == '_'))
      ++Pos;
    llvm::StringRef Id = Text.slice(Begin, Pos);
    bool RawPrefix =
        Id == "R" || Id == "LR" || Id == "uR" || Id == "UR" || Id == "u8R";
    if (RawPrefix && Pos < Text.size() && Text[Pos] == '"')
      rawString();
  }

  // R"delim( ... )delim": no escapes inside, and it may span lines.
  void rawString() {
    size_t Open = Text.find('(', Pos + 1);
    llvm::StringRef Delim =
        Open == llvm::StringRef::npos ? "" : Text.slice(Pos + 1, Open);
    bool ValidDelim =
        Open != llvm::StringRef::npos && Delim.size() <= 16 &&
        Delim.find_first_of(" ()\\\t\v\f\r\n") == llvm::StringRef::npos;
    if (!ValidDelim) {
      // Not a well-formed raw string: lex it as an ordinary one.
      quoted('"');
      return;
    }
    std::string Close = (")" + Delim + "\"").str();
    size_t End = Text.find(Close, Open + 1);
    Pos = End == llvm::StringRef::npos ? Text.size() : End + Close.size();
  }

  // A pp-number: digits, letters, '.', exponent signs and digit separators.
  void number() {
    while (Pos < Text.size()) {
      char C = Text[Pos];
      if (llvm::isAlnum(C) || C == '_' || C == '.') {
        ++Pos;
        continue;
      }
      if (C == '\'' && llvm::isAlnum(peek(1))) {
        ++Pos;
        continue;
      }
      char Prev = Text[Pos - 1];
      if ((C == '+' || C == '-') &&
          (Prev == 'e' || Prev == 'E' || Prev == 'p' || Prev == 'P')) {
        ++Pos;
        continue;
      }
      return;
    }
  }

  llvm::StringRef Text;
  size_t Pos = 0;
  std::vector<CommentBody> Comments;
};

enum class NoLintKind { NoLint, NextLine, Begin, End };

struct NoLintToken {
  NoLintKind Kind;
  size_t Offset; ///< Of the keyword in the file.
  /// The check list, globs trimmed and rejoined with ','; none when the
  /// comment has no (closed) list and so applies to every check.
  std::optional<std::string> Checks;
};

} // namespace

// clang-tidy compares BEGIN and END lists after trimming each glob, so
// `NOLINTBEGIN(a, b)` is closed by `NOLINTEND(a,b)` but not by `(b,a)`.
static std::string normalizeChecks(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef, 4> Globs;
  List.split(Globs, ',');
  for (llvm::StringRef &G : Globs)
    G = G.trim();
  return llvm::join(Globs, ",");
}

// The NOLINT keywords of one comment, found as clang-tidy finds them in a
// line: "NOLINT" plus the letters that follow must spell a keyword, so
// NOLINTNEXTLINE is not a NOLINT and NOLINTFOO is nothing.
static void findNoLints(llvm::StringRef Text, CommentBody C,
                        std::vector<NoLintToken> &Out) {
  static constexpr llvm::StringLiteral Keyword = "NOLINT";
  llvm::StringRef Body = Text.slice(C.Begin, C.End);
  size_t Pos = 0;
  while (true) {
    size_t Found = Body.find(Keyword, Pos);
    if (Found == llvm::StringRef::npos)
      return;
    Pos = Found + Keyword.size();
    while (Pos < Body.size() && llvm::isAlpha(Body[Pos]))
      ++Pos;
    std::optional<NoLintKind> Kind =
        llvm::StringSwitch<std::optional<NoLintKind>>(Body.slice(Found, Pos))
            .Case("NOLINT", NoLintKind::NoLint)
            .Case("NOLINTNEXTLINE", NoLintKind::NextLine)
            .Case("NOLINTBEGIN", NoLintKind::Begin)
            .Case("NOLINTEND", NoLintKind::End)
            .Default(std::nullopt);
    if (!Kind)
      continue;
    std::optional<std::string> Checks;
    if (Pos < Body.size() && Body[Pos] == '(') {
      size_t Close = Body.find_first_of("\n)", Pos + 1);
      if (Close != llvm::StringRef::npos && Body[Close] == ')') {
        Checks = normalizeChecks(Body.slice(Pos + 1, Close));
        Pos = Close + 1;
      }
    }
    Out.push_back({*Kind, C.Begin + Found, std::move(Checks)});
  }
}

// The globs of a NOLINT list as clang-tidy reads them: negative globs are
// dropped, and so are globs with characters no check id has (clang-tidy would
// match them literally, which matches no check either).
static CheckGlob suppressedChecks(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef, 4> Globs;
  List.split(Globs, ',');
  std::string Kept;
  for (llvm::StringRef G : Globs) {
    G = G.trim();
    if (G.empty() || G.starts_with("-"))
      continue;
    bool Valid = llvm::all_of(G, [](char C) {
      return llvm::isAlnum(C) || C == '_' || C == '.' || C == '-' || C == '*';
    });
    if (!Valid)
      continue;
    if (!Kept.empty())
      Kept += ',';
    Kept += G.str();
  }
  // Cannot fail: only valid globs are left.
  return llvm::cantFail(CheckGlob::parse(Kept));
}

namespace {

/// Offsets to 1-based line and column.
class LineTable {
public:
  explicit LineTable(llvm::StringRef Text) {
    Starts.push_back(0);
    for (size_t I = 0, E = Text.size(); I != E; ++I)
      if (Text[I] == '\n')
        Starts.push_back(I + 1);
  }

  unsigned line(size_t Offset) const {
    return std::upper_bound(Starts.begin(), Starts.end(), Offset) -
           Starts.begin();
  }

  unsigned column(size_t Offset) const {
    return Offset - Starts[line(Offset) - 1] + 1;
  }

private:
  std::vector<size_t> Starts;
};

} // namespace

Suppressions Suppressions::parse(llvm::StringRef FileText) {
  std::vector<NoLintToken> Tokens;
  for (CommentBody C : CommentFinder(FileText).run())
    findNoLints(FileText, C, Tokens);

  LineTable Lines(FileText);
  Suppressions S;
  auto AddRange = [&S](unsigned First, unsigned Last,
                       const std::optional<std::string> &Checks) {
    Range R{First, Last, std::nullopt};
    if (Checks)
      R.Checks = suppressedChecks(*Checks);
    S.Ranges.push_back(std::move(R));
  };
  auto AddError = [&](const NoLintToken &T, const char *Message) {
    S.Errors.push_back({Lines.line(T.Offset), Lines.column(T.Offset), Message});
  };

  // Blocks nest: an END closes the innermost open BEGIN, and only if its list
  // is the same; otherwise the END is unmatched and the BEGIN stays open
  // (clang-tidy's NoLintDirectiveHandler).
  std::vector<const NoLintToken *> Open;
  for (const NoLintToken &T : Tokens) {
    unsigned Line = Lines.line(T.Offset);
    switch (T.Kind) {
    case NoLintKind::NoLint:
      AddRange(Line, Line, T.Checks);
      break;
    case NoLintKind::NextLine:
      AddRange(Line + 1, Line + 1, T.Checks);
      break;
    case NoLintKind::Begin:
      Open.push_back(&T);
      break;
    case NoLintKind::End:
      if (Open.empty() || Open.back()->Checks != T.Checks) {
        AddError(T, "unmatched 'NOLINTEND' comment without a previous "
                    "'NOLINTBEGIN' comment");
        break;
      }
      AddRange(Lines.line(Open.back()->Offset), Line, T.Checks);
      Open.pop_back();
      break;
    }
  }
  for (const NoLintToken *T : Open)
    AddError(*T, "unmatched 'NOLINTBEGIN' comment without a subsequent "
                 "'NOLINTEND' comment");
  llvm::sort(S.Errors,
             [](const SuppressionError &A, const SuppressionError &B) {
               return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
             });
  return S;
}

bool Suppressions::suppresses(unsigned Line, llvm::StringRef CheckId) const {
  return llvm::any_of(Ranges, [&](const Range &R) {
    return R.FirstLine <= Line && Line <= R.LastLine &&
           (!R.Checks || R.Checks->matches(CheckId));
  });
}
