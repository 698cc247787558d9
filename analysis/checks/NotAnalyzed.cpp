//===- NotAnalyzed.cpp - roofline-not-analyzed ----------------------------===//

#include "CheckSupport.h"

using namespace roofline;

std::vector<Finding>
roofline::buildNotAnalyzedFindings(const std::vector<NotAnalyzed> &Lost) {
  std::vector<Finding> Out;
  for (const NotAnalyzed &N : Lost) {
    Finding F;
    F.Check = checkId(CheckId::NotAnalyzed).str();
    F.Loc = N.Loc;
    F.Message = N.message();
    if (N.Error.Where.Line &&
        (N.Error.Where.File != N.Loc.File || N.Error.Where.Line != N.Loc.Line ||
         N.Error.Where.Column != N.Loc.Column))
      F.Notes.push_back({N.Error.Where.File, N.Error.Where.Line,
                         N.Error.Where.Column,
                         "clang's error: " + N.Error.Message});
    Out.push_back(std::move(F));
  }
  return Out;
}
