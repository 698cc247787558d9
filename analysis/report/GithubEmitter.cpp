//===- GithubEmitter.cpp - GitHub Actions workflow commands ---------------===//
//
// One `::warning file=F,line=L,col=C,title=CHECK::MESSAGE` line per finding;
// the runner turns them into annotations on the pull request's diff. The
// runner splits commands at newlines and properties at ',' and ':', so those
// are percent-escaped the way @actions/core escapes them.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "ReviewSupport.h"

using namespace roofline;

static std::string escapeData(llvm::StringRef Text) {
  std::string S = validUtf8(Text), Out;
  for (char C : S) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

static std::string escapeProperty(llvm::StringRef S) {
  std::string Out;
  for (char C : escapeData(S)) {
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out += C;
  }
  return Out;
}

void roofline::emitGithub(llvm::raw_ostream &OS,
                          const std::vector<FileReport> &Files,
                          const ReviewOptions &Opts) {
  std::string Root = reviewRoot(Opts);
  for (const FileReport &F : Files)
    forEachFinding(F, [&](const Finding &Fd) {
      OS << "::" << levelName(Fd.Level, {"error", "warning", "notice"})
         << " file=" << escapeProperty(reviewPath(Fd.Loc.File, Root).Path);
      if (Fd.Loc.Line) {
        OS << ",line=" << Fd.Loc.Line;
        if (Fd.Loc.Column)
          OS << ",col=" << Fd.Loc.Column;
      }
      OS << ",title=" << escapeProperty(Fd.Check)
         << "::" << escapeData(messageWithNotes(Fd, NoteStyle::Lines, Root))
         << "\n";
    });
  // A file that could not be analyzed has no findings, which is no clean
  // bill: say so where the run's summary shows it.
  for (const std::string &Why : Opts.Failures)
    OS << "::error title=cuda-roofline::" << escapeData(Why) << "\n";
}
