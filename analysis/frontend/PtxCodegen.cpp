//===- PtxCodegen.cpp -----------------------------------------------------===//

#include "PtxCodegen.h"
#include "CacheHintAsm.h"
#include "MergedWidths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Scalar/InferAlignment.h"
#include "llvm/Transforms/Scalar/LoopDeletion.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

#include <memory>
#include <optional>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace roofline;

static llvm::Error fail(const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the NVPTX back end " + Why);
}

/// Inserts the markers into Clone's copies of M's blocks.
static std::vector<const llvm::BasicBlock *>
insertMarkers(const llvm::Module &M, llvm::ValueToValueMapTy &VMap) {
  std::vector<const llvm::BasicBlock *> Blocks;
  for (const llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (const llvm::BasicBlock &BB : F) {
      insertMarker(*llvm::cast<llvm::BasicBlock>(VMap[&BB]),
                   markerText(Blocks.size()));
      Blocks.push_back(&BB);
    }
  }
  return Blocks;
}

void roofline::renameUnrollHints(llvm::Module &M, bool Hide) {
  static constexpr llvm::StringLiteral Shown = "llvm.loop.unroll.",
                                       Hidden = "roofline.loop.unroll.";
  llvm::StringRef From = Hide ? Shown : Hidden, To = Hide ? Hidden : Shown;
  llvm::LLVMContext &Ctx = M.getContext();
  for (llvm::Function &F : M)
    for (llvm::BasicBlock &BB : F) {
      llvm::Instruction *T = BB.getTerminator();
      llvm::MDNode *Loop =
          T ? T->getMetadata(llvm::LLVMContext::MD_loop) : nullptr;
      if (!Loop)
        continue;
      llvm::SmallVector<llvm::Metadata *, 4> Ops = {nullptr};
      bool Renamed = false;
      for (unsigned I = 1; I < Loop->getNumOperands(); ++I) {
        auto *Opt = llvm::dyn_cast<llvm::MDNode>(Loop->getOperand(I));
        auto *Name = Opt && Opt->getNumOperands()
                         ? llvm::dyn_cast<llvm::MDString>(Opt->getOperand(0))
                         : nullptr;
        if (!Name || !Name->getString().starts_with(From)) {
          Ops.push_back(Loop->getOperand(I));
          continue;
        }
        llvm::SmallVector<llvm::Metadata *, 2> Hint(Opt->operands());
        Hint[0] = llvm::MDString::get(
            Ctx, (To + Name->getString().drop_front(From.size())).str());
        Ops.push_back(llvm::MDNode::get(Ctx, Hint));
        Renamed = true;
      }
      if (!Renamed)
        continue;
      llvm::MDNode *New = llvm::MDNode::getDistinct(Ctx, Ops);
      New->replaceOperandWith(0, New);
      T->setMetadata(llvm::LLVMContext::MD_loop, New);
    }
}

/// The PTX is read by its markers, not its names: the copy's values lose
/// theirs and its globals get plain ones, so that no name the back end must
/// rewrite for PTX (non-ASCII identifiers, which leak in its name
/// legalization) reaches it.
static void dropNames(llvm::Module &M,
                      std::map<std::string, std::string> &Renamed) {
  unsigned N = 0;
  for (llvm::GlobalValue &GV : M.global_values())
    if (!GV.isDeclaration() && !llvm::all_of(GV.getName(), [](char C) {
          return llvm::isAlnum(C) || C == '_' || C == '$';
        })) {
      std::string Old = GV.getName().str();
      GV.setName("roofline_global_" + std::to_string(N++));
      Renamed[GV.getName().str()] = Old;
    }
  for (llvm::Function &F : M) {
    for (llvm::Argument &A : F.args())
      A.setName("");
    for (llvm::BasicBlock &BB : F) {
      BB.setName("");
      for (llvm::Instruction &I : BB)
        if (!I.getType()->isVoidTy())
          I.setName("");
    }
  }
}

/// The analysis pipeline leaves loops rolled (their trip counts are what
/// it counts); a build unrolls them, which removes loop overhead and turns
/// register arrays indexed by a counter into registers. The unroller copies
/// the markers with the loop bodies.
void roofline::runPipeline(
    llvm::Module &M, llvm::TargetMachine *TM, llvm::PipelineTuningOptions PTO,
    llvm::function_ref<llvm::ModulePassManager(llvm::PassBuilder &)> Build) {
  llvm::PassBuilder PB(TM, PTO);
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  Build(PB).run(M, MAM);
}

/// Runs FPM on every function of M.
static void runOnFunctions(llvm::Module &M, llvm::TargetMachine &TM,
                           llvm::FunctionPassManager FPM) {
  runPipeline(M, &TM, llvm::PipelineTuningOptions(), [&](llvm::PassBuilder &) {
    llvm::ModulePassManager MPM;
    MPM.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(FPM)));
    return MPM;
  });
}

static void unrollAsNvccDoes(llvm::Module &M, llvm::TargetMachine &TM) {
  // The module is optimized already: only the unrolling of the -O3
  // pipeline, and the clean-up that turns unrolled register arrays into
  // registers, run again.
  llvm::FunctionPassManager FPM;
  FPM.addPass(llvm::createFunctionToLoopPassAdaptor(
      llvm::LoopFullUnrollPass(/*OptLevel=*/3)));
  FPM.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  FPM.addPass(llvm::LoopUnrollPass(llvm::LoopUnrollOptions(/*OptLevel=*/3)));
  FPM.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  FPM.addPass(llvm::InstCombinePass());
  FPM.addPass(llvm::EarlyCSEPass());
  FPM.addPass(llvm::SimplifyCFGPass());
  runOnFunctions(M, TM, std::move(FPM));
}

/// A bulk or TMA copy is one instruction for the copy engine: its asm is in
/// the module still, and the memcpys that stand for its bytes (BulkCopyMD)
/// go, with the loops over a box's rows they leave empty.
static void dropBulkCopies(llvm::Module &M, llvm::TargetMachine &TM) {
  llvm::SmallVector<llvm::Instruction *, 8> Copies;
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F))
      if (llvm::isa<llvm::MemCpyInst>(I) && I.getMetadata(BulkCopyMD))
        Copies.push_back(&I);
  if (Copies.empty())
    return;
  for (llvm::Instruction *I : Copies)
    I->eraseFromParent();
  llvm::FunctionPassManager FPM;
  FPM.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LoopDeletionPass()));
  FPM.addPass(llvm::SimplifyCFGPass());
  runOnFunctions(M, TM, std::move(FPM));
}

/// ptxas lays out the static shared variables and merges the contiguous
/// accesses it can prove 16-byte aligned into one vector instruction; the
/// back end's vectorizer trusts only the alignment a load states, and SROA
/// splits a float4 copy into four scalar loads of align 4. Raising the
/// shared variables' alignment and inferring each access's from its address
/// lets the back end merge what ptxas merges (kernels/gemm/smem_tiled.cu:
/// clang's PTX has 64 ld.shared.b32 in the loop, the sm_86 machine code
/// ptxas makes of it 32 LDS.32 and 8 LDS.128; docs/counting.md,
/// "Instructions"). A fully unrolled loop has a marker between each copy of
/// its body, and the vectorizer merges nothing across a call that might not
/// return: the markers say they do while it runs, and only then (the rest
/// of code generation is as it was).
static void alignAsPtxasDoes(llvm::Module &M, llvm::TargetMachine &TM) {
  constexpr unsigned SharedSpace = 3;
  const llvm::DataLayout &DL = M.getDataLayout();
  for (llvm::GlobalVariable &GV : M.globals())
    if (GV.getAddressSpace() == SharedSpace && !GV.isDeclaration() &&
        DL.getTypeAllocSize(GV.getValueType()).getKnownMinValue() >= 16 &&
        GV.getAlign().valueOrOne() < llvm::Align(16))
      GV.setAlignment(llvm::Align(16));
  llvm::SmallVector<llvm::CallInst *, 64> Markers;
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F))
      if (auto *CI = llvm::dyn_cast<llvm::CallInst>(&I);
          CI && CI->isInlineAsm() &&
          llvm::cast<llvm::InlineAsm>(CI->getCalledOperand())
                  ->getAsmString()
                  .find(BlockMarker) != std::string::npos)
        Markers.push_back(CI);
  for (llvm::CallInst *CI : Markers)
    CI->addFnAttr(llvm::Attribute::WillReturn);
  llvm::FunctionPassManager FPM;
  FPM.addPass(llvm::InferAddressSpacesPass());
  FPM.addPass(llvm::InferAlignmentPass());
  FPM.addPass(llvm::LoadStoreVectorizerPass());
  runOnFunctions(M, TM, std::move(FPM));
  for (llvm::CallInst *CI : Markers)
    CI->removeFnAttr(llvm::Attribute::WillReturn);
}

/// M's PTX, or why the back end failed on it.
static llvm::Expected<std::string>
emitPtx(llvm::Module &M, llvm::TargetMachine &TM, const std::string &Arch) {
  llvm::SmallString<0> Text;
  llvm::raw_svector_ostream OS(Text);
  llvm::legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr,
                             llvm::CodeGenFileType::AssemblyFile))
    return fail("cannot emit PTX for " + Arch);
  static std::string FatalReason;
  FatalReason.clear();
  llvm::ScopedFatalErrorHandler Handler(
      [](void *, const char *Reason, bool) {
        FatalReason = Reason;
        if (auto *CRC = llvm::CrashRecoveryContext::GetCurrent())
          CRC->HandleExit(1);
      },
      nullptr);
  llvm::CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] { PM.run(M); }))
    return fail("failed" +
                (FatalReason.empty() ? std::string() : ": " + FatalReason));
  return Text.str().str();
}

/// What a build makes of Built: the markers change what the unroller does
/// (they are calls to it), the analysis pipeline rewrites what it counts
/// (rolled loops, lowered asm), and ptxas merges accesses itself within its
/// own register budget, so none of that is in the PTX registers come from.
/// A unit the back end cannot compile so leaves BuiltPtx empty.
static void emitBuiltPtx(const llvm::Module &Built, llvm::TargetMachine &TM,
                         const std::string &Arch, MarkedPtx &Out) {
  std::unique_ptr<llvm::Module> B = llvm::CloneModule(Built);
  dropNames(*B, Out.BuiltRenamed);
  runPipeline(
      *B, &TM, llvm::PipelineTuningOptions(), [](llvm::PassBuilder &PB) {
        return PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
      });
  auto Ptx = emitPtx(*B, TM, Arch);
  if (Ptx)
    Out.BuiltPtx = std::move(*Ptx);
  else
    llvm::consumeError(Ptx.takeError());
}

llvm::Expected<MarkedPtx>
roofline::emitMarkedPtx(const llvm::Module &M, const std::string &Arch,
                        const llvm::Module *Built,
                        llvm::function_ref<void(llvm::Module &)> AdjustCopy) {
  static bool Initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // A back-end failure (report_fatal_error) ends code generation, not
    // the analysis: see the handler below.
    llvm::CrashRecoveryContext::Enable();
    return true;
  }();
  (void)Initialized;

  llvm::Triple TT(M.getTargetTriple());
  std::string Err;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return fail("is not available for '" + TT.str() + "': " + Err);
  // The PTX version clang chose for the toolkit (+ptx88): the target
  // machine's default is the architecture's oldest, which ptxas rejects for
  // newer instructions in inline PTX (fp8 mma needs 8.4).
  std::string Features;
  for (const llvm::Function &F : M)
    if (F.hasFnAttribute("target-features")) {
      Features = F.getFnAttribute("target-features").getValueAsString().str();
      break;
    }
  std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
      TT, Arch, Features, llvm::TargetOptions(), std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!TM)
    return fail("has no target machine for " + Arch);

  llvm::ValueToValueMapTy VMap;
  std::unique_ptr<llvm::Module> Copy = llvm::CloneModule(M, VMap);
  MarkedPtx Out;
  Out.Blocks = insertMarkers(M, VMap);
  dropNames(*Copy, Out.Renamed);
  renameUnrollHints(*Copy, /*Hide=*/false);
  if (AdjustCopy)
    AdjustCopy(*Copy);
  dropBulkCopies(*Copy, *TM);
  unrollAsNvccDoes(*Copy, *TM);
  for (llvm::Function &F : *Copy)
    markUnrollRemainders(F);
  alignAsPtxasDoes(*Copy, *TM);
  Out.MergedWidths = mergedSharedWidths(M, *Copy, Out.Blocks);

  auto Ptx = emitPtx(*Copy, *TM, Arch);
  if (!Ptx)
    return Ptx.takeError();
  Out.Ptx = std::move(*Ptx);
  if (Built)
    emitBuiltPtx(*Built, *TM, Arch, Out);
  return Out;
}
