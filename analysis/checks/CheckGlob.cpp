//===- CheckGlob.cpp ------------------------------------------------------===//

#include "CheckGlob.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"

#include <string>
#include <vector>

using namespace roofline;

struct CheckGlob::Storage {
  struct Item {
    bool Positive;
    llvm::GlobPattern Pattern;
    llvm::StringRef Text; ///< The pattern as written (points into Text).
  };
  /// The text the patterns point into.
  std::string Text;
  std::vector<Item> Items;
};

CheckGlob::CheckGlob() : Impl(std::make_shared<Storage>()) {}

// Check ids are `<module>-<check>` names; anything outside this set is a typo
// or a regex/glob feature (`?`, `[...]`, `{a,b}`) that clang-tidy does not
// support, and that llvm::GlobPattern would otherwise interpret.
static bool isGlobChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '.' || C == '-' || C == '*';
}

static std::string printable(char C) {
  if (llvm::isPrint(C))
    return std::string(1, C);
  std::string S = "\\x";
  S += llvm::hexdigit((static_cast<unsigned char>(C) >> 4) & 0xF, true);
  S += llvm::hexdigit(static_cast<unsigned char>(C) & 0xF, true);
  return S;
}

llvm::Expected<CheckGlob> CheckGlob::parse(llvm::StringRef Text) {
  auto S = std::make_shared<Storage>();
  S->Text = Text.str();
  llvm::StringRef Rest = S->Text;
  while (!Rest.empty()) {
    size_t End = Rest.find_first_of(",\n");
    llvm::StringRef Entry = Rest.substr(0, End);
    Rest =
        End == llvm::StringRef::npos ? llvm::StringRef() : Rest.substr(End + 1);

    // As in clang-tidy, whitespace may also separate '-' from its pattern.
    Entry = Entry.trim();
    bool Positive = !Entry.consume_front("-");
    llvm::StringRef Pat = Entry.ltrim();
    // clang-tidy turns an empty entry into a regex matching only the empty
    // string, i.e. no check: dropping it is equivalent.
    if (Pat.empty())
      continue;
    for (char C : Pat) {
      if (isGlobChar(C))
        continue;
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "invalid check glob '%s': character '%s' is not allowed (only "
          "letters, digits, '_', '.', '-' and '*')",
          Pat.str().c_str(), printable(C).c_str());
    }
    llvm::Expected<llvm::GlobPattern> G = llvm::GlobPattern::create(Pat);
    if (!G)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(), "invalid check glob '%s': %s",
          Pat.str().c_str(), llvm::toString(G.takeError()).c_str());
    S->Items.push_back({Positive, std::move(*G), Pat});
  }
  CheckGlob Result;
  Result.Impl = std::move(S);
  return Result;
}

bool CheckGlob::matches(llvm::StringRef CheckId) const {
  for (auto It = Impl->Items.rbegin(), E = Impl->Items.rend(); It != E; ++It)
    if (It->Pattern.match(CheckId))
      return It->Positive;
  return false;
}

bool CheckGlob::namesInFull(llvm::StringRef CheckId) const {
  for (auto It = Impl->Items.rbegin(), E = Impl->Items.rend(); It != E; ++It)
    if (It->Pattern.match(CheckId))
      return It->Positive && It->Text == CheckId;
  return false;
}

bool CheckGlob::empty() const { return Impl->Items.empty(); }
