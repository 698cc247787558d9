//===- MarkdownEmitter.cpp - A pull-request comment -----------------------===//
//
// A table of the kernels on the roofline per GPU and the first warnings of
// each file that holds some, for a bot to post on a pull request. Kernel
// names, paths and messages quote source text (A[i * n], f<16>, a | b);
// every piece of it is escaped so that it renders as written and cannot
// break the table.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "ReviewSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace roofline;

// Findings listed per file; the rest are counted.
static constexpr size_t MaxFindingsPerFile = 10;

/// A zero-width space, as an entity: it breaks the patterns GitHub turns
/// into something else after Markdown is rendered (the way Dependabot and
/// Renovate quote names), and shows nothing.
static constexpr llvm::StringLiteral ZeroWidth = "&#8203;";

/// Whether Rest, after a ':', could complete an emoji shortcode: a run of
/// name characters that ends at another ':' or at the end of the piece
/// (what follows it, such as ":LINE", is not known here).
static bool opensShortcode(llvm::StringRef Rest) {
  size_t N = 0;
  while (N < Rest.size() && (llvm::isAlnum(Rest[N]) || Rest[N] == '_' ||
                             Rest[N] == '+' || Rest[N] == '-'))
    ++N;
  return N > 0 && (N == Rest.size() || Rest[N] == ':');
}

/// Text as GitHub Flavored Markdown shows it literally, on one line.
/// Besides CommonMark's specials: '$' would start math; "@name" would
/// mention (notify) a user and ":name:" become an emoji, which a backslash
/// does not prevent (GitHub finds them in the rendered text).
static std::string escape(llvm::StringRef Text) {
  std::string Valid = validUtf8(Text), Out;
  llvm::StringRef S = Valid;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '\n' || C == '\r') {
      Out += ' ';
      continue;
    }
    if (llvm::StringRef("\\`*_<>[]|~&#!$").contains(C))
      Out += '\\';
    Out += C;
    if (C == '@' || (C == ':' && opensShortcode(S.substr(I + 1))))
      Out += ZeroWidth;
  }
  return Out;
}

/// Text as an inline code span: a fence longer than any run of backticks
/// in it, padded when it starts or ends with one (CommonMark 6.1).
static std::string codeSpan(llvm::StringRef Text) {
  std::string S = validUtf8(Text);
  size_t Longest = 0, Run = 0;
  for (char C : S) {
    Run = C == '`' ? Run + 1 : 0;
    Longest = std::max(Longest, Run);
  }
  std::string Fence(Longest + 1, '`');
  bool Pad = !S.empty() && (S.front() == '`' || S.back() == '`');
  std::string Body = S;
  for (char &C : Body)
    if (C == '\n' || C == '\r')
      C = ' ';
  return Fence + (Pad ? " " : "") + Body + (Pad ? " " : "") + Fence;
}

static std::string number(double V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.4g", V);
  return S;
}

static std::string launchCell(const KernelLaunch &L) {
  if (L.known())
    return dimText(L.Grid) + " x " + dimText(L.Block);
  return L.Unresolved.empty() ? "unknown" : "unknown: " + escape(L.Unresolved);
}

static std::string intensityCell(const RooflineMetrics &M) {
  if (!M.AILower && !M.AIUpper)
    return "-";
  std::string S = (M.AILower ? number(*M.AILower) : "?") + " .. " +
                  (M.AIUpper ? number(*M.AIUpper) : "?");
  if (M.AIEstimate)
    S += " (estimate " + number(*M.AIEstimate) + ")";
  return S;
}

static std::string speedCell(const KernelReport &K) {
  const RooflineMetrics &M = K.Metrics;
  // Notes are not listed under the findings: the row says what is missing
  // (roofline-missing-size's reason; without a launch, the launch cell
  // does), so that it is not passed over.
  if (!M.Seconds && !M.SecondsUpper && M.LowerBound && K.MissingSizes.empty())
    return "\u2265 " + formatSeconds(*M.LowerBound) +
           " (unknown: " + escape(M.LowerBoundWhy) + ")";
  if (!M.Seconds && !M.SecondsUpper)
    return K.Launch.known() && !K.MissingSizes.empty()
               ? "needs sizes: " + escape(K.MissingSizes)
           : M.Note.empty() ? "-"
                            : escape(M.Note);
  std::string S = M.Seconds
                      ? formatSeconds(*M.Seconds)
                      : "? (no reuse " + formatSeconds(*M.SecondsUpper) + ")";
  if (M.SecondsEstimate)
    S += " (estimate " + formatSeconds(*M.SecondsEstimate) + ")";
  return S;
}

static bool isWarning(const Finding &F) { return F.Level != "note"; }

/// One table per GPU, in the order the files name them, under a heading
/// that names it: a run usually has one, and a column would repeat it on
/// every row.
static void kernelTables(llvm::raw_ostream &OS,
                         const std::vector<FileReport> &Files,
                         const std::string &Root) {
  std::vector<const GpuSpec *> Gpus;
  for (const FileReport &F : Files)
    if (!F.Kernels.empty() && !llvm::is_contained(Gpus, F.Gpu))
      Gpus.push_back(F.Gpu);
  for (const GpuSpec *Gpu : Gpus) {
    OS << "### Kernels on "
       << (Gpu ? escape(Gpu->Name) : std::string("an unknown GPU")) << "\n\n"
       << "| Kernel | Location | Launch (grid x block) "
          "| Intensity (FLOP/B) | Bound | Speed of light |\n"
       << "|---|---|---|---|---|---|\n";
    for (const FileReport &F : Files) {
      if (F.Gpu != Gpu)
        continue;
      for (const KernelReport &K : F.Kernels) {
        const RooflineMetrics &M = K.Metrics;
        OS << "| " << escape(K.Decl.Name) << " | "
           << escape(reviewPath(K.Decl.Loc.File, Root).Path) << ":"
           << K.Decl.Loc.Line << " | " << launchCell(K.Launch) << " | "
           << intensityCell(M) << " | "
           << (M.Bound.empty() ? std::string("-") : escape(M.Bound)) << " | "
           << speedCell(K) << " |\n";
      }
    }
    if (Gpu != Gpus.back())
      OS << "\n";
  }
}

static void findingItem(llvm::raw_ostream &OS, const Finding &F,
                        const std::string &Path, const std::string &Root) {
  OS << "- "
     << codeSpan(Path + ":" + std::to_string(F.Loc.Line) + ":" +
                 std::to_string(F.Loc.Column))
     << " " << codeSpan(F.Check);
  if (F.Level == "error")
    OS << " (error)";
  OS << ": " << escape(F.Message);
  if (F.Seconds)
    OS << " (costs " << formatSeconds(*F.Seconds) << ")";
  OS << "\n";
  for (const FindingNote &N : F.Notes) {
    OS << "  - ";
    if (N.Loc.Line && N.Loc.File != F.Loc.File)
      OS << codeSpan(reviewPath(N.Loc.File, Root).Path + ":" +
                     std::to_string(N.Loc.Line))
         << ": ";
    else if (N.Loc.Line && N.Loc.Line != F.Loc.Line)
      OS << "line " << N.Loc.Line << ": ";
    OS << escape(N.Message) << "\n";
  }
}

void roofline::emitMarkdown(llvm::raw_ostream &OS,
                            const std::vector<FileReport> &Files,
                            const ReviewOptions &Opts) {
  std::string Root = reviewRoot(Opts);
  size_t Kernels = 0, Warnings = 0;
  for (const FileReport &F : Files) {
    Kernels += F.Kernels.size();
    forEachFinding(F, [&](const Finding &Fd) { Warnings += isWarning(Fd); });
  }

  OS << "## cuda-roofline\n\n"
     << Kernels << (Kernels == 1 ? " kernel" : " kernels") << " in "
     << Files.size() << (Files.size() == 1 ? " file" : " files") << ", "
     << Warnings << (Warnings == 1 ? " finding" : " findings") << ".\n\n";
  // Files that could not be analyzed come first: their silence below is no
  // clean bill.
  if (!Opts.Failures.empty()) {
    OS << "**" << Opts.Failures.size()
       << (Opts.Failures.size() == 1 ? " file" : " files")
       << " could not be analyzed:**\n\n";
    for (const std::string &Why : Opts.Failures)
      OS << "- " << escape(Why) << "\n";
    OS << "\n";
  }
  if (Kernels)
    kernelTables(OS, Files, Root);
  for (const FileReport &F : Files) {
    std::string Path = reviewPath(F.File, Root).Path;
    if (F.Kernels.empty() && F.UninstantiatedTemplates.empty() &&
        F.Lost.empty())
      OS << "\n" << escape(Path) << ": no kernels found.\n";
    for (const auto &T : F.UninstantiatedTemplates)
      OS << "\n"
         << escape(reviewPath(T.second.File, Root).Path) << ":" << T.second.Line
         << ": kernel template " << escape(T.first)
         << " has no instantiation to analyze.\n";
  }

  OS << "\n### Top findings\n\n";
  if (!Warnings) {
    OS << "No findings.\n";
    return;
  }
  // Capped per file that holds the finding, not per file analyzed: a
  // header's findings are the header's, however many files include it, and
  // "N more in FILE" must send the reader to where they are.
  struct Listed {
    std::string Path;
    size_t Total = 0;
  };
  std::vector<Listed> PerFile;
  // The most costly first.
  for (const Finding *Fd : findingsByCost(Files)) {
    if (!isWarning(*Fd))
      continue;
    std::string Path = reviewPath(Fd->Loc.File, Root).Path;
    auto It =
        llvm::find_if(PerFile, [&](const Listed &L) { return L.Path == Path; });
    if (It == PerFile.end())
      It = PerFile.insert(PerFile.end(), Listed{Path, 0});
    if (++It->Total <= MaxFindingsPerFile)
      findingItem(OS, *Fd, Path, Root);
  }
  for (const Listed &L : PerFile)
    if (L.Total > MaxFindingsPerFile)
      OS << "- ... and " << L.Total - MaxFindingsPerFile << " more in "
         << escape(L.Path) << "\n";
}
