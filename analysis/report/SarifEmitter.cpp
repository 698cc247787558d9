//===- SarifEmitter.cpp - SARIF 2.1.0 for code scanning -------------------===//
//
// What GitHub code scanning requires of a SARIF upload (and reviewdog
// -f=sarif reads): a rule with all three texts for every check, and results
// whose ruleId is stable and whose location is a repository-relative URI
// against %SRCROOT%. The rule texts come from the check registry.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "Emitters.h"
#include "ReviewSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

using namespace roofline;
using llvm::json::OStream;

// GitHub rejects a run with more results than this.
static constexpr size_t MaxResults = 25000;

// SARIF's "name" is an identifier: roofline-bank-conflict ->
// RooflineBankConflict.
static std::string ruleName(llvm::StringRef Id) {
  llvm::SmallVector<llvm::StringRef, 4> Words;
  Id.split(Words, '-', -1, /*KeepEmpty=*/false);
  std::string Name;
  for (llvm::StringRef W : Words)
    Name += llvm::toUpper(W.front()) + W.drop_front().str();
  return Name;
}

// The rule of every registered check, then of any check a finding carries
// that the registry lacks (so that every ruleId still resolves).
struct Rule {
  std::string Id;
  const CheckInfo *Info = nullptr;
};

static std::vector<Rule> collectRules(const std::vector<FileReport> &Files) {
  std::vector<Rule> Rules;
  for (const CheckInfo &C : allChecks())
    Rules.push_back({C.Id.str(), &C});
  for (const FileReport &F : Files)
    forEachFinding(F, [&](const Finding &Fd) {
      if (llvm::none_of(Rules, [&](const Rule &R) { return R.Id == Fd.Check; }))
        Rules.push_back({Fd.Check, nullptr});
    });
  return Rules;
}

static void text(OStream &J, const char *Key, llvm::StringRef Text) {
  J.attributeObject(Key, [&] { J.attribute("text", Text); });
}

static void rule(OStream &J, const Rule &R) {
  J.object([&] {
    J.attribute("id", R.Id);
    J.attribute("name", ruleName(R.Id));
    if (R.Info) {
      text(J, "shortDescription", R.Info->ShortDescription);
      text(J, "fullDescription", R.Info->FullDescription);
      text(J, "help", R.Info->Help);
    } else {
      text(J, "shortDescription", R.Id);
      text(J, "fullDescription", "Finding " + R.Id + " of cuda-roofline.");
      text(J, "help", "See docs/findings.md.");
    }
    J.attributeObject("defaultConfiguration", [&] {
      J.attribute("level", R.Info ? R.Info->DefaultLevel : "warning");
    });
    J.attributeObject("properties", [&] {
      J.attributeArray("tags", [&] {
        J.value("cuda");
        J.value("performance");
      });
    });
  });
}

// Columns are byte columns; SARIF counts UTF-16 code units by default.
// Where the line's text is known, count the code units before the column.
static unsigned utf16Column(llvm::StringRef Line, unsigned ByteColumn) {
  if (ByteColumn < 1 || ByteColumn - 1 > Line.size())
    return ByteColumn;
  unsigned Units = 0;
  for (unsigned char C : Line.take_front(ByteColumn - 1)) {
    if ((C & 0xC0) == 0x80) // A continuation byte.
      continue;
    Units += (C & 0xF8) == 0xF0 ? 2 : 1; // A 4-byte sequence is a pair.
  }
  return Units + 1;
}

namespace {
struct Locator {
  std::string Root;
  /// File:Line:Column; Text is that line's source when known (for its
  /// UTF-16 column), else empty.
  void physical(OStream &J, llvm::StringRef File, unsigned Line,
                unsigned Column, llvm::StringRef Text) const {
    ReviewPath P = reviewPath(File, Root);
    J.attributeObject("physicalLocation", [&] {
      J.attributeObject("artifactLocation", [&] {
        if (P.UnderRoot) {
          J.attribute("uri", percentEncodePath(P.Path));
          J.attribute("uriBaseId", "%SRCROOT%");
        } else {
          J.attribute("uri", fileUri(P.Path, /*Directory=*/false));
        }
      });
      if (!Line)
        return;
      J.attributeObject("region", [&] {
        J.attribute("startLine", Line);
        if (Column)
          J.attribute("startColumn",
                      Text.empty() ? Column : utf16Column(Text, Column));
      });
    });
  }
};
} // namespace

static void result(OStream &J, const Finding &F, const std::vector<Rule> &Rules,
                   const Locator &L) {
  size_t Index = 0;
  while (Rules[Index].Id != F.Check)
    ++Index;
  J.object([&] {
    J.attribute("ruleId", F.Check);
    J.attribute("ruleIndex", int64_t(Index));
    J.attribute("level", F.Level == "error" || F.Level == "note"
                             ? F.Level
                             : std::string("warning"));
    text(J, "message", messageWithNotes(F, NoteStyle::Sentences, L.Root));
    J.attributeArray("locations", [&] {
      J.object([&] {
        L.physical(J, F.Loc.File, F.Loc.Line, F.Loc.Column, F.SourceLine);
      });
    });
    if (F.Seconds)
      J.attributeObject("properties",
                        [&] { J.attribute("costSeconds", *F.Seconds); });
    if (F.Notes.empty())
      return;
    J.attributeArray("relatedLocations", [&] {
      for (size_t I = 0; I < F.Notes.size(); ++I)
        J.object([&] {
          const FindingNote &N = F.Notes[I];
          J.attribute("id", int64_t(I + 1));
          // Each note in its own file: a loop or an error can be in
          // another one than the finding.
          bool OnFindingLine =
              N.Loc.File == F.Loc.File && N.Loc.Line == F.Loc.Line;
          L.physical(J, N.Loc.File, N.Loc.Line, N.Loc.Column,
                     OnFindingLine ? llvm::StringRef(F.SourceLine)
                                   : llvm::StringRef());
          text(J, "message", N.Message);
        });
    });
  });
}

void roofline::emitSarif(llvm::raw_ostream &OS,
                         const std::vector<FileReport> &Files,
                         const ReviewOptions &Opts) {
  Locator L{reviewRoot(Opts)};
  std::vector<Rule> Rules = collectRules(Files);
  size_t Total = 0;
  std::vector<std::string> Lost;
  for (const FileReport &F : Files) {
    forEachFinding(F, [&](const Finding &) { ++Total; });
    for (const Finding &Fd : F.Findings)
      Lost.push_back(Fd.Loc.File + ":" + std::to_string(Fd.Loc.Line) + ": " +
                     Fd.Message);
  }

  OStream J(OS, 2);
  J.object([&] {
    J.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    J.attribute("version", "2.1.0");
    J.attributeArray("runs", [&] {
      J.object([&] {
        J.attributeObject("tool", [&] {
          J.attributeObject("driver", [&] {
            J.attribute("name", "cuda-roofline");
            J.attribute("version", ToolVersion);
            J.attributeArray("rules", [&] {
              for (const Rule &R : Rules)
                rule(J, R);
            });
          });
        });
        J.attributeObject("originalUriBaseIds", [&] {
          J.attributeObject("%SRCROOT%", [&] {
            J.attribute("uri", fileUri(L.Root, /*Directory=*/true));
          });
        });
        J.attributeArray("invocations", [&] {
          J.object([&] {
            // A file that could not be analyzed makes the run unsuccessful:
            // its absence of results is not a clean bill.
            J.attribute("executionSuccessful", Opts.Failures.empty());
            if (Total <= MaxResults && Opts.Failures.empty() && Lost.empty())
              return;
            J.attributeArray("toolExecutionNotifications", [&] {
              for (const std::string &Why : Opts.Failures)
                J.object([&] {
                  J.attribute("level", "error");
                  text(J, "message", Why);
                });
              // Code clang rejected is analysis that did not happen, beside
              // its roofline-not-analyzed result.
              for (const std::string &Why : Lost)
                J.object([&] {
                  J.attribute("level", "error");
                  text(J, "message", Why);
                });
              if (Total <= MaxResults)
                return;
              J.object([&] {
                J.attribute("level", "warning");
                text(J, "message",
                     "Only the first " + std::to_string(MaxResults) + " of " +
                         std::to_string(Total) +
                         " results are included (GitHub's limit per run).");
              });
            });
          });
        });
        J.attribute("columnKind", "utf16CodeUnits");
        J.attributeArray("results", [&] {
          // The most costly first: GitHub's cap keeps those.
          size_t N = 0;
          for (const Finding *Fd : findingsByCost(Files))
            if (N++ < MaxResults)
              result(J, *Fd, Rules, L);
        });
      });
    });
  });
  OS << "\n";
}
