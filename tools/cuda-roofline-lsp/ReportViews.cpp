//===- ReportViews.cpp ----------------------------------------------------===//

#include "ReportViews.h"
#include "Emitters.h"
#include "Format.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace roofline;
namespace lsp = llvm::lsp;

/// Where the checks' pages are (the source tree's docs/checks).
#ifndef ROOFLINE_DOCS_DIR
#define ROOFLINE_DOCS_DIR ""
#endif

static std::string absolute(const std::string &Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, true);
  return std::string(P);
}

static llvm::StringRef lineOf(llvm::StringRef Text, unsigned Line) {
  for (unsigned I = 1; I < Line && !Text.empty(); ++I)
    Text = Text.split('\n').second;
  return Text.split('\n').first.rtrim("\r");
}

/// The range of the identifier or expression starting at L on LineText
/// (one character when nothing word-like starts there).
static lsp::Range rangeAt(const SourceLoc &L, llvm::StringRef LineText,
                          size_t Length = 0) {
  int Line = L.Line ? int(L.Line) - 1 : 0;
  int Start = L.Column ? int(L.Column) - 1 : 0;
  if (!Length) {
    size_t I = size_t(Start);
    while (I < LineText.size() &&
           (llvm::isAlnum(LineText[I]) || LineText[I] == '_'))
      ++I;
    Length = I > size_t(Start) ? I - size_t(Start) : 1;
  }
  return lsp::Range(lsp::Position(Line, Start),
                    lsp::Position(Line, Start + int(Length)));
}

static bool isMain(const SourceLoc &L, const std::string &Main) {
  return L.File.empty() || absolute(L.File) == Main;
}

static lsp::DiagnosticSeverity severity(llvm::StringRef Level) {
  if (Level == "error")
    return lsp::DiagnosticSeverity::Error;
  if (Level == "warning")
    return lsp::DiagnosticSeverity::Warning;
  return lsp::DiagnosticSeverity::Information;
}

static std::optional<lsp::URIForFile> uriOf(const std::string &Path) {
  auto U = lsp::URIForFile::fromFile(absolute(Path));
  if (!U) {
    llvm::consumeError(U.takeError());
    return std::nullopt;
  }
  return *U;
}

/// JSON that owns its strings (llvm::json::Value keeps a StringRef as given).
static llvm::json::Value rangeJson(const lsp::Range &R) {
  return lsp::toJSON(R);
}

static llvm::json::Value locationJson(const std::string &Path,
                                      const lsp::Range &R) {
  auto U = uriOf(Path);
  return llvm::json::Object{{"uri", U ? U->uri().str() : std::string()},
                            {"range", rangeJson(R)}};
}

static llvm::json::Value diagnostic(const Finding &F, lsp::Range Range) {
  llvm::json::Object O{{"range", rangeJson(Range)},
                       {"severity", int(severity(F.Level))},
                       {"source", "cuda-roofline"},
                       {"message", F.Message},
                       {"code", F.Check}};
  llvm::json::Array Related;
  for (const FindingNote &N : F.Notes)
    Related.push_back(llvm::json::Object{
        {"location", locationJson(N.Loc.File, rangeAt(N.Loc, "", 1))},
        {"message", N.Message}});
  if (!Related.empty())
    O["relatedInformation"] = std::move(Related);
  llvm::SmallString<256> Page(ROOFLINE_DOCS_DIR);
  llvm::sys::path::append(Page, "checks", F.Check + ".md");
  if (llvm::sys::fs::exists(Page))
    if (auto U = uriOf(std::string(Page)))
      O["codeDescription"] = llvm::json::Object{{"href", U->uri().str()}};
  return llvm::json::Value(std::move(O));
}

std::map<std::string, std::vector<llvm::json::Value>>
roofline::diagnosticsOf(const FileReport &R, const std::string &MainPath,
                        llvm::StringRef MainText) {
  std::map<std::string, std::vector<llvm::json::Value>> Out;
  std::string Main = absolute(MainPath);
  Out[Main];
  // A finding at an access covers the access's expression.
  std::map<std::pair<unsigned, unsigned>, size_t> ExprAt;
  for (const KernelReport &K : R.Kernels)
    for (const AccessInfo &A : K.Accesses)
      if (isMain(A.Loc, Main))
        ExprAt[{A.Loc.Line, A.Loc.Column}] = A.Expr.size();
  auto add = [&](const Finding &F) {
    std::string File = F.Loc.File.empty() ? Main : absolute(F.Loc.File);
    llvm::StringRef Line = File == Main ? lineOf(MainText, F.Loc.Line)
                                        : llvm::StringRef(F.SourceLine);
    auto E =
        File == Main ? ExprAt.find({F.Loc.Line, F.Loc.Column}) : ExprAt.end();
    Out[File].push_back(
        diagnostic(F, rangeAt(F.Loc, Line, E == ExprAt.end() ? 0 : E->second)));
  };
  for (const Finding &F : R.Findings)
    add(F);
  for (const KernelReport &K : R.Kernels)
    for (const Finding *F : rankFindings(K.Findings))
      add(*F);
  // A kernel template nothing instantiates is not analyzed: say so.
  for (const auto &[Name, Loc] : R.UninstantiatedTemplates) {
    Finding F;
    F.Check = "roofline-missing-size";
    F.Level = "note";
    F.Loc = Loc;
    F.Message = "kernel template '" + Name +
                "' has no instantiation to analyze; name one in "
                ".cuda-roofline.yaml (launches: '" +
                Name + "<ARGS>=GRID/BLOCK')";
    add(F);
  }
  return Out;
}

llvm::json::Value roofline::failureDiagnostic(llvm::StringRef Message) {
  return llvm::json::Object{
      {"range",
       rangeJson(lsp::Range(lsp::Position(0, 0), lsp::Position(0, 1)))},
      {"severity", int(lsp::DiagnosticSeverity::Error)},
      {"source", "cuda-roofline"},
      {"message", ("not analyzed: " + Message).str()}};
}

static bool within(lsp::Range Rg, lsp::Position P) {
  return Rg.start.line == P.line && Rg.start.character <= P.character &&
         P.character < Rg.end.character;
}

std::optional<lsp::Hover> roofline::hoverAt(const FileReport &R,
                                            const std::string &MainPath,
                                            llvm::StringRef MainText,
                                            lsp::Position Pos) {
  std::string Main = absolute(MainPath);
  std::optional<lsp::Hover> H;
  auto append = [&](lsp::Range Rg, const std::string &Text) {
    if (!H)
      H.emplace(Rg);
    else
      H->contents.value += "\n---\n\n";
    H->contents.value += Text;
  };
  for (const KernelReport &K : R.Kernels) {
    if (!isMain(K.Decl.Loc, Main))
      continue;
    lsp::Range Name = rangeAt(K.Decl.Loc, lineOf(MainText, K.Decl.Loc.Line),
                              K.Decl.PlainName.size());
    if (within(Name, Pos) && R.Gpu)
      append(Name, kernelHover(K, *R.Gpu));
  }
  if (H)
    return H;
  for (const KernelReport &K : R.Kernels)
    for (const AccessInfo &A : K.Accesses) {
      if (!isMain(A.Loc, Main) || A.Expr.empty())
        continue;
      lsp::Range Rg = rangeAt(A.Loc, "", A.Expr.size());
      if (within(Rg, Pos))
        append(Rg, accessHover(K, A));
    }
  return H;
}

std::vector<lsp::DocumentSymbol>
roofline::symbolsOf(const FileReport &R, const std::string &MainPath,
                    llvm::StringRef MainText) {
  std::string Main = absolute(MainPath);
  std::vector<lsp::DocumentSymbol> Out;
  for (const KernelReport &K : R.Kernels) {
    if (!isMain(K.Decl.Loc, Main))
      continue;
    lsp::Range Rg = rangeAt(K.Decl.Loc, lineOf(MainText, K.Decl.Loc.Line),
                            K.Decl.PlainName.size());
    lsp::DocumentSymbol S(K.Decl.Name, lsp::SymbolKind::Function, Rg, Rg);
    const RooflineMetrics &M = K.Metrics;
    if (M.Seconds)
      S.detail = "speed of light " + formatSeconds(*M.Seconds) + ", " +
                 M.Bound + "-bound";
    else
      S.detail = K.MissingSizes.empty() ? std::string("no speed of light")
                                        : K.MissingSizes;
    Out.push_back(std::move(S));
  }
  return Out;
}

static llvm::json::Value hint(lsp::Position P, std::string Label) {
  return llvm::json::Object{{"position", lsp::toJSON(P)},
                            {"label", std::move(Label)},
                            {"paddingLeft", true}};
}

static bool visible(lsp::Range V, unsigned Line) {
  return Line >= 1 && int(Line) - 1 >= V.start.line &&
         int(Line) - 1 <= V.end.line;
}

llvm::json::Value roofline::inlayHintsOf(const FileReport &R,
                                         const std::string &MainPath,
                                         llvm::StringRef MainText,
                                         HintKinds Kinds, lsp::Range Visible) {
  std::string Main = absolute(MainPath);
  llvm::json::Array Out;
  // One hint per place: a kernel launched twice shows its first launch's.
  std::set<std::pair<unsigned, unsigned>> Seen;
  auto once = [&](const SourceLoc &L) {
    return isMain(L, Main) && visible(Visible, L.Line) &&
           Seen.insert({L.Line, L.Column}).second;
  };
  for (const KernelReport &K : R.Kernels) {
    if (Kinds.Kernels && once(K.Decl.Loc)) {
      const RooflineMetrics &M = K.Metrics;
      std::string Label =
          M.Seconds ? formatSeconds(*M.Seconds) + ", " + M.Bound + "-bound"
                    : std::string("no sizes");
      Out.push_back(hint(lsp::Position(int(K.Decl.Loc.Line) - 1,
                                       int(K.Decl.Loc.Column) - 1 +
                                           int(K.Decl.PlainName.size())),
                         Label));
    }
    if (Kinds.Sectors)
      for (const AccessInfo &A : K.Accesses) {
        std::string Label;
        if (A.Sectors)
          Label = std::to_string(A.Sectors->Sectors) + " sectors/request";
        else if (A.Banks)
          Label = A.Banks->Ways > 1
                      ? std::to_string(A.Banks->Ways) + "-way bank conflict"
                      : std::string("no bank conflict");
        if (Label.empty() || A.Expr.empty() || !once(A.Loc))
          continue;
        Out.push_back(
            hint(lsp::Position(int(A.Loc.Line) - 1,
                               int(A.Loc.Column) - 1 + int(A.Expr.size())),
                 Label));
      }
    if (Kinds.Trips)
      for (const LoopSummary &L : K.Loops) {
        if (!once(L.Loc))
          continue;
        llvm::StringRef Line = lineOf(MainText, L.Loc.Line);
        Out.push_back(
            hint(lsp::Position(int(L.Loc.Line) - 1, int(Line.rtrim().size())),
                 "trips: " + L.Trips));
      }
  }
  return llvm::json::Value(std::move(Out));
}

static llvm::json::Value textEdit(lsp::Position At, std::string Text) {
  return llvm::json::Object{{"range", lsp::toJSON(lsp::Range(At, At))},
                            {"newText", std::move(Text)}};
}

static llvm::json::Value action(std::string Title, const std::string &Uri,
                                llvm::json::Value Edit, bool Preferred) {
  llvm::json::Object Changes;
  Changes[Uri] = llvm::json::Array{std::move(Edit)};
  return llvm::json::Object{
      {"title", std::move(Title)},
      {"kind", "quickfix"},
      {"isPreferred", Preferred},
      {"edit", llvm::json::Object{{"changes", std::move(Changes)}}}};
}

llvm::json::Value
roofline::codeActionsAt(const FileReport &R, const std::string &MainPath,
                        llvm::StringRef MainText, const std::string &Uri,
                        lsp::Range Range, const WorkspaceAccess &Workspace) {
  std::string Main = absolute(MainPath);
  llvm::json::Array Out;
  std::set<std::pair<unsigned, std::string>> Done;
  auto suppress = [&](const Finding &F) {
    if (!isMain(F.Loc, Main) || !visible(Range, F.Loc.Line) ||
        !Done.insert({F.Loc.Line, F.Check}).second)
      return;
    llvm::StringRef Line = lineOf(MainText, F.Loc.Line);
    int L = int(F.Loc.Line) - 1;
    if (!Line.contains("NOLINT"))
      Out.push_back(action("Suppress " + F.Check + " on this line (// NOLINT)",
                           Uri,
                           textEdit(lsp::Position(L, int(Line.size())),
                                    " // NOLINT(" + F.Check + ")"),
                           false));
    llvm::StringRef Indent =
        Line.take_while([](char C) { return C == ' ' || C == '\t'; });
    Out.push_back(action(
        "Suppress " + F.Check + " on this line (// NOLINTNEXTLINE above it)",
        Uri,
        textEdit(lsp::Position(L, 0),
                 Indent.str() + "// NOLINTNEXTLINE(" + F.Check + ")\n"),
        false));
  };
  for (const Finding &F : R.Findings)
    suppress(F);
  for (const KernelReport &K : R.Kernels) {
    for (const Finding &F : K.Findings)
      suppress(F);
    if (!isMain(K.Decl.Loc, Main) || !visible(Range, K.Decl.Loc.Line))
      continue;
    for (const std::string &P : K.MissingParams) {
      if (!Done.insert({K.Decl.Loc.Line, "param " + P}).second)
        continue;
      // A value to edit: annotations hold integers, and a size is one.
      std::string Annotation = "// cuda-roofline: param " + P + "=1048576";
      Out.push_back(action("Give '" + P + "' a value for this file: add '" +
                               Annotation + "' (then edit the value)",
                           Uri,
                           textEdit(lsp::Position(int(K.Decl.Loc.Line) - 1, 0),
                                    Annotation + "\n"),
                           true));
      if (auto A = configSizeAction(Main, P, Workspace))
        Out.push_back(std::move(*A));
    }
  }
  return llvm::json::Value(std::move(Out));
}
