//===- LintSupport.cpp ----------------------------------------------------===//

#include "LintSupport.h"

#include "clang/Basic/FileManager.h"

using namespace clang;

SourceLocation roofline::findingLocation(SourceManager &SM,
                                         const SourceLoc &Where) {
  const std::string &File = Where.File;
  unsigned Line = Where.Line, Column = Where.Column;
  SourceLocation MainStart = SM.getLocForStartOfFile(SM.getMainFileID());
  OptionalFileEntryRef Entry;
  if (auto Main = SM.getFileEntryRefForID(SM.getMainFileID());
      Main && Main->getName() == File)
    Entry = *Main;
  else
    Entry = SM.getFileManager().getOptionalFileRef(File);
  if (!Entry || Line == 0)
    return MainStart;
  SourceLocation Loc =
      SM.translateFileLineCol(*Entry, Line, Column ? Column : 1);
  return Loc.isValid() ? Loc : MainStart;
}

std::vector<roofline::LintDiagnostic>
roofline::findingDiagnostics(SourceManager &SM, const Finding &F,
                             LintStyle Style) {
  bool IsError = F.Level == "error";
  LintLevel Level = IsError ? LintLevel::Error
                    : F.Level == "note" && !Style.NoteAsWarning
                        ? LintLevel::Remark
                        : LintLevel::Warning;
  std::string Message = F.Message;
  if (Style.TagCheck)
    Message += " [" + F.Check + (IsError ? ",-warnings-as-errors" : "") + "]";
  std::vector<LintDiagnostic> Out;
  Out.push_back({Level, findingLocation(SM, F.Loc), Message});
  if (Level == LintLevel::Remark)
    return Out;
  for (const FindingNote &N : F.Notes)
    Out.push_back({LintLevel::Note, findingLocation(SM, N.Loc), N.Message});
  return Out;
}
