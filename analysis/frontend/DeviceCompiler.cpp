//===- DeviceCompiler.cpp -------------------------------------------------===//

#include "DeviceCompiler.h"
#include "ASTCompiler.h"
#include "CacheHintAsm.h"
#include "FlagLoops.h"
#include "NvccFlags.h"
#include "Prelude.h"
#include "PtxCodegen.h"
#include "UnsafeFlags.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

#include <optional>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
}

using namespace roofline;
using namespace clang;
using namespace clang::tooling;

namespace {

/// What a unit with errors leaves: the code that does not depend on them,
/// generated again from the AST (clang's codegen gives up on the unit).
struct IsolatedUnit {
  std::optional<CompiledUnit> Unit;
  std::string Failure; ///< Why nothing could be analyzed.
};

/// Runs error isolation at the end of a unit that has errors.
class IsolationConsumer : public ASTConsumer {
public:
  IsolationConsumer(CompilerInstance &CI, const CompileOptions &Opts,
                    const ErrorRecorder &Recorder, IsolatedUnit &Result)
      : CI(CI), Opts(Opts), Recorder(Recorder), Result(Result) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Ctx.getDiagnostics().hasErrorOccurred())
      return;
    auto CU =
        compileFromAST(Ctx, CI.getPreprocessor(), Opts, Recorder.errors());
    if (!CU) {
      Result.Failure = llvm::toString(CU.takeError());
      return;
    }
    Result.Unit = std::move(*CU);
  }

private:
  CompilerInstance &CI;
  const CompileOptions &Opts;
  const ErrorRecorder &Recorder;
  IsolatedUnit &Result;
};

/// Codegen action that also runs the launch-site collector on the same AST.
class AnalysisCodeGenAction : public EmitLLVMOnlyAction {
public:
  AnalysisCodeGenAction(llvm::LLVMContext *Ctx, HostFacts &Facts,
                        const CompileOptions &Opts,
                        const ErrorRecorder &Recorder, IsolatedUnit &Isolated)
      : EmitLLVMOnlyAction(Ctx), Facts(Facts), Opts(Opts), Recorder(Recorder),
        Isolated(Isolated) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef InFile) override {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    // The collector runs first: codegen's end-of-TU processing may release
    // AST state that a later traversal would touch.
    Consumers.push_back(createHostLaunchCollector(Facts, Opts.Params));
    Consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(CI, InFile));
    // Codegen does nothing on a unit with errors; this takes over then.
    Consumers.push_back(
        std::make_unique<IsolationConsumer>(CI, Opts, Recorder, Isolated));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  HostFacts &Facts;
  const CompileOptions &Opts;
  const ErrorRecorder &Recorder;
  IsolatedUnit &Isolated;
};

class DeviceToolAction : public ToolAction {
public:
  DeviceToolAction(CompiledUnit &Out, const CompileOptions &Opts)
      : Out(Out), Opts(Opts) {}

  /// Set when the unit had errors: what isolation could keep.
  IsolatedUnit Isolated;
  /// The device compile's -fgpu-approx-transcendentals (nvcc's fast math).
  bool ApproxMath = false;

  bool runInvocation(std::shared_ptr<CompilerInvocation> Inv,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCH,
                     DiagnosticConsumer *Diags) override {
    if (!Inv->getLangOpts().CUDAIsDevice)
      return true; // Host job: the device job carries everything we need.
    ApproxMath = Inv->getLangOpts().GPUDeviceApproxTranscendentals;
    CodeGenOptions &CG = Inv->getCodeGenOpts();
    // libdevice stays unlinked so math calls remain recognizable.
    CG.LinkBitcodeFiles.clear();
    CG.DisableLLVMPasses = true;
    CG.OptimizationLevel = 3;
    // As in a release build: without it clang marks every loop that has no
    // pragma "do not unroll", and the machine code the instruction counts
    // come from (PtxCodegen.h) would keep loops a build unrolls.
    CG.UnrollLoops = true;
    CG.setDebugInfo(llvm::codegenoptions::DebugLineTablesOnly);
    CG.DebugColumnInfo = true;
    CG.DiscardValueNames = false;
    // The command's directory, not the process's: relative file names in
    // locations resolve against it.
    if (auto Cwd = Files->getVirtualFileSystem().getCurrentWorkingDirectory())
      CG.DebugCompilationDir = *Cwd;
    Inv->getFrontendOpts().DisableFree = false;
    // Every error must be seen for error isolation: past clang's default
    // limit of 20 it stops parsing, losing the rest of the file.
    Inv->getDiagnosticOpts().ErrorLimit = 0;

    CompilerInstance CI(std::move(Inv), std::move(PCH));
    CI.setFileManager(Files);
    CI.createDiagnostics(Diags, /*ShouldOwnClient=*/false);
    ErrorRecorder &Recorder = ErrorRecorder::install(CI.getDiagnostics());
    // "N warnings generated" goes where the diagnostics go.
    if (Opts.Diagnostics)
      CI.setVerboseOutputStream(*Opts.Diagnostics);
    if (!CI.hasDiagnostics())
      return false;
    CI.createSourceManager();
    AnalysisCodeGenAction Act(Out.Context.get(), Out.Facts, Opts, Recorder,
                              Isolated);
    bool Ok = CI.ExecuteAction(Act);
    bool Errors = CI.getDiagnostics().hasErrorOccurred();
    Out.Module = Act.takeModule();
    Files->clearStatCache();
    if (Errors)
      return Isolated.Unit.has_value();
    return Ok && Out.Module != nullptr;
  }

private:
  CompiledUnit &Out;
  const CompileOptions &Opts;
};

/// The analysis compiles the device side alone, for its own architecture
/// (CompileOptions::Arch): the command's choice of sides and architectures
/// goes (nvcc's is translated to these flags by NvccTranslatingDatabase).
ArgumentsAdjuster stripOffloadSelection() {
  return [](const CommandLineArguments &Args, StringRef) {
    CommandLineArguments R;
    for (StringRef A : Args)
      if (!A.starts_with("--cuda-gpu-arch=") &&
          !A.starts_with("--offload-arch=") &&
          !A.starts_with("--no-offload-arch=") && A != "--cuda-host-only" &&
          A != "--cuda-device-only" && A != "--offload-host-only" &&
          A != "--offload-device-only")
        R.push_back(A.str());
    return R;
  };
}

/// ClangTool makes each input absolute with path::native(), which on POSIX
/// also turns '\' -- an ordinary character of a file name there -- into
/// '/', and asks the database for the command of that other file. This
/// database answers for the file as named, so that its command compiles the
/// real file.
class AsNamedDatabase : public CompilationDatabase {
public:
  AsNamedDatabase(const CompilationDatabase &Inner, std::string Asked,
                  std::string File)
      : Inner(Inner), Asked(std::move(Asked)), File(std::move(File)) {}

  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    return Inner.getCompileCommands(FilePath == Asked ? StringRef(File)
                                                      : FilePath);
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner.getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return Inner.getAllCompileCommands();
  }

private:
  const CompilationDatabase &Inner;
  std::string Asked, File;
};

/// Forwards clang's diagnostics, except those on the lines appended to the
/// main file to instantiate kernel templates: that code is the tool's, and
/// a line the user's file does not have helps nobody, so the failure is
/// reported as a mistake of the launch that asked for the instantiation.
class InjectedCodeFilter : public DiagnosticConsumer {
public:
  InjectedCodeFilter(DiagnosticConsumer &Next, llvm::raw_ostream &OS,
                     unsigned FirstLine,
                     const std::vector<Instantiation> &Instantiations)
      : Errors(Instantiations.size()), ErrorIds(Instantiations.size()),
        Involved(Instantiations.size()), Next(Next), OS(OS),
        FirstLine(FirstLine), Instantiations(Instantiations) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    // Notes explain the diagnostic before them: they go where it went.
    if (Level == DiagnosticsEngine::Note && Dropping)
      return;
    Dropping = false;
    std::optional<size_t> I = injectedAt(Info);
    if (!I) {
      DiagnosticConsumer::HandleDiagnostic(Level, Info); // Counts it.
      Next.HandleDiagnostic(Level, Info);
      return;
    }
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    const Instantiation &Inst = Instantiations[*I];
    if (Level == DiagnosticsEngine::Note) {
      // The context of an error in the template's body ("in instantiation
      // of ... requested here"): the launch is what requested it.
      Involved[*I] = true;
      llvm::StringRef M = Msg;
      if (M.consume_back(" requested here"))
        OS << "note: " << M << " requested by " << Inst.Origin << "\n";
      else
        OS << "note: " << M << " (" << Inst.Origin << ")\n";
      return;
    }
    Dropping = true;
    if (Level >= DiagnosticsEngine::Error && Errors[*I].empty()) {
      Errors[*I] = std::string(Msg);
      ErrorIds[*I] = Info.getID();
    }
  }

  /// Per instantiation: clang's first error on its line, or empty.
  std::vector<std::string> Errors;
  /// Per instantiation: that error's diagnostic id.
  std::vector<unsigned> ErrorIds;
  /// Per instantiation: whether an error in the template's body was
  /// reported as reached through it.
  std::vector<bool> Involved;

private:
  std::optional<size_t> injectedAt(const Diagnostic &Info) const {
    if (Instantiations.empty() || !Info.hasSourceManager() ||
        Info.getLocation().isInvalid())
      return std::nullopt;
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation L = SM.getExpansionLoc(Info.getLocation());
    if (SM.getFileID(L) != SM.getMainFileID())
      return std::nullopt;
    unsigned Line = SM.getExpansionLineNumber(L);
    if (Line < FirstLine || Line - FirstLine >= Instantiations.size())
      return std::nullopt;
    return Line - FirstLine;
  }

  DiagnosticConsumer &Next;
  llvm::raw_ostream &OS;
  unsigned FirstLine;
  const std::vector<Instantiation> &Instantiations;
  bool Dropping = false;
};

/// Why Inst did not compile, blaming the launch that asked for it rather
/// than the code that the tool appended to the file.
std::string instantiationError(const Instantiation &Inst, unsigned ErrorId,
                               llvm::StringRef ClangError) {
  if (ErrorId == diag::err_non_template_in_template_id)
    return Inst.Origin + ": '" + Inst.Kernel +
           "' is not a template; launch it without template arguments";
  std::string Why = ClangError.str();
  // Clang's words are about the appended code's cast of the function's
  // address to void *.
  if (ErrorId == diag::err_addr_ovl_no_viable)
    Why = "the template arguments do not fit the parameters of template '" +
          Inst.Kernel + "'";
  return Inst.Origin + ": cannot instantiate '" + Inst.spelling() + "': " + Why;
}

} // namespace

/// libdevice functions that return results through pointers (sincosf,
/// frexpf, modff, remquof, ...) store them inside libdevice, which is not
/// linked: the stores would go uncounted. Each output goes to a local
/// temporary instead, and the caller stores it where the pointer points,
/// so the store is counted and modelled like the user's own.
static void exposeOutputArguments(llvm::Module &M) {
  std::vector<llvm::CallInst *> Calls;
  for (llvm::Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__nv_"))
      for (llvm::User *U : F.users())
        if (auto *CI = llvm::dyn_cast<llvm::CallInst>(U))
          if (CI->getCalledFunction() == &F &&
              llvm::any_of(CI->args(), [](const llvm::Use &A) {
                return A->getType()->isPointerTy();
              }))
            Calls.push_back(CI);
  for (llvm::CallInst *CI : Calls) {
    llvm::StringRef Name = CI->getCalledFunction()->getName();
    llvm::Type *Real = nullptr;
    for (const llvm::Use &A : CI->args())
      if (A->getType()->isFloatingPointTy() && !Real)
        Real = A->getType();
    // frexp and remquo write an int (the exponent, the quotient's bits);
    // the others a value of the function's own type.
    bool IntOut = Name.contains("frexp") || Name.contains("remquo");
    llvm::Type *Elem = IntOut ? llvm::Type::getInt32Ty(M.getContext()) : Real;
    if (!Elem)
      continue;
    llvm::Function *Caller = CI->getFunction();
    llvm::IRBuilder<> Entry(&*Caller->getEntryBlock().getFirstInsertionPt());
    llvm::IRBuilder<> After(CI->getNextNode());
    After.SetCurrentDebugLocation(CI->getDebugLoc());
    for (llvm::Use &A : CI->args()) {
      if (!A->getType()->isPointerTy())
        continue;
      llvm::Value *Dest = A.get();
      llvm::AllocaInst *Tmp = Entry.CreateAlloca(Elem, nullptr, "nv.out");
      llvm::Value *Arg = Tmp;
      if (Tmp->getType() != Dest->getType())
        Arg = Entry.CreateAddrSpaceCast(Tmp, Dest->getType());
      A.set(Arg);
      After.CreateStore(After.CreateLoad(Elem, Arg), Dest);
    }
  }
}

/// The optimizer turns a vector load of which some lanes are unused (a
/// float4 read for .x, .y, .z) into llvm.masked.load with a constant mask;
/// the hardware loads the whole vector (an H200 read 16 bytes per float4 with
/// three lanes used: test/validation/mathbench/h200.json), and a plain load
/// is what the counts and the access model read. Masks that are not
/// constant stay, and are reported as not counted.
static void unmaskConstantLoads(llvm::Module &M) {
  std::vector<llvm::IntrinsicInst *> Masked;
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F))
      if (auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I))
        if (II->getIntrinsicID() == llvm::Intrinsic::masked_load &&
            llvm::isa<llvm::Constant>(II->getArgOperand(1)))
          Masked.push_back(II);
  for (llvm::IntrinsicInst *II : Masked) {
    llvm::IRBuilder<> B(II);
    llvm::Value *Ptr = II->getArgOperand(0);
    llvm::MaybeAlign Align = II->getParamAlign(0);
    llvm::LoadInst *Load = B.CreateAlignedLoad(II->getType(), Ptr, Align);
    Load->copyMetadata(*II);
    llvm::Value *Mask = II->getArgOperand(1);
    llvm::Value *Pass = II->getArgOperand(2);
    llvm::Value *V = Load;
    if (!llvm::isa<llvm::PoisonValue>(Pass) &&
        !llvm::isa<llvm::UndefValue>(Pass))
      V = B.CreateSelect(Mask, Load, Pass);
    II->replaceAllUsesWith(V);
    II->eraseFromParent();
  }
}

/// libdevice's integer and float min/max/abs entry points are plain LLVM
/// intrinsics once libdevice is linked; without it they would stay opaque
/// calls that block loop rotation and ScalarEvolution (for (j = i; j <
/// min(i + 4, n); ++j) would get no trip count).
/// A value every thread of a block computes alike: from kernel arguments,
/// constants, and the block's and grid's coordinates and sizes (not the
/// thread's), by arithmetic alone.
static bool blockUniform(const llvm::Value *V, unsigned Depth = 0) {
  if (llvm::isa<llvm::Constant>(V) || llvm::isa<llvm::Argument>(V))
    return true;
  if (Depth > 16)
    return false;
  if (auto *CI = llvm::dyn_cast<llvm::CallInst>(V)) {
    const llvm::Function *F = CI->getCalledFunction();
    if (!F)
      return false;
    llvm::StringRef N = F->getName();
    return N.starts_with("llvm.nvvm.read.ptx.sreg.ctaid.") ||
           N.starts_with("llvm.nvvm.read.ptx.sreg.ntid.") ||
           N.starts_with("llvm.nvvm.read.ptx.sreg.nctaid.");
  }
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I || !(I->isBinaryOp() || I->isCast() || llvm::isa<llvm::ICmpInst>(I) ||
              llvm::isa<llvm::SelectInst>(I)))
    return false;
  return llvm::all_of(I->operands(), [&](const llvm::Use &U) {
    return blockUniform(U.get(), Depth + 1);
  });
}

/// A copy of the block-uniform value V computed before At.
static llvm::Value *rematerialize(llvm::Value *V, llvm::Instruction *At) {
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I)
    return V;
  llvm::Instruction *C = I->clone();
  for (llvm::Use &U : C->operands())
    U.set(rematerialize(U.get(), At));
  C->insertBefore(At->getIterator());
  return C;
}

/// A __shared__ scalar that one thread sets from the kernel's arguments
/// before a __syncthreads() (`if (threadIdx.x == 0) len = n / 2;`), then
/// every thread reads as a loop bound: each read after the barrier is the
/// value written, which the symbolic analysis can follow through the
/// arguments; a load from shared memory it could not.
static void forwardSharedScalars(llvm::Function &F) {
  llvm::DominatorTree DT(F);
  std::vector<llvm::CallInst *> Barriers;
  for (llvm::Instruction &I : llvm::instructions(F))
    if (auto *CI = llvm::dyn_cast<llvm::CallInst>(&I))
      if (const llvm::Function *Callee = CI->getCalledFunction())
        if (Callee->getName().starts_with("llvm.nvvm.barrier"))
          Barriers.push_back(CI);
  if (Barriers.empty())
    return;
  for (llvm::GlobalVariable &GV : F.getParent()->globals()) {
    if (GV.getAddressSpace() != 3 || !GV.getValueType()->isIntegerTy())
      continue;
    llvm::StoreInst *Only = nullptr;
    std::vector<llvm::LoadInst *> Loads;
    bool Other = false;
    // Its uses, through the address-space casts clang writes around it.
    std::vector<llvm::User *> Work(GV.user_begin(), GV.user_end());
    while (!Work.empty() && !Other) {
      llvm::User *U = Work.back();
      Work.pop_back();
      if (auto *CE = llvm::dyn_cast<llvm::ConstantExpr>(U);
          CE && CE->isCast()) {
        Work.insert(Work.end(), CE->user_begin(), CE->user_end());
        continue;
      }
      if (auto *S = llvm::dyn_cast<llvm::StoreInst>(U);
          S && S->getPointerOperand()->stripPointerCasts() == &GV && !Only &&
          S->getFunction() == &F && !S->isVolatile()) {
        Only = S;
        continue;
      }
      if (auto *L = llvm::dyn_cast<llvm::LoadInst>(U);
          L && L->getFunction() == &F && !L->isVolatile() &&
          L->getType() == GV.getValueType()) {
        Loads.push_back(L);
        continue;
      }
      Other = true;
    }
    if (Other || !Only || !blockUniform(Only->getValueOperand()) ||
        Only->getValueOperand()->getType() != GV.getValueType())
      continue;
    for (llvm::LoadInst *L : Loads) {
      // A barrier between: after the store, before (and dominating) the
      // load, and the store not after it again.
      bool Ordered = llvm::any_of(Barriers, [&](llvm::CallInst *B) {
        return DT.dominates(B, L) &&
               llvm::isPotentiallyReachable(Only, B, nullptr, &DT) &&
               !llvm::isPotentiallyReachable(B, Only, nullptr, &DT);
      });
      if (!Ordered)
        continue;
      L->replaceAllUsesWith(rematerialize(Only->getValueOperand(), L));
      L->eraseFromParent();
    }
  }
}

/// __mul24(a, b) and __umul24(a, b) multiply the low 24 bits of their
/// operands; index code uses them where the operands fit in 24 bits
/// (indices below 2^23), and there they are a plain multiply, which the
/// symbolic analysis reads. Left a libdevice call, such an index would be
/// "the result of a call".
static void replaceMul24Calls(llvm::Module &M) {
  for (const char *Name : {"__nv_mul24", "__nv_umul24"}) {
    llvm::Function *F = M.getFunction(Name);
    if (!F || !F->isDeclaration() || F->arg_size() != 2)
      continue;
    for (llvm::User *U : llvm::make_early_inc_range(F->users())) {
      auto *CI = llvm::dyn_cast<llvm::CallInst>(U);
      if (!CI || CI->getCalledFunction() != F)
        continue;
      auto *Mul = llvm::BinaryOperator::CreateMul(
          CI->getArgOperand(0), CI->getArgOperand(1), "", CI->getIterator());
      Mul->setDebugLoc(CI->getDebugLoc());
      Mul->takeName(CI);
      CI->replaceAllUsesWith(Mul);
      CI->eraseFromParent();
    }
  }
}

static void replaceMinMaxCalls(llvm::Module &M) {
  using llvm::Intrinsic::ID;
  static const std::pair<const char *, ID> Map[] = {
      {"__nv_min", llvm::Intrinsic::smin},
      {"__nv_max", llvm::Intrinsic::smax},
      {"__nv_llmin", llvm::Intrinsic::smin},
      {"__nv_llmax", llvm::Intrinsic::smax},
      {"__nv_umin", llvm::Intrinsic::umin},
      {"__nv_umax", llvm::Intrinsic::umax},
      {"__nv_ullmin", llvm::Intrinsic::umin},
      {"__nv_ullmax", llvm::Intrinsic::umax},
      {"__nv_fminf", llvm::Intrinsic::minnum},
      {"__nv_fmaxf", llvm::Intrinsic::maxnum},
      {"__nv_fmin", llvm::Intrinsic::minnum},
      {"__nv_fmax", llvm::Intrinsic::maxnum},
      {"__nv_fabsf", llvm::Intrinsic::fabs},
      {"__nv_fabs", llvm::Intrinsic::fabs}};
  for (auto &[Name, IID] : Map) {
    llvm::Function *F = M.getFunction(Name);
    if (!F || !F->isDeclaration())
      continue;
    llvm::Function *Intr =
        llvm::Intrinsic::getOrInsertDeclaration(&M, IID, {F->getReturnType()});
    for (llvm::User *U : llvm::make_early_inc_range(F->users())) {
      auto *CI = llvm::dyn_cast<llvm::CallInst>(U);
      if (!CI || CI->getCalledFunction() != F)
        continue;
      llvm::SmallVector<llvm::Value *, 2> Args(CI->args());
      auto *New = llvm::CallInst::Create(Intr, Args, "", CI->getIterator());
      New->setDebugLoc(CI->getDebugLoc());
      New->takeName(CI);
      CI->replaceAllUsesWith(New);
      CI->eraseFromParent();
    }
  }
}

void roofline::optimizeForAnalysis(llvm::Module &M, const std::string &Arch,
                                   const TensorMapBoxes &Maps) {
  static bool Initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    return true;
  }();
  (void)Initialized;

  // Inline-PTX global loads and stores become plain ones, counted and
  // analyzed as such (CacheHintAsm.h).
  lowerCacheHintAsm(M, Maps);
  replaceMinMaxCalls(M);
  replaceMul24Calls(M);
  exposeOutputArguments(M);
  // `#pragma unroll` forces full unrolling even with unrolling off: hidden,
  // such loops keep a symbolic trip count (ITEMS, not a copy of the body
  // per iteration; totals are the same), and the machine code made for
  // instruction counts unrolls them as a build does (PtxCodegen.h).
  renameUnrollHints(M, /*Hide=*/true);
  // Results must not depend on the user's -O level: drop optnone/noinline
  // that -O0 adds to user functions.
  for (llvm::Function &F : M) {
    F.removeFnAttr(llvm::Attribute::OptimizeNone);
    if (F.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      F.removeFnAttr(llvm::Attribute::NoInline);
    // libdevice math entry points are pure (the few that write through a
    // pointer argument, like sincos, are left alone); without this the
    // optimizer could not CSE loads across them and load counts would
    // differ from a real build.
    if (F.isDeclaration() && F.getName().starts_with("__nv_")) {
      bool HasPtr = false;
      for (llvm::Argument &A : F.args())
        HasPtr |= A.getType()->isPointerTy();
      if (!HasPtr) {
        F.setDoesNotAccessMemory();
        F.setDoesNotThrow();
        F.setWillReturn();
        F.addFnAttr(llvm::Attribute::NoSync);
        F.addFnAttr(llvm::Attribute::Speculatable);
      }
    }
  }

  llvm::Triple TT(M.getTargetTriple());
  std::string Err;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(TT, Err);
  std::unique_ptr<llvm::TargetMachine> TM;
  if (T)
    TM.reset(T->createTargetMachine(TT, Arch, "", llvm::TargetOptions(),
                                    std::nullopt));

  llvm::PipelineTuningOptions PTO;
  PTO.LoopUnrolling = false;
  PTO.LoopInterleaving = false;
  PTO.LoopVectorization = false;
  PTO.SLPVectorization = false;
  runPipeline(M, TM.get(), PTO, [](llvm::PassBuilder &PB) {
    llvm::ModulePassManager MPM =
        PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    // The NVPTX back end merges adjacent loads and stores into vector ones
    // (a float4 copy is one 16-byte access); do the same so that
    // instruction counts and widths match the machine code.
    llvm::FunctionPassManager FPM;
    FPM.addPass(llvm::LoadStoreVectorizerPass());
    FPM.addPass(llvm::InstCombinePass());
    MPM.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(FPM)));
    return MPM;
  });
  // A shared-window address is visible once helpers like smem_u32(p) are
  // inlined: the ldmatrix, ld.shared and cp.async that needed one are
  // lowered now, and their address casts folded back onto the array.
  if (lowerCacheHintAsm(M, Maps))
    runPipeline(M, TM.get(), PTO, [](llvm::PassBuilder &) {
      llvm::FunctionPassManager FPM;
      FPM.addPass(llvm::InstCombinePass());
      llvm::ModulePassManager MPM;
      MPM.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(FPM)));
      return MPM;
    });
  canonicalizeFlagLoops(M);
  unmaskConstantLoads(M);
  for (llvm::Function &F : M)
    if (!F.isDeclaration())
      forwardSharedScalars(F);
}

/// File made absolute as ClangTool does, but with path::native() only where
/// '\' is a separator: on POSIX it belongs to the name.
static llvm::Error makeAbsoluteAsTool(llvm::vfs::FileSystem &FS,
                                      const std::string &File,
                                      llvm::SmallString<256> &AbsFile) {
  llvm::StringRef Relative(File);
  Relative.consume_front("./");
  AbsFile = Relative;
  if (std::error_code EC = FS.makeAbsolute(AbsFile))
    return llvm::createStringError(EC, "cannot make '" + File +
                                           "' absolute: " + EC.message());
  if (llvm::sys::path::is_style_windows(llvm::sys::path::Style::native))
    llvm::sys::path::native(AbsFile);
  return llvm::Error::success();
}

/// Kernel templates named with template arguments by a launch setting
/// (flag, annotation, config) are instantiated by a reference appended to
/// the file, one line each (line numbers of the original text are
/// unchanged). Text is the file the tool compiles then, and must outlive
/// Tool.run(): the tool keeps a reference to it.
static llvm::Error
appendInstantiations(ClangTool &Tool, llvm::StringRef AbsFile,
                     const std::string &File, const CompileOptions &Opts,
                     std::string &Text, unsigned &FirstInjectedLine) {
  if (Opts.Instantiations.empty()) {
    if (Opts.Contents)
      Tool.mapVirtualFile(AbsFile, *Opts.Contents);
    return llvm::Error::success();
  }
  if (Opts.Contents) {
    Text = *Opts.Contents;
  } else {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return llvm::createStringError(Buf.getError(),
                                     "cannot read '" + File + "'");
    Text = (*Buf)->getBuffer().str();
  }
  Text += "\n";
  FirstInjectedLine = unsigned(llvm::count(Text, '\n')) + 1;
  for (size_t I = 0; I < Opts.Instantiations.size(); ++I)
    Text += "void *__cuda_roofline_instantiate_" + std::to_string(I) +
            "() { return (void *)&" + Opts.Instantiations[I].spelling() +
            "; }\n";
  Tool.mapVirtualFile(AbsFile, Text);
  return llvm::Error::success();
}

/// The command becomes a device-only syntax check for the analysis's
/// architecture, with the toolkit at Opts.CudaPath (or the configured
/// one), the user's extra arguments and the prelude.
static llvm::Error adjustArguments(ClangTool &Tool,
                                   const CompileOptions &Opts) {
  Tool.clearArgumentsAdjusters();
  Tool.appendArgumentsAdjuster(getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(getClangStripOutputAdjuster());
  Tool.appendArgumentsAdjuster(getClangStripDependencyFileAdjuster());
  Tool.appendArgumentsAdjuster(stripOffloadSelection());
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-xcuda", ArgumentInsertPosition::BEGIN));
  std::string Cuda = Opts.CudaPath.empty() ? ROOFLINE_CUDA_PATH : Opts.CudaPath;
  // Without the toolkit's headers every file fails with clang's wall of
  // errors; say what is missing instead.
  for (const char *Part : {"include/cuda_runtime.h", "nvvm/libdevice"}) {
    llvm::SmallString<256> Need(Cuda);
    llvm::sys::path::append(Need, Part);
    if (!llvm::sys::fs::exists(Need))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "no CUDA installation at '" + Cuda + "' (" + Need.str() +
              " is missing); give the toolkit's directory with --cuda-path");
  }
  CommandLineArguments Extra = {"--cuda-device-only",
                                "--cuda-gpu-arch=" + Opts.Arch,
                                "--cuda-path=" + Cuda,
                                "-Wno-unknown-cuda-version",
                                "-resource-dir=" ROOFLINE_CLANG_RESOURCE_DIR,
                                "-idirafter",
                                Cuda + "/include/cccl",
                                "-O3"};
  Extra.insert(Extra.end(), Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  if (Opts.Prelude)
    llvm::append_range(Extra, preludeArgs());
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(Extra, ArgumentInsertPosition::END));
  return llvm::Error::success();
}

/// Why a unit that did not compile gave nothing to analyze: a launch's
/// instantiation that failed, else the file, with a hint at the cause.
static llvm::Error compileFailure(const std::string &File,
                                  const CompileOptions &Opts,
                                  const InjectedCodeFilter &Filter,
                                  const IsolatedUnit &Isolated) {
  for (size_t I = 0; I < Opts.Instantiations.size(); ++I)
    if (!Filter.Errors[I].empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     instantiationError(Opts.Instantiations[I],
                                                        Filter.ErrorIds[I],
                                                        Filter.Errors[I]));
  std::string Hint;
  for (size_t I = 0; I < Opts.Instantiations.size() && Hint.empty(); ++I)
    if (Filter.Involved[I])
      Hint = " (instantiating '" + Opts.Instantiations[I].spelling() +
             "' for " + Opts.Instantiations[I].Origin + ")";
  llvm::StringRef Why = Isolated.Failure;
  if (Hint.empty() && Why.consume_front("nothing analyzed: "))
    Hint = " (" + Why.str() + ")";
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "compilation of '" + File +
                                     "' failed; nothing analyzed" + Hint);
}

/// A flag from the repository (the compile database, the config file's
/// extra-args) that would load or run code: an error, unless allowed.
static llvm::Error refuseUnsafeFlags(const CompilationDatabase &DB,
                                     llvm::StringRef Asked,
                                     const std::string &File,
                                     const CompileOptions &Opts) {
  if (Opts.AllowUnsafeFlags)
    return llvm::Error::success();
  auto refuse = [&](const std::string &Flag, const std::string &From) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "refused to analyze '" + File + "': '" + Flag + "' in " + From +
            " would load or run code in the analysis; a repository's files "
            "do not choose that (--allow-unsafe-flags if you trust it)");
  };
  if (auto Flag = unsafeFlag(Opts.ExtraArgs))
    return refuse(*Flag, "the config file's extra-args");
  if (Opts.CommandFromUser)
    return llvm::Error::success();
  for (const CompileCommand &C : DB.getCompileCommands(Asked))
    if (auto Flag = unsafeFlag(C.CommandLine))
      return refuse(*Flag, "its compile command");
  return llvm::Error::success();
}

/// What the executed-FLOP count needs of the compile, as module flags
/// (model/ExecutedMath.h): the libdevice it would link, the GPU
/// architecture its __nvvm_reflect sees, and nvcc's fast math.
static void markMathMode(llvm::Module &M, const CompileOptions &Opts,
                         bool ApproxMath) {
  std::string Cuda = Opts.CudaPath.empty() ? ROOFLINE_CUDA_PATH : Opts.CudaPath;
  llvm::SmallString<256> Libdevice(Cuda);
  llvm::sys::path::append(Libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  llvm::LLVMContext &C = M.getContext();
  M.addModuleFlag(llvm::Module::Override, "roofline.libdevice",
                  llvm::MDString::get(C, Libdevice));
  unsigned Arch = 0;
  llvm::StringRef(Opts.Arch).drop_front(3).consumeInteger(10, Arch);
  M.addModuleFlag(llvm::Module::Override, "roofline.cuda-arch", Arch * 10);
  M.addModuleFlag(llvm::Module::Override, "roofline.approx-math",
                  unsigned(ApproxMath));
}

llvm::Expected<CompiledUnit>
roofline::compileDeviceSide(const CompilationDatabase &DB,
                            const std::string &File,
                            const CompileOptions &Opts) {
  CompiledUnit Out;
  Out.File = File;
  Out.Context = std::make_unique<llvm::LLVMContext>();

  if (!Opts.Contents && !llvm::sys::fs::exists(File))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no such file: '" + File + "'");

  // A file system of its own: the tool moves its working directory to the
  // command's, which on the process-wide one would move every thread's.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS(
      llvm::vfs::createPhysicalFileSystem().release());
  llvm::SmallString<256> AbsFile;
  if (llvm::Error E = makeAbsoluteAsTool(*FS, File, AbsFile))
    return std::move(E);
  auto Asked = getAbsolutePath(*FS, AbsFile);
  if (!Asked)
    return Asked.takeError();
  AsNamedDatabase AsNamed(DB, *Asked, std::string(AbsFile));
  // nvcc commands become clang ones; one that cannot (a response file is
  // missing) is reported as such rather than as clang's errors.
  NvccTranslatingDatabase Translated(AsNamed);
  if (llvm::Error E = Translated.translationError(*Asked))
    return std::move(E);
  if (llvm::Error E = refuseUnsafeFlags(Translated, *Asked, File, Opts))
    return std::move(E);
  ClangTool Tool(Translated, {std::string(AbsFile)},
                 std::make_shared<PCHContainerOperations>(), FS);
  Tool.setPrintErrorMessage(false); // The caller reports the failure.
  // Must outlive Tool.run(): the tool keeps a reference to it.
  std::string Text;
  unsigned FirstInjectedLine = 0;
  if (llvm::Error E = appendInstantiations(Tool, AbsFile, File, Opts, Text,
                                           FirstInjectedLine))
    return std::move(E);
  if (llvm::Error E = adjustArguments(Tool, Opts))
    return std::move(E);

  // Count errors from the driver too (a flag clang rejects is reported by
  // the driver, which would otherwise go on without it).
  DiagnosticOptions DiagOpts;
  llvm::raw_ostream &DiagOS =
      Opts.Diagnostics ? *Opts.Diagnostics : llvm::errs();
  TextDiagnosticPrinter Printer(DiagOS, DiagOpts);
  InjectedCodeFilter Filter(Printer, DiagOS, FirstInjectedLine,
                            Opts.Instantiations);
  Tool.setDiagnosticConsumer(&Filter);
  DeviceToolAction Action(Out, Opts);
  int Rc = Tool.run(&Action);
  bool InjectedError = llvm::any_of(
      Filter.Errors, [](const std::string &E) { return !E.empty(); });
  bool Involved = llvm::any_of(Filter.Involved, [](bool B) { return B; });
  // Errors that cost only the code that depends on them: a launch's
  // template instantiation that fails is the launch's mistake instead.
  if (Rc == 0 && Action.Isolated.Unit && !InjectedError && !Involved) {
    CompiledUnit &U = *Action.Isolated.Unit;
    U.File = File;
    if (U.Module)
      markMathMode(*U.Module, Opts, Action.ApproxMath);
    return std::move(U);
  }
  if (Rc != 0 || !Out.Module || Filter.getNumErrors() != 0 || InjectedError)
    return compileFailure(File, Opts, Filter, Action.Isolated);
  Out.Built = llvm::CloneModule(*Out.Module);
  optimizeForAnalysis(*Out.Module, Opts.Arch, Out.Facts.TensorMaps);
  markMathMode(*Out.Module, Opts, Action.ApproxMath);
  if (Opts.DumpIR)
    Out.Module->print(llvm::errs(), nullptr);
  return std::move(Out);
}
