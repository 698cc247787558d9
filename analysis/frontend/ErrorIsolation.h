//===- ErrorIsolation.h - One rejected function costs only itself -*- C++
//-*-===//
//
// Real CUDA files are written for nvcc, and clang rejects some of their code:
// a host template, one kernel among twelve, a declaration nvcc's headers
// provide. Clang's code generation refuses a translation unit with any
// error, so without help one bad line would lose every kernel of the file.
//
// Clang recovers from errors and keeps the rest of the AST. This module
// records clang's errors, attributes each to the function or declaration
// whose source contains it, and follows what each kernel uses (callees,
// variables, types, transitively) to decide which kernels depend on
// rejected code. The others are generated and analyzed as usual; every
// lost kernel and every rejected function is named with clang's first error.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_ERRORISOLATION_H
#define CUDA_ROOFLINE_ERRORISOLATION_H

#include "HostLaunches.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
} // namespace clang

namespace roofline {

/// One error clang reported.
struct ClangError {
  clang::SourceLocation Loc; ///< Invalid for the driver's errors.
  SourceLoc Where;           ///< Loc as file:line:col.
  std::string Message;
  bool Fatal = false; ///< Parsing stopped (a missing #include, ...).
  /// The template specializations whose instantiation raised it, as clang's
  /// "in instantiation of ..." notes name them: an error in one
  /// instantiation of a template costs only that instantiation.
  std::vector<std::string> InstantiatedIn;
  /// "file:line:col: message", or the message alone without a location.
  std::string describe() const;
};

/// A kernel or function that is not analyzed because of clang's errors.
struct NotAnalyzed {
  /// "kernel", "host function", "device function" or "declaration".
  std::string Kind;
  std::string Name; ///< As written (with template arguments); may be empty.
  SourceLoc Loc;    ///< Its declaration.
  ClangError Error; ///< Clang's first error in it, or in what it uses.
  /// The rejected function or declaration it uses, when the error is not in
  /// its own source; empty otherwise.
  std::string Via;
  /// "kernel 'k' not analyzed: ..." as every format words it.
  std::string message() const;
};

/// Forwards every diagnostic to the consumer it wraps and keeps the errors.
class ErrorRecorder : public clang::DiagnosticConsumer {
public:
  /// Owned is Next when the recorder replaces a client its engine owned.
  ErrorRecorder(clang::DiagnosticConsumer *Next,
                std::unique_ptr<clang::DiagnosticConsumer> Owned = nullptr);
  ~ErrorRecorder() override;

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void finish() override;
  void clear() override;
  bool IncludeInDiagnosticCounts() const override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  const std::vector<ClangError> &errors() const { return Errors; }

  /// Puts a recorder between Diags and its client (once: a second call
  /// returns the recorder already there).
  static ErrorRecorder &install(clang::DiagnosticsEngine &Diags);

private:
  clang::DiagnosticConsumer *Next;
  std::unique_ptr<clang::DiagnosticConsumer> Owned;
  std::vector<ClangError> Errors;
  bool InError = false; ///< The notes that follow belong to Errors.back().
};

/// Which declarations of a translation unit with errors stay analyzable.
class ErrorIsolation {
public:
  ErrorIsolation(clang::ASTContext &Ctx, std::vector<ClangError> Errors);
  ~ErrorIsolation();

  /// Why nothing of the file can be analyzed (parsing stopped, an error
  /// with no location), or empty.
  const std::string &wholeFileError() const { return WholeFile; }

  /// True if D's own source contains an error or clang marked D invalid.
  bool hasOwnError(const clang::Decl *D);
  /// True if D, or anything D uses (transitively), has an error: its code
  /// must not be generated.
  bool isBroken(const clang::Decl *D);

  /// Every kernel lost to an error, every function that has one, and
  /// every other error as a declaration, in source order.
  std::vector<NotAnalyzed> lost();

private:
  struct Verdict;
  const Verdict &verdict(const clang::Decl *D);
  const ClangError *firstErrorIn(const clang::Decl *D) const;

  clang::ASTContext &Ctx;
  std::vector<ClangError> Errors;
  /// Expansion offsets of the errors, by file: (offset, index in Errors).
  std::map<clang::FileID, std::vector<std::pair<unsigned, size_t>>> ByFile;
  llvm::DenseMap<const clang::Decl *, std::unique_ptr<Verdict>> Verdicts;
  std::string WholeFile;
};

} // namespace roofline

#endif
