//===- NvccFlags.cpp ------------------------------------------------------===//

#include "NvccFlags.h"
#include "Prelude.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <optional>
#include <set>

using namespace roofline;
using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;
using llvm::StringRef;

namespace {

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// ccache-style launchers run the compiler named by their first argument.
bool isLauncher(StringRef Program) {
  StringRef Stem = llvm::sys::path::stem(Program);
  return Stem == "ccache" || Stem == "sccache" || Stem == "buildcache";
}

/// nvcc's lists ("-DA,B", "-Xcompiler -fPIC,-Wall") split at commas, except
/// where one is escaped ("-DA=f(1\,2)").
std::vector<std::string> splitNvccList(StringRef S) {
  std::vector<std::string> Items(1);
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '\\' && I + 1 < S.size() && S[I + 1] == ',') {
      Items.back() += ',';
      ++I;
    } else if (S[I] == ',') {
      Items.emplace_back();
    } else {
      Items.back() += S[I];
    }
  }
  return Items;
}

std::string absoluteIn(StringRef Directory, StringRef Name) {
  llvm::SmallString<256> P(Name);
  if (llvm::sys::path::is_relative(P)) {
    P = Directory;
    llvm::sys::path::append(P, Name);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

llvm::Error expandInto(llvm::ArrayRef<std::string> Args, StringRef Directory,
                       bool Nvcc, std::vector<std::string> &Out,
                       std::vector<std::string> &Open) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    std::string Flag;
    std::vector<std::string> Files;
    if (A.size() > 1 && A.front() == '@') {
      Flag = A.str();
      Files.push_back(A.drop_front().str());
    } else if (Nvcc && (A == "--options-file" || A == "-optf")) {
      if (I + 1 == Args.size())
        return makeError("'" + A + "' at the end of the command: no file");
      Flag = (A + " " + Args[I + 1]).str();
      Files = splitNvccList(Args[++I]);
    } else if (Nvcc &&
               (A.starts_with("--options-file=") || A.starts_with("-optf="))) {
      Flag = A.str();
      Files = splitNvccList(A.split('=').second);
    } else {
      Out.push_back(A.str());
      continue;
    }
    for (const std::string &F : Files) {
      std::string Path = absoluteIn(Directory, F);
      if (llvm::is_contained(Open, Path))
        return makeError("response file '" + Path + "' includes itself");
      auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
      if (!Buf)
        return makeError("cannot read response file '" + Path + "' (" + Flag +
                         "): " + Buf.getError().message());
      llvm::BumpPtrAllocator Alloc;
      llvm::StringSaver Saver(Alloc);
      llvm::SmallVector<const char *, 32> Tokens;
      llvm::cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
      std::vector<std::string> Inner(Tokens.begin(), Tokens.end());
      Open.push_back(Path);
      if (llvm::Error E = expandInto(Inner, Directory, Nvcc, Out, Open))
        return E;
      Open.pop_back();
    }
  }
  return llvm::Error::success();
}

/// A GPU architecture of nvcc's ("sm_90", "compute_90a", "lto_100f") as
/// clang names the architecture it compiles device code for: nvcc's
/// front-end compiles for the virtual architecture, compute_90 has the same
/// __CUDA_ARCH__ as sm_90, and clang takes only the real names.
std::optional<std::string> clangArch(StringRef Name) {
  StringRef Rest = Name.trim();
  if (!Rest.consume_front("sm_") && !Rest.consume_front("compute_") &&
      !Rest.consume_front("lto_"))
    return std::nullopt;
  StringRef Digits = Rest.take_while(llvm::isDigit);
  StringRef Suffix = Rest.drop_front(Digits.size());
  if (Digits.empty() || !llvm::all_of(Suffix, llvm::isLower) ||
      Suffix.size() > 1)
    return std::nullopt;
  return ("sm_" + Digits + Suffix).str();
}

/// The numeric order of architectures: sm_90 < sm_90a < sm_100.
bool archLess(const std::string &A, const std::string &B) {
  StringRef DA = StringRef(A).drop_front(3), DB = StringRef(B).drop_front(3);
  unsigned NA = 0, NB = 0;
  DA.take_while(llvm::isDigit).getAsInteger(10, NA);
  DB.take_while(llvm::isDigit).getAsInteger(10, NB);
  if (NA != NB)
    return NA < NB;
  return A < B;
}

std::string dropNote(StringRef Kind, StringRef Flag, StringRef Why) {
  return ("dropped " + Kind + " flag '" + Flag + "' (" + Why + ")").str();
}

/// The host compiler's flags (values of -Xcompiler, and flags nvcc forwards
/// to it) that change how the code parses, in clang's spelling; the rest
/// (code generation, warnings, linking) is dropped.
class HostFlags {
public:
  explicit HostFlags(std::vector<std::string> &Out) : Out(Out) {}

  /// Takes one host argument; false when it is not understood (and
  /// dropped).
  bool add(StringRef A);
  /// Whether the last flag waits for its value ("-isystem" DIR).
  bool waiting() const { return Waiting != Pending::None; }
  /// The flag still waiting for its value, which will not come.
  std::string abandon() {
    Waiting = Pending::None;
    return WaitingFlag;
  }

private:
  enum class Pending { None, KeepJoined, KeepSeparate, Drop };

  static bool keepF(StringRef F);
  static bool dropF(StringRef F);

  std::vector<std::string> &Out;
  Pending Waiting = Pending::None;
  std::string WaitingFlag;
  bool OpenMP = false;
};

bool HostFlags::add(StringRef A) {
  if (Waiting != Pending::None) {
    if (Waiting == Pending::KeepJoined)
      Out.push_back(WaitingFlag + A.str());
    else if (Waiting == Pending::KeepSeparate)
      Out.insert(Out.end(), {WaitingFlag, A.str()});
    Waiting = Pending::None;
    return true;
  }
  // Paths and macros: what parsing needs most.
  for (StringRef F : {"-I", "-D", "-U"})
    if (A == F) {
      Waiting = Pending::KeepJoined;
      WaitingFlag = F.str();
      return true;
    }
  for (StringRef F : {"-isystem", "-iquote", "-idirafter", "-include",
                      "-imacros", "-isysroot", "--sysroot"})
    if (A == F) {
      Waiting = Pending::KeepSeparate;
      WaitingFlag = F.str();
      return true;
    }
  for (StringRef F : {"-MF", "-MT", "-MQ", "-o", "-x", "-L", "-l", "-Xlinker",
                      "-Xassembler", "-Xpreprocessor", "--param", "-z", "-T"})
    if (A == F) {
      Waiting = Pending::Drop;
      WaitingFlag = F.str();
      return true;
    }
  if (A.starts_with("-I") || A.starts_with("-D") || A.starts_with("-U") ||
      A.starts_with("-isystem") || A.starts_with("-iquote") ||
      A.starts_with("-idirafter") || A.starts_with("--sysroot=") ||
      A.starts_with("-std=") || A.starts_with("-stdlib=") ||
      A.starts_with("-Wp,") || A == "-nostdinc" || A == "-nostdinc++" ||
      A == "-w" || A == "-ansi" || A == "-pthread") {
    Out.push_back(A.str());
    return true;
  }
  if (A.starts_with("--std=")) {
    Out.push_back(A.drop_front().str());
    return true;
  }
  // OpenMP pragmas mean nothing to the analysis, but code tests _OPENMP to
  // include omp.h and call its functions: define it as the host compiler
  // does (gcc 12's value) without clang's OpenMP, which CUDA device
  // compilation does not take.
  if (A == "-fopenmp" || A.starts_with("-fopenmp=")) {
    if (!OpenMP)
      Out.insert(Out.end(), {"-D_OPENMP=201511", "-Wno-source-uses-openmp"});
    OpenMP = true;
    return true;
  }
  if (A.starts_with("-f")) {
    if (keepF(A)) {
      Out.push_back(A.str());
      return true;
    }
    return dropF(A);
  }
  // Warnings, optimization, debug information, machine and link flags: the
  // device-side parse does not depend on them.
  if (A.starts_with("-W") || A.starts_with("-O") || A.starts_with("-g") ||
      A.starts_with("-m") || A.starts_with("-L") || A.starts_with("-l") ||
      A.starts_with("-M") || A.starts_with("-static") ||
      A.starts_with("-nostdlib") || A.starts_with("-print-"))
    return true;
  static const char *const DroppedExact[] = {"-pipe",
                                             "-pedantic",
                                             "-pedantic-errors",
                                             "-rdynamic",
                                             "-shared",
                                             "-s",
                                             "-v",
                                             "-c",
                                             "-E",
                                             "-S",
                                             "-pie",
                                             "-no-pie",
                                             "-nodefaultlibs",
                                             "-nostartfiles",
                                             "-save-temps",
                                             "-p",
                                             "-pg",
                                             "-H",
                                             "-Q"};
  return llvm::is_contained(DroppedExact, A);
}

/// -f flags that change what code means or whether it parses.
bool HostFlags::keepF(StringRef F) {
  static const char *const Exact[] = {"-fexceptions",
                                      "-fno-exceptions",
                                      "-frtti",
                                      "-fno-rtti",
                                      "-fsigned-char",
                                      "-funsigned-char",
                                      "-fchar8_t",
                                      "-fno-char8_t",
                                      "-fms-extensions",
                                      "-fno-ms-extensions",
                                      "-fno-operator-names",
                                      "-fshort-wchar",
                                      "-fno-short-wchar",
                                      "-fsized-deallocation",
                                      "-fno-sized-deallocation",
                                      "-faligned-new",
                                      "-fno-aligned-new",
                                      "-fgnu-keywords",
                                      "-fno-gnu-keywords",
                                      "-fdeclspec",
                                      "-fno-declspec",
                                      "-fdollars-in-identifiers",
                                      "-fno-dollars-in-identifiers"};
  if (llvm::is_contained(Exact, F))
    return true;
  return F.starts_with("-faligned-new=") ||
         F.starts_with("-ftemplate-depth=") ||
         F.starts_with("-fconstexpr-depth=") ||
         F.starts_with("-fconstexpr-steps=");
}

/// -f flags of code generation, diagnostics and instrumentation, and gcc's
/// own dialect switches that clang does not take (its C++20 has coroutines
/// and concepts without them).
bool HostFlags::dropF(StringRef F) {
  StringRef Name = F.drop_front(2);
  Name.consume_front("no-");
  static const char *const Prefixes[] = {"PIC",
                                         "pic",
                                         "PIE",
                                         "pie",
                                         "plt",
                                         "visibility",
                                         "stack-",
                                         "omit-frame-pointer",
                                         "function-sections",
                                         "data-sections",
                                         "strict-aliasing",
                                         "strict-overflow",
                                         "wrapv",
                                         "trapv",
                                         "math-errno",
                                         "fast-math",
                                         "finite-math-only",
                                         "unsafe-math-optimizations",
                                         "rounding-math",
                                         "signaling-nans",
                                         "trapping-math",
                                         "associative-math",
                                         "reciprocal-math",
                                         "signed-zeros",
                                         "fp-contract",
                                         "excess-precision",
                                         "unroll-",
                                         "peel-loops",
                                         "common",
                                         "lto",
                                         "profile",
                                         "coverage",
                                         "test-coverage",
                                         "sanitize",
                                         "diagnostics",
                                         "color-diagnostics",
                                         "max-errors",
                                         "message-length",
                                         "threadsafe-statics",
                                         "semantic-interposition",
                                         "cf-protection",
                                         "asynchronous-unwind-tables",
                                         "unwind-tables",
                                         "tree-",
                                         "opt-info",
                                         "ipa-",
                                         "inline",
                                         "builtin",
                                         "debug-",
                                         "file-prefix-map",
                                         "macro-prefix-map",
                                         "record-gcc-switches",
                                         "ident",
                                         "pch-preprocess",
                                         "gnu-unique",
                                         "var-tracking",
                                         "ext-numeric-literals",
                                         "abi-version",
                                         "template-backtrace-limit",
                                         "permissive",
                                         "coroutines",
                                         "concepts",
                                         "delete-null-pointer-checks",
                                         "stack-usage",
                                         "elide-constructors",
                                         "keep-inline-functions",
                                         "instrument-functions",
                                         "split-stack",
                                         "align-",
                                         "optimize-sibling-calls",
                                         "merge-constants",
                                         "reorder-",
                                         "jump-tables",
                                         "zero-initialized-in-bss",
                                         "time-report",
                                         "verbose-asm",
                                         "dump-",
                                         "whole-program",
                                         "use-linker-plugin",
                                         "fuse-ld",
                                         "use-cxa-atexit",
                                         "devirtualize",
                                         "gcse",
                                         "vect-cost-model",
                                         "openmp-simd",
                                         "openacc",
                                         "lax-vector-conversions",
                                         "pretty-templates",
                                         "show-column",
                                         "working-directory",
                                         "input-charset",
                                         "exec-charset",
                                         "strong-eval-order",
                                         "ms-compatibility-version"};
  for (StringRef P : Prefixes)
    if (Name.starts_with(P))
      return true;
  return false;
}

/// What an nvcc option does to the clang command.
enum class Act {
  Drop,          // nvcc-only: no bearing on how the code parses
  Compile,       // -c
  DeviceCompile, // -dc: -c with relocatable device code
  Output,        // -o FILE
  Define,        // -D
  Undefine,      // -U
  IncludePath,   // -I
  SystemInclude, // -isystem
  PreInclude,    // -include
  Std,           // -std
  Language,      // -x
  Optimize,      // -O
  Debug,         // -g
  NoExceptions,  // -noeh
  TemplateDepth, // -ftemplate-depth
  NoWarnings,    // -w
  NoDeprecated,  // -Wno-deprecated-declarations
  FastMath,      // --use_fast_math
  Ftz,           // --ftz
  Fmad,          // --fmad
  Rdc,           // -rdc
  Arch,          // -arch
  Code,          // -code
  Gencode,       // -gencode
  DefaultStream, // --default-stream
  HostOptions,   // -Xcompiler
};

struct NvccOption {
  const char *Long;  ///< Without "--".
  const char *Short; ///< Without "-"; empty: none.
  bool Value;        ///< Takes a value ("-o FILE", "-o=FILE").
  bool List;         ///< The value is a comma-separated list.
  Act Action;
};

// nvcc 13.0's options (nvcc --help), and the undocumented -X flags of its
// sub-tools.
const NvccOption NvccOptions[] = {
    {"cuda", "cuda", false, false, Act::Drop},
    {"cubin", "cubin", false, false, Act::Drop},
    {"fatbin", "fatbin", false, false, Act::Drop},
    {"ptx", "ptx", false, false, Act::Drop},
    {"optix-ir", "optix-ir", false, false, Act::Drop},
    {"ltoir", "ltoir", false, false, Act::Drop},
    {"preprocess", "E", false, false, Act::Drop},
    {"generate-dependencies", "M", false, false, Act::Drop},
    {"generate-nonsystem-dependencies", "MM", false, false, Act::Drop},
    {"generate-dependencies-with-compile", "MD", false, false, Act::Drop},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false, false,
     Act::Drop},
    {"dependency-output", "MF", true, false, Act::Drop},
    {"generate-dependency-targets", "MP", false, false, Act::Drop},
    {"compile", "c", false, false, Act::Compile},
    {"device-c", "dc", false, false, Act::DeviceCompile},
    {"device-w", "dw", false, false, Act::Compile},
    {"device-link", "dlink", false, false, Act::Drop},
    {"link", "link", false, false, Act::Drop},
    {"lib", "lib", false, false, Act::Drop},
    {"run", "run", false, false, Act::Drop},
    {"output-file", "o", true, false, Act::Output},
    {"pre-include", "include", true, true, Act::PreInclude},
    {"objdir-as-tempdir", "objtemp", false, false, Act::Drop},
    {"library", "l", true, true, Act::Drop},
    {"define-macro", "D", true, true, Act::Define},
    {"undefine-macro", "U", true, true, Act::Undefine},
    {"include-path", "I", true, true, Act::IncludePath},
    {"system-include", "isystem", true, true, Act::SystemInclude},
    {"library-path", "L", true, true, Act::Drop},
    {"output-directory", "odir", true, false, Act::Drop},
    {"compiler-bindir", "ccbin", true, false, Act::Drop},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", false, false,
     Act::Drop},
    {"archiver-binary", "arbin", true, false, Act::Drop},
    {"cudart", "cudart", true, false, Act::Drop},
    {"cudadevrt", "cudadevrt", true, false, Act::Drop},
    {"libdevice-directory", "ldir", true, false, Act::Drop},
    {"target-directory", "target-dir", true, false, Act::Drop},
    {"use-local-env", "use-local-env", false, false, Act::Drop},
    {"force-cl-env-setup", "force-cl-env-setup", false, false, Act::Drop},
    {"profile", "pg", false, false, Act::Drop},
    {"debug", "g", false, false, Act::Debug},
    {"device-debug", "G", false, false, Act::Drop},
    {"generate-line-info", "lineinfo", false, false, Act::Drop},
    {"optimization-info", "opt-info", true, true, Act::Drop},
    {"optimize", "O", true, false, Act::Optimize},
    {"Ofast-compile", "Ofc", true, false, Act::Drop},
    {"dopt", "dopt", true, false, Act::Drop},
    {"dlink-time-opt", "dlto", false, false, Act::Drop},
    {"lto", "lto", false, false, Act::Drop},
    {"gen-opt-lto", "gen-opt-lto", false, false, Act::Drop},
    {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit", true, false,
     Act::Drop},
    {"ftemplate-depth", "ftemplate-depth", true, false, Act::TemplateDepth},
    {"no-exceptions", "noeh", false, false, Act::NoExceptions},
    {"shared", "shared", false, false, Act::Drop},
    {"x", "x", true, false, Act::Language},
    {"std", "std", true, false, Act::Std},
    {"no-host-device-initializer-list", "nohdinitlist", false, false,
     Act::Drop},
    {"no-host-device-move-forward", "nohdmoveforward", false, false, Act::Drop},
    // clang has these semantics without asking.
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false, false,
     Act::Drop},
    {"extended-lambda", "extended-lambda", false, false, Act::Drop},
    {"expt-extended-lambda", "expt-extended-lambda", false, false, Act::Drop},
    {"machine", "m", true, false, Act::Drop},
    {"m64", "m64", false, false, Act::Drop},
    {"compiler-options", "Xcompiler", true, true, Act::HostOptions},
    {"linker-options", "Xlinker", true, true, Act::Drop},
    {"archive-options", "Xarchive", true, true, Act::Drop},
    {"ptxas-options", "Xptxas", true, true, Act::Drop},
    {"nvlink-options", "Xnvlink", true, true, Act::Drop},
    {"cudafe-options", "Xcudafe", true, true, Act::Drop},
    {"fatbinary-options", "Xfatbin", true, true, Act::Drop},
    {"cicc-options", "Xcicc", true, true, Act::Drop},
    {"static-global-template-stub", "static-global-template-stub", true, false,
     Act::Drop},
    {"device-entity-has-hidden-visibility",
     "device-entity-has-hidden-visibility", true, false, Act::Drop},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler",
     false, false, Act::Drop},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", false,
     false, Act::Drop},
    {"forward-unknown-opts", "forward-unknown-opts", false, false, Act::Drop},
    {"dont-use-profile", "noprof", false, false, Act::Drop},
    {"dryrun", "dryrun", false, false, Act::Drop},
    {"verbose", "v", false, false, Act::Drop},
    {"threads", "t", true, false, Act::Drop},
    {"split-compile", "split-compile", true, false, Act::Drop},
    {"split-compile-extended", "split-compile-extended", true, false,
     Act::Drop},
    {"fdevice-syntax-only", "fdevice-syntax-only", false, false, Act::Drop},
    {"fdevice-time-trace", "fdevice-time-trace", true, false, Act::Drop},
    {"keep", "keep", false, false, Act::Drop},
    {"keep-dir", "keep-dir", true, false, Act::Drop},
    {"save-temps", "save-temps", false, false, Act::Drop},
    {"clean-targets", "clean", false, false, Act::Drop},
    {"time", "time", true, false, Act::Drop},
    {"run-args", "run-args", true, true, Act::Drop},
    {"input-drive-prefix", "idp", true, false, Act::Drop},
    {"dependency-drive-prefix", "ddp", true, false, Act::Drop},
    {"drive-prefix", "dp", true, false, Act::Drop},
    {"dependency-target-name", "MT", true, false, Act::Drop},
    {"no-align-double", "no-align-double", false, false, Act::Drop},
    {"no-device-link", "nodlink", false, false, Act::Drop},
    {"gpu-architecture", "arch", true, true, Act::Arch},
    {"gpu-code", "code", true, true, Act::Code},
    {"generate-code", "gencode", true, false, Act::Gencode},
    {"relocatable-device-code", "rdc", true, false, Act::Rdc},
    {"entries", "e", true, true, Act::Drop},
    {"maxrregcount", "maxrregcount", true, false, Act::Drop},
    {"use_fast_math", "use_fast_math", false, false, Act::FastMath},
    {"ftz", "ftz", true, false, Act::Ftz},
    {"prec-div", "prec-div", true, false, Act::Drop},
    {"prec-sqrt", "prec-sqrt", true, false, Act::Drop},
    {"fmad", "fmad", true, false, Act::Fmad},
    {"extra-device-vectorization", "extra-device-vectorization", false, false,
     Act::Drop},
    {"default-stream", "default-stream", true, false, Act::DefaultStream},
    {"disable-warnings", "w", false, false, Act::NoWarnings},
    {"keep-device-functions", "keep-device-functions", false, false, Act::Drop},
    {"source-in-ptx", "src-in-ptx", false, false, Act::Drop},
    {"restrict", "restrict", false, false, Act::Drop},
    {"Wreorder", "Wreorder", false, false, Act::Drop},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", false, false,
     Act::Drop},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", false, false,
     Act::Drop},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", false, false,
     Act::Drop},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", false, false,
     Act::NoDeprecated},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", false, false,
     Act::Drop},
    {"Werror", "Werror", true, true, Act::Drop},
    {"resource-usage", "res-usage", false, false, Act::Drop},
    {"extensible-whole-program", "ewp", false, false, Act::Drop},
    {"no-compress", "no-compress", false, false, Act::Drop},
    {"qpp-config", "qpp-config", true, false, Act::Drop},
    {"compile-as-tools-patch", "astoolspatch", false, false, Act::Drop},
    {"list-gpu-code", "code-ls", false, false, Act::Drop},
    {"list-gpu-arch", "arch-ls", false, false, Act::Drop},
    {"display-error-number", "err-no", false, false, Act::Drop},
    {"no-display-error-number", "no-err-no", false, false, Act::Drop},
    {"diag-error", "diag-error", true, true, Act::Drop},
    {"diag-suppress", "diag-suppress", true, true, Act::Drop},
    {"diag-warn", "diag-warn", true, true, Act::Drop},
    // The spellings of CUDA 11.
    {"diag_error", "diag_error", true, true, Act::Drop},
    {"diag_suppress", "diag_suppress", true, true, Act::Drop},
    {"diag_warn", "diag_warn", true, true, Act::Drop},
    {"host-linker-script", "hls", true, false, Act::Drop},
    {"augment-host-linker-script", "aug-hls", false, false, Act::Drop},
    {"relocatable-link", "r", false, false, Act::Drop},
    {"brief-diagnostics", "brief-diag", true, false, Act::Drop},
    {"jump-table-density", "jtd", true, false, Act::Drop},
    {"relocatable-ptx", "reloc-ptx", false, false, Act::Drop},
    {"device-stack-protector", "device-stack-protector", true, false,
     Act::Drop},
    {"compress-mode", "compress-mode", true, false, Act::Drop},
    {"frandom-seed", "frandom-seed", true, false, Act::Drop},
    {"sanitize", "sanitize", true, false, Act::Drop},
    {"jobserver", "jobserver", false, false, Act::Drop},
    {"help", "h", false, false, Act::Drop},
    {"version", "V", false, false, Act::Drop},
    // Expanded before translation; seen here only in a clang command.
    {"options-file", "optf", true, true, Act::Drop},
};

/// nvcc takes a one-letter option's value attached ("-DX", "-I/inc",
/// "-O3").
const char AttachedValue[] = "DUILlOo";

/// Options are spelled with one dash or two, long or short.
const NvccOption *findOption(StringRef Name) {
  for (const NvccOption &O : NvccOptions)
    if (Name == O.Long || Name == O.Short)
      return &O;
  return nullptr;
}

class NvccTranslator {
public:
  explicit NvccTranslator(StringRef File) : File(File), Host(Out) {}

  std::vector<std::string> run(llvm::ArrayRef<std::string> Args);

  std::vector<std::string> Notes;

private:
  void apply(const NvccOption &O, StringRef Spelled, StringRef Value);
  /// An option that is one clang flag, or two.
  void applyFlag(Act A);
  /// An option whose value (or each item of its list) clang takes as is.
  void applyValue(Act A, StringRef Spelled, StringRef Value,
                  llvm::ArrayRef<std::string> Items);
  /// An option set to true or false.
  void applyBool(Act A, StringRef Spelled, StringRef Value);
  /// -arch, -code and -gencode: where the architecture flags go, and what
  /// they name.
  void applyArch(Act A, StringRef Spelled, StringRef Value,
                 llvm::ArrayRef<std::string> Items);
  /// -Xcompiler: what the host filter keeps of the host compiler's options.
  void applyHostOptions(llvm::ArrayRef<std::string> Items);
  void addArch(StringRef Name, StringRef Spelled);
  void gencode(StringRef Spec, StringRef Spelled);
  bool parseBool(StringRef Value, StringRef Spelled, bool &B);

  StringRef File;
  std::vector<std::string> Out;
  HostFlags Host;
  /// Where the architecture flags go: the first architecture option.
  std::optional<size_t> ArchAt;
  std::set<std::string> VirtualArchs; ///< -arch, -gencode arch=
  std::set<std::string> CodeArchs;    ///< -code, used without -arch
  std::string Language;               ///< -x, in clang's name
};

bool NvccTranslator::parseBool(StringRef Value, StringRef Spelled, bool &B) {
  if (Value == "true" || Value == "1") {
    B = true;
    return true;
  }
  if (Value == "false" || Value == "0") {
    B = false;
    return true;
  }
  Notes.push_back(dropNote("nvcc", Spelled, "expected true or false"));
  return false;
}

void NvccTranslator::addArch(StringRef Name, StringRef Spelled) {
  if (Name == "native" || Name == "all" || Name == "all-major") {
    Notes.push_back(dropNote("nvcc", Spelled,
                             "no fixed architecture: clang's default applies"));
    return;
  }
  std::optional<std::string> A = clangArch(Name);
  if (!A) {
    Notes.push_back(dropNote("nvcc", Spelled,
                             "unknown GPU architecture '" + Name.str() + "'"));
    return;
  }
  VirtualArchs.insert(*A);
}

/// "arch=compute_90,code=[compute_90,sm_90]": the source is compiled for
/// the virtual architecture; the codes only say what ptxas assembles.
void NvccTranslator::gencode(StringRef Spec, StringRef Spelled) {
  StringRef S = Spec;
  bool Found = false;
  while (true) {
    size_t At = S.find("arch=");
    if (At == StringRef::npos)
      break;
    S = S.drop_front(At + strlen("arch="));
    StringRef Name = S.take_until([](char C) { return C == ',' || C == ' '; });
    Name = Name.trim("\"'[]");
    addArch(Name, Spelled);
    Found = true;
  }
  if (!Found)
    Notes.push_back(dropNote("nvcc", Spelled, "no arch= in the specification"));
}

void NvccTranslator::apply(const NvccOption &O, StringRef Spelled,
                           StringRef Value) {
  std::vector<std::string> Items;
  if (O.Value)
    Items =
        O.List ? splitNvccList(Value) : std::vector<std::string>{Value.str()};
  switch (O.Action) {
  case Act::Drop:
    return;
  case Act::Compile:
  case Act::DeviceCompile:
  case Act::Debug:
  case Act::NoExceptions:
  case Act::NoWarnings:
  case Act::NoDeprecated:
  case Act::FastMath:
    return applyFlag(O.Action);
  case Act::Output:
  case Act::Define:
  case Act::Undefine:
  case Act::IncludePath:
  case Act::SystemInclude:
  case Act::PreInclude:
  case Act::Std:
  case Act::Language:
  case Act::Optimize:
  case Act::TemplateDepth:
  case Act::DefaultStream:
    return applyValue(O.Action, Spelled, Value, Items);
  case Act::Ftz:
  case Act::Fmad:
  case Act::Rdc:
    return applyBool(O.Action, Spelled, Value);
  case Act::Arch:
  case Act::Code:
  case Act::Gencode:
    return applyArch(O.Action, Spelled, Value, Items);
  case Act::HostOptions:
    return applyHostOptions(Items);
  }
}

void NvccTranslator::applyFlag(Act A) {
  switch (A) {
  case Act::Compile:
    Out.push_back("-c");
    return;
  case Act::DeviceCompile:
    Out.insert(Out.end(), {"-fgpu-rdc", "-c"});
    return;
  case Act::Debug:
    Out.push_back("-g");
    return;
  case Act::NoExceptions:
    Out.push_back("-fno-exceptions");
    return;
  case Act::NoWarnings:
    Out.push_back("-w");
    return;
  case Act::NoDeprecated:
    Out.push_back("-Wno-deprecated-declarations");
    return;
  case Act::FastMath:
    // nvcc's fast math is approximate transcendentals and flushed denormals
    // (with --prec-div/--prec-sqrt=false, which clang has no flag for); not
    // clang's -ffast-math, whose reassociation nvcc never does.
    Out.insert(Out.end(), {"-fgpu-approx-transcendentals",
                           "-fgpu-flush-denormals-to-zero"});
    return;
  default:
    llvm_unreachable("not an option without a value");
  }
}

void NvccTranslator::applyValue(Act A, StringRef Spelled, StringRef Value,
                                llvm::ArrayRef<std::string> Items) {
  auto Each = [&](auto Fn) {
    for (const std::string &I : Items)
      Fn(I);
  };
  switch (A) {
  case Act::Output:
    Out.insert(Out.end(), {"-o", Value.str()});
    return;
  case Act::Define:
    Each([&](const std::string &I) { Out.push_back("-D" + I); });
    return;
  case Act::Undefine:
    Each([&](const std::string &I) { Out.push_back("-U" + I); });
    return;
  case Act::IncludePath:
    Each([&](const std::string &I) { Out.push_back("-I" + I); });
    return;
  case Act::SystemInclude:
    Each([&](const std::string &I) { Out.insert(Out.end(), {"-isystem", I}); });
    return;
  case Act::PreInclude:
    Each([&](const std::string &I) { Out.insert(Out.end(), {"-include", I}); });
    return;
  case Act::Std:
    Out.push_back("-std=" + Value.str());
    return;
  case Act::Language:
    if (Value == "cu")
      Language = "cuda";
    else if (Value == "c++" || Value == "c")
      Language = Value.str();
    else
      Notes.push_back(dropNote("nvcc", Spelled, "unknown language"));
    return;
  case Act::Optimize:
    Out.push_back("-O" + Value.str());
    return;
  case Act::TemplateDepth:
    Out.push_back("-ftemplate-depth=" + Value.str());
    return;
  case Act::DefaultStream:
    // What nvcc defines for the per-thread stream (clang's
    // -fgpu-default-stream is HIP's).
    if (Value == "per-thread")
      Out.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
    return;
  default:
    llvm_unreachable("not an option with a plain value");
  }
}

void NvccTranslator::applyBool(Act A, StringRef Spelled, StringRef Value) {
  bool B = false;
  switch (A) {
  case Act::Ftz:
    if (parseBool(Value, Spelled, B))
      Out.push_back(B ? "-fgpu-flush-denormals-to-zero"
                      : "-fno-gpu-flush-denormals-to-zero");
    return;
  case Act::Fmad:
    // Contraction is clang's CUDA default, as --fmad=true is nvcc's.
    if (parseBool(Value, Spelled, B) && !B)
      Out.push_back("-ffp-contract=off");
    return;
  case Act::Rdc:
    if (parseBool(Value, Spelled, B) && B)
      Out.push_back("-fgpu-rdc");
    return;
  default:
    llvm_unreachable("not a true/false option");
  }
}

void NvccTranslator::applyArch(Act A, StringRef Spelled, StringRef Value,
                               llvm::ArrayRef<std::string> Items) {
  if (!ArchAt)
    ArchAt = Out.size();
  switch (A) {
  case Act::Arch:
    for (const std::string &I : Items)
      addArch(I, Spelled);
    return;
  case Act::Code:
    for (const std::string &I : Items) {
      if (std::optional<std::string> C = clangArch(I))
        CodeArchs.insert(*C);
      else
        Notes.push_back(
            dropNote("nvcc", Spelled, "unknown GPU code '" + I + "'"));
    }
    return;
  case Act::Gencode:
    gencode(Value, Spelled);
    return;
  default:
    llvm_unreachable("not an architecture option");
  }
}

void NvccTranslator::applyHostOptions(llvm::ArrayRef<std::string> Items) {
  for (const std::string &I : Items) {
    // nvcc pastes the value into the host compiler's command line, which
    // splits it at spaces.
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 8> Tokens;
    llvm::cl::TokenizeGNUCommandLine(I, Saver, Tokens);
    for (const char *T : Tokens)
      if (!Host.add(T))
        Notes.push_back(dropNote("host compiler", T, "no clang equivalent"));
  }
}

std::vector<std::string> NvccTranslator::run(llvm::ArrayRef<std::string> Args) {
  size_t First = 1;
  if (Args.size() > 1 && isLauncher(Args[0]))
    First = 2;
  for (size_t I = First; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A.size() < 2 || A.front() != '-') {
      Out.push_back(A.str()); // An input file.
      continue;
    }
    StringRef Name = A.drop_front(A.starts_with("--") ? 2 : 1);
    auto [Bare, Attached] = Name.split('=');
    bool HasEquals = Name.contains('=');
    const NvccOption *O = findOption(Bare);
    StringRef Value = Attached;
    if (!O && llvm::is_contained(StringRef(AttachedValue), Name.front()) &&
        !A.starts_with("--")) {
      O = findOption(Name.take_front(1));
      Value = Name.drop_front();
      HasEquals = true;
    }
    if (!O) {
      // Unknown to nvcc, so forwarded to the host compiler
      // (-forward-unknown-to-host-compiler), with its value if it takes
      // one; what the host filter does not know either is dropped with a
      // note.
      if (!Host.add(A))
        Notes.push_back(dropNote("nvcc", A, "no clang equivalent"));
      else if (Host.waiting() && I + 1 < Args.size())
        Host.add(Args[++I]);
      else if (Host.waiting())
        Notes.push_back(dropNote("nvcc", Host.abandon(), "no value follows"));
      continue;
    }
    std::string Spelled = A.str();
    if (O->Value && !HasEquals) {
      if (I + 1 == Args.size()) {
        Notes.push_back(dropNote("nvcc", A, "no value follows"));
        continue;
      }
      Value = Args[++I];
      Spelled += " " + Value.str();
    } else if (!O->Value && HasEquals) {
      Notes.push_back(dropNote("nvcc", A, "takes no value"));
      continue;
    }
    apply(*O, Spelled, Value);
  }
  if (Host.waiting())
    Notes.push_back(
        dropNote("host compiler", Host.abandon(), "no value follows"));

  // One device compilation per virtual architecture, lowest first; -code
  // alone names real ones.
  std::vector<std::string> Archs(VirtualArchs.begin(), VirtualArchs.end());
  if (Archs.empty())
    Archs.assign(CodeArchs.begin(), CodeArchs.end());
  llvm::sort(Archs, archLess);
  std::vector<std::string> ArchFlags;
  for (const std::string &A : Archs)
    ArchFlags.push_back("--cuda-gpu-arch=" + A);
  Out.insert(Out.begin() + (ArchAt ? *ArchAt : Out.size()), ArchFlags.begin(),
             ArchFlags.end());

  std::vector<std::string> Result = {ROOFLINE_CLANGXX};
  // nvcc's -x holds for every input wherever it stands; without it, nvcc
  // compiles .cu files as CUDA, and so does clang.
  std::string Lang = Language;
  StringRef Ext = llvm::sys::path::extension(File);
  if (Lang.empty() && (Ext == ".cu" || Ext == ".cuh"))
    Lang = "cuda";
  if (!Lang.empty())
    Result.push_back("-x" + Lang);
  Result.insert(Result.end(), Out.begin(), Out.end());
  return Result;
}

struct NoteLog {
  std::mutex Lock;
  std::set<std::string> Notes;
};

NoteLog &noteLog() {
  static NoteLog Log;
  return Log;
}

bool isCudaCommand(const CompileCommand &C) {
  StringRef Ext = llvm::sys::path::extension(C.Filename);
  if (Ext == ".cu" || Ext == ".cuh")
    return true;
  for (size_t I = 0; I < C.CommandLine.size(); ++I) {
    StringRef A = C.CommandLine[I];
    if (A == "-xcuda" || A == "--cuda-gpu-arch" ||
        A.starts_with("--cuda-gpu-arch=") ||
        (A == "-x" && I + 1 < C.CommandLine.size() &&
         C.CommandLine[I + 1] == "cuda"))
      return true;
  }
  return false;
}

} // namespace

bool roofline::isNvccCommand(llvm::ArrayRef<std::string> Args) {
  if (Args.empty())
    return false;
  StringRef Program = Args[0];
  if (Args.size() > 1 && isLauncher(Program))
    Program = Args[1];
  return llvm::sys::path::stem(Program) == "nvcc";
}

llvm::Expected<std::vector<std::string>>
roofline::expandResponseFiles(llvm::ArrayRef<std::string> Args,
                              StringRef Directory, bool Nvcc) {
  std::vector<std::string> Out;
  std::vector<std::string> Open;
  if (llvm::Error E = expandInto(Args, Directory, Nvcc, Out, Open))
    return std::move(E);
  return Out;
}

llvm::Expected<TranslatedCommand>
roofline::translateCompileCommand(const CompileCommand &Command) {
  bool Nvcc = isNvccCommand(Command.CommandLine);
  auto Expanded =
      expandResponseFiles(Command.CommandLine, Command.Directory, Nvcc);
  if (!Expanded)
    return makeError("the compile command of '" + Command.Filename +
                     "': " + llvm::toString(Expanded.takeError()));
  TranslatedCommand T;
  T.Command = Command;
  if (!Nvcc) {
    T.Command.CommandLine = std::move(*Expanded);
    return T;
  }
  NvccTranslator Tr(Command.Filename);
  T.Command.CommandLine = Tr.run(*Expanded);
  T.Notes = std::move(Tr.Notes);
  return T;
}

void roofline::recordTranslationNotes(llvm::ArrayRef<std::string> Notes) {
  if (Notes.empty())
    return;
  NoteLog &Log = noteLog();
  std::lock_guard<std::mutex> G(Log.Lock);
  Log.Notes.insert(Notes.begin(), Notes.end());
}

std::vector<std::string> roofline::takeTranslationNotes() {
  NoteLog &Log = noteLog();
  std::lock_guard<std::mutex> G(Log.Lock);
  std::vector<std::string> Lines;
  for (const std::string &N : Log.Notes)
    Lines.push_back("cuda-roofline: note: " + N);
  Log.Notes.clear();
  return Lines;
}

NvccTranslatingDatabase::NvccTranslatingDatabase(
    const CompilationDatabase &Inner)
    : Inner(Inner) {}

NvccTranslatingDatabase::NvccTranslatingDatabase(
    std::unique_ptr<CompilationDatabase> Owned)
    : Owned(std::move(Owned)), Inner(*this->Owned) {}

std::vector<CompileCommand> NvccTranslatingDatabase::translateAll(
    std::vector<CompileCommand> Commands) const {
  std::vector<CompileCommand> Out;
  for (const CompileCommand &C : Commands) {
    auto T = translateCompileCommand(C);
    if (!T) {
      llvm::consumeError(T.takeError());
      continue;
    }
    recordTranslationNotes(T->Notes);
    Out.push_back(std::move(T->Command));
  }
  return Out;
}

std::vector<CompileCommand>
NvccTranslatingDatabase::getCompileCommands(StringRef FilePath) const {
  return translateAll(Inner.getCompileCommands(FilePath));
}

std::vector<std::string> NvccTranslatingDatabase::getAllFiles() const {
  return Inner.getAllFiles();
}

std::vector<CompileCommand>
NvccTranslatingDatabase::getAllCompileCommands() const {
  return translateAll(Inner.getAllCompileCommands());
}

llvm::Error
NvccTranslatingDatabase::translationError(StringRef FilePath) const {
  for (const CompileCommand &C : Inner.getCompileCommands(FilePath)) {
    auto T = translateCompileCommand(C);
    if (!T)
      return T.takeError();
  }
  return llvm::Error::success();
}

std::vector<std::string> roofline::cudaParseArgs(StringRef CudaPath) {
  std::string Cuda = CudaPath.empty() ? ROOFLINE_CUDA_PATH : CudaPath.str();
  return {"--cuda-path=" + Cuda, "-Wno-unknown-cuda-version", "-idirafter",
          Cuda + "/include/cccl"};
}

llvm::Error roofline::exportCompileCommands(const CompilationDatabase &DB,
                                            StringRef OutDir,
                                            StringRef CudaPath, bool Prelude) {
  std::vector<std::string> Extra = cudaParseArgs(CudaPath);
  // The nvcc-compatibility prelude, as the analysis pre-includes it: clangd
  // and a plugin build have no other way to get it (the tidy module and the
  // plugin inject it too; its include guard makes that harmless).
  if (Prelude)
    llvm::append_range(Extra, preludeArgs());
  llvm::json::Array Entries;
  for (const CompileCommand &C : DB.getAllCompileCommands()) {
    auto T = translateCompileCommand(C);
    if (!T)
      return T.takeError();
    recordTranslationNotes(T->Notes);
    std::vector<std::string> Args = std::move(T->Command.CommandLine);
    if (isCudaCommand(T->Command))
      Args.insert(Args.end(), Extra.begin(), Extra.end());
    llvm::json::Array JArgs;
    for (std::string &A : Args)
      JArgs.push_back(std::move(A));
    llvm::json::Object Entry{{"directory", C.Directory},
                             {"file", C.Filename},
                             {"arguments", std::move(JArgs)}};
    if (!C.Output.empty())
      Entry["output"] = C.Output;
    Entries.push_back(std::move(Entry));
  }
  if (std::error_code EC = llvm::sys::fs::create_directories(OutDir))
    return makeError("cannot create '" + OutDir + "': " + EC.message());
  llvm::SmallString<256> Path(OutDir);
  llvm::sys::path::append(Path, "compile_commands.json");
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return makeError("cannot write '" + Path + "': " + EC.message());
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Entries))) << "\n";
  OS.close();
  if (OS.has_error())
    return makeError("cannot write '" + Path + "': " + OS.error().message());
  return llvm::Error::success();
}
