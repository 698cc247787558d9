//===- CheckSupport.h - What the checks' units share ------------*- C++ -*-===//
//
// One unit per check (UncoalescedAccess.cpp, BankConflict.cpp, ...), each
// its logic and its messages; Findings.cpp runs them over a kernel's
// accesses. This is what they share: the wording of accesses, numbers and
// assumptions, and a finding placed at an access or at the kernel. Private
// to analysis/checks.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_CHECKSUPPORT_H
#define CUDA_ROOFLINE_CHECKSUPPORT_H

#include "Checks.h"
#include "Findings.h"

#include <string>
#include <vector>

namespace roofline {

/// "50%", "12.5%".
std::string percent(double F);
/// "global load of 'a[i * n]'".
std::string what(const AccessInfo &A);
/// What a finding about A assumed, for its message: the sizes it holds for
/// when they were not given, and the block shape when no launch gave one
/// (" (for ...; ...)"), or "".
std::string assumptions(const AccessInfo &A);
/// A request's sectors, and the share of their bytes used: a range when
/// they vary with sizes that were not given (the most sectors, the least
/// used).
std::string sectorsText(const AccessInfo &A);
std::string usedText(const AccessInfo &A);
/// "4", "3.5".
std::string times(double X);
/// A time against the speed of light: "40% of", "3.5x".
std::string share(double F);

/// A finding of Check at access A (its note defaults to the same place).
Finding at(CheckId Check, const AccessInfo &A);
/// A finding of Check at the kernel.
Finding atKernel(CheckId Check, const KernelFacts &K);

// The access-level checks, each on one access.
void checkUncoalescedAccess(const AccessInfo &A, const FindingOptions &Opts,
                            std::vector<Finding> &Out);
void checkBankConflict(const AccessInfo &A, const FindingOptions &Opts,
                       std::vector<Finding> &Out);
void checkUnvectorizedAccess(const AccessInfo &A, std::vector<Finding> &Out);
void checkGlobalReuse(const AccessInfo &A, const KernelFacts &K,
                      const FindingOptions &Opts, std::vector<Finding> &Out);

// The kernel-level checks, for a kernel with metrics and a GPU; Missing is
// missingSizes(K).
void checkMemoryBound(const KernelFacts &K, const FindingOptions &Opts,
                      std::vector<Finding> &Out);
void checkKernelSummary(const KernelFacts &K, const std::string &Missing,
                        std::vector<Finding> &Out);
void checkMissingSize(const KernelFacts &K, const std::string &Missing,
                      std::vector<Finding> &Out);

} // namespace roofline

#endif
