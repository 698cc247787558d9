//===- Emitters.h - Text and JSON reports -----------------------*- C++ -*-===//
//
// Emitters format what the Analyzer computed; they derive nothing. The JSON
// schema is documented in docs/json-schema.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_EMITTERS_H
#define CUDA_ROOFLINE_EMITTERS_H

#include "Format.h"
#include "Report.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace roofline {

/// FindingsOnly: the warnings and errors alone, as clang-tidy prints them
/// (for pre-commit hooks and editors).
void emitText(llvm::raw_ostream &OS, const std::vector<FileReport> &Files,
              bool FindingsOnly = false);
void emitJson(llvm::raw_ostream &OS, const std::vector<FileReport> &Files);

/// Options of the review formats.
struct ReviewOptions {
  /// Directory that file URIs and paths are made relative to (the
  /// repository root); empty: the current directory.
  std::string SourceRoot;
  /// Why files could not be analyzed (SARIF: an unsuccessful run).
  std::vector<std::string> Failures;
};

/// SARIF 2.1.0 as GitHub code scanning reads it (docs/integrations.md).
void emitSarif(llvm::raw_ostream &OS, const std::vector<FileReport> &Files,
               const ReviewOptions &Opts);
/// GitHub Actions workflow commands (::warning file=...::message).
void emitGithub(llvm::raw_ostream &OS, const std::vector<FileReport> &Files,
                const ReviewOptions &Opts);
/// reviewdog rdjsonl: one JSON diagnostic per line.
void emitRdjsonl(llvm::raw_ostream &OS, const std::vector<FileReport> &Files,
                 const ReviewOptions &Opts);
/// A pull-request comment: per-kernel roofline table and top findings.
void emitMarkdown(llvm::raw_ostream &OS, const std::vector<FileReport> &Files,
                  const ReviewOptions &Opts);

/// The hierarchical roofline of the kernels of Files as SVG
/// (docs/prediction.md, "The picture"): the GPU's DRAM, L2 and L1 roofs and
/// the compute roofs of the precisions the kernels use, and one point per
/// kernel per level. Kernels analyzed for another GPU than the first file's
/// are left out.
void emitRooflineSvg(llvm::raw_ostream &OS,
                     const std::vector<FileReport> &Files);

/// The file names in Files that are not valid UTF-8 (sorted, once each).
/// JSON, rdjsonl, GitHub and Markdown output are UTF-8 text, which cannot
/// carry such a name's bytes: the front-end warns about each.
std::vector<std::string> namesNotUtf8(const std::vector<FileReport> &Files);

/// One kernel's part of the text report (what emitText prints for it).
void emitKernelText(llvm::raw_ostream &OS, const KernelReport &K,
                    const GpuSpec &Gpu);

/// Markdown for an editor's hover on a kernel's name: its speed of light and
/// bound, then its text report (launch, counts per thread as formulas, per
/// block and per grid, intensity, unknowns, findings).
std::string kernelHover(const KernelReport &K, const GpuSpec &Gpu);
/// Markdown for a hover on one of K's accesses: bytes per thread, sectors per
/// request or bank-conflict ways, reuse, and the findings at it.
std::string accessHover(const KernelReport &K, const AccessInfo &A);

/// Counter names as reports show them: "global.load_bytes" ->
/// "global_load_bytes".
std::string reportKey(const std::string &Counter);

} // namespace roofline

#endif
