//===- HostLaunches.h - Kernels and <<<>>> launch sites from the AST -*- C++
//-*-===//
//
// The device IR knows nothing about launches or source names of kernels, so
// this collects, from the same translation unit's AST, every kernel
// definition and every `<<<grid, block, smem>>>` call site, with the
// configuration and argument expressions already evaluated against the
// user's --param values where they can be.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_HOSTLAUNCHES_H
#define CUDA_ROOFLINE_HOSTLAUNCHES_H

#include "LaunchSpec.h"
#include "TensorMaps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class ASTContext;
class Decl;
class SourceLocation;
class SourceManager;
} // namespace clang

namespace roofline {

/// A kernel as the AST sees it.
struct KernelDecl {
  std::string MangledName;
  std::string Name;           ///< Qualified name with template arguments.
  std::string ShortName;      ///< Unqualified, with template arguments.
  std::string PlainName;      ///< Unqualified, without template arguments.
  std::string QualifiedPlain; ///< Qualified, without template arguments.

  /// True if Want names this kernel: bare or qualified, with or without
  /// its template arguments (spaces ignored).
  bool isNamed(const std::string &Want) const;
  SourceLoc Loc;
  std::vector<std::string> ParamNames;
  /// Integer parameters: bit width and signedness, to check given values.
  std::map<std::string, std::pair<unsigned, bool>> IntParamTypes;
  /// Pointer parameters: a value of 0 for one of these is a null pointer.
  std::set<std::string> PointerParams;
  /// The maximum threads per block of its __launch_bounds__: CUDA refuses
  /// a launch of larger blocks.
  std::optional<int64_t> MaxThreadsPerBlock;
  /// Template parameter name -> value, for instantiations.
  std::map<std::string, std::string> TemplateArgs;
  /// Where integer template arguments are used in the instantiated body
  /// (line, parameter, value): lets trip counts print as `ITEMS`, not `4`.
  struct TemplateUse {
    unsigned Line;
    std::string Name;
    int64_t Value;
  };
  std::vector<TemplateUse> TemplateUses;
};

struct HostFacts {
  std::vector<KernelDecl> Kernels;
  /// Kernel templates with no instantiation (nothing to analyze until one
  /// is named with --launch 'name<args>=...').
  std::vector<std::pair<std::string, SourceLoc>> UninstantiatedTemplates;
  /// The `<<<>>>` call sites (Source = Call), evaluated as far as the known
  /// values allow.
  std::vector<KernelLaunch> Launches;
  /// --param values the variable they name cannot hold (the analysis stops:
  /// the program would see another value).
  std::vector<std::string> Errors;
  /// The boxes of the TMA tensor maps the launches pass (TensorMaps.h).
  TensorMapBoxes TensorMaps;
  const KernelDecl *findKernel(const std::string &Mangled) const;
};

/// Builds the AST consumer that fills Facts at the end of the translation
/// unit. Params are the --param values by name. A unit with errors is left
/// to collectHostFacts.
std::unique_ptr<clang::ASTConsumer>
createHostLaunchCollector(HostFacts &Facts,
                          const std::map<std::string, int64_t> &Params);

/// Fills Facts from Ctx's translation unit, leaving out the functions Skip
/// accepts (those clang rejected: their launches are not evaluated).
void collectHostFacts(clang::ASTContext &Ctx, HostFacts &Facts,
                      const std::map<std::string, int64_t> &Params,
                      llvm::function_ref<bool(const clang::Decl *)> Skip);

/// L's expansion location as an absolute file name, line and column.
SourceLoc toSourceLoc(const clang::SourceManager &SM, clang::SourceLocation L);

} // namespace roofline

#endif
