//===- RdjsonlEmitter.cpp - reviewdog rdjsonl -----------------------------===//
//
// One rdjson Diagnostic per line (reviewdog -f=rdjsonl). Its columns are
// 1-based UTF-8 byte columns, which is what findings carry.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "ReviewSupport.h"

#include "llvm/Support/JSON.h"

using namespace roofline;

void roofline::emitRdjsonl(llvm::raw_ostream &OS,
                           const std::vector<FileReport> &Files,
                           const ReviewOptions &Opts) {
  std::string Root = reviewRoot(Opts);
  for (const FileReport &F : Files)
    forEachFinding(F, [&](const Finding &Fd) {
      llvm::json::OStream J(OS); // Compact: one diagnostic per line.
      J.object([&] {
        J.attribute("message", messageWithNotes(Fd, NoteStyle::Lines, Root));
        J.attributeObject("location", [&] {
          J.attribute("path", reviewPath(Fd.Loc.File, Root).Path);
          if (!Fd.Loc.Line)
            return;
          J.attributeObject("range", [&] {
            J.attributeObject("start", [&] {
              J.attribute("line", Fd.Loc.Line);
              if (Fd.Loc.Column)
                J.attribute("column", Fd.Loc.Column);
            });
          });
        });
        J.attribute("severity",
                    levelName(Fd.Level, {"ERROR", "WARNING", "INFO"}));
        J.attributeObject("source",
                          [&] { J.attribute("name", "cuda-roofline"); });
        J.attributeObject("code", [&] { J.attribute("value", Fd.Check); });
      });
      OS << "\n";
    });
  // A file that could not be analyzed: an error without a location (its
  // message names the file), so that its silence is not read as clean.
  for (const std::string &Why : Opts.Failures) {
    llvm::json::OStream J(OS);
    J.object([&] {
      J.attribute("message", Why);
      J.attribute("severity", "ERROR");
      J.attributeObject("source",
                        [&] { J.attribute("name", "cuda-roofline"); });
    });
    OS << "\n";
  }
}
