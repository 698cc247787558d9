//===- LintSupport.cpp ----------------------------------------------------===//

#include "LintSupport.h"

#include "clang/Basic/FileManager.h"

using namespace clang;

SourceLocation roofline::findingLocation(SourceManager &SM,
                                         const std::string &File,
                                         unsigned Line, unsigned Column) {
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
