//===- Checks.h - The registry of lint check ids ----------------*- C++ -*-===//
//
// Every check id a finding can carry, with the texts that explain it. One
// table serves the findings (each check's unit under analysis/checks/), the
// emitters, the SARIF rules, the clang-tidy module and --checks globs: an id
// is written only in Checks.cpp, and a check is documented once (and
// consistently with docs/findings.md and its page, docs/checks/ID.md).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_CHECKS_H
#define CUDA_ROOFLINE_CHECKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace roofline {

class CheckGlob;

/// Every check, in the registry's order.
enum class CheckId {
  UncoalescedAccess,
  GlobalReuse,
  BankConflict,
  UnvectorizedAccess,
  MemoryBound,
  KernelSummary,
  NotAnalyzed,
  MissingSize,
};

struct CheckInfo {
  CheckId Which;
  /// "roofline-bank-conflict": what findings, globs and NOLINT comments
  /// name it by.
  llvm::StringRef Id;
  /// One line, no trailing period.
  llvm::StringRef ShortDescription;
  /// What the check detects and when it fires.
  llvm::StringRef FullDescription;
  /// What to do about it; names docs/findings.md.
  llvm::StringRef Help;
  /// The level its findings have before --warnings-as-errors: "warning" or
  /// "note".
  llvm::StringRef DefaultLevel = "warning";
  /// For a note: whether --warnings-as-errors can make it an error, when it
  /// names the check in full (CheckGlob::namesInFull). A note that only
  /// informs (the kernel summary) never is.
  bool NoteCanBeError = false;
  /// Whether its findings are about the kernel as a whole, said once per
  /// report (not merged across reports, listed first).
  bool KernelLevel = false;

  /// Its documentation page, relative to the repository:
  /// docs/checks/ID.md.
  std::string docPage() const { return ("docs/checks/" + Id + ".md").str(); }
};

/// Whether a finding of check Id at Level ("warning" or "note") becomes an
/// error under the --warnings-as-errors globs WarningsAsErrors: a warning
/// when they match it, a note when its check allows it and they name it in
/// full, so that `roofline-*` or `*` promote warnings only.
bool promotesToError(const CheckGlob &WarningsAsErrors, llvm::StringRef Id,
                     llvm::StringRef Level);

/// An error naming the check globs Text (as the user wrote them) if they
/// enable none of the checks -- a typo such as '-*,roofline-uncoalesced'
/// would otherwise silence every finding -- else success.
llvm::Error checkGlobEnablesSome(const CheckGlob &Globs, llvm::StringRef Text);

/// Every check, in a stable order (SARIF rule indices depend on it).
llvm::ArrayRef<CheckInfo> allChecks();

/// The check with this id, or null.
const CheckInfo *findCheck(llvm::StringRef Id);

/// The registry's entry of C.
const CheckInfo &checkInfo(CheckId C);

/// The id of C ("roofline-bank-conflict").
inline llvm::StringRef checkId(CheckId C) { return checkInfo(C).Id; }

/// Whether Id's findings are about the kernel as a whole (KernelLevel).
bool kernelLevelCheck(llvm::StringRef Id);

} // namespace roofline

#endif
