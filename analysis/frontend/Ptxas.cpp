//===- Ptxas.cpp ----------------------------------------------------------===//

#include "Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>

using namespace roofline;
using namespace llvm;

/// The count an item of a report line starts with: "4096 bytes smem",
/// "Used 32 registers", or the "16+0 bytes smem" of old toolkits (static +
/// dynamic, summed). Rest is what follows the number ("bytes smem").
static std::optional<uint64_t> leadingCount(StringRef Item, StringRef &Rest) {
  Item = Item.trim();
  if (Item.starts_with_insensitive("used "))
    Item = Item.drop_front(5).ltrim();
  uint64_t Sum = 0;
  while (true) {
    StringRef Digits = Item.take_while(isDigit);
    uint64_t N = 0;
    if (Digits.empty() || Digits.getAsInteger(10, N))
      return std::nullopt;
    Sum += N;
    Item = Item.drop_front(Digits.size());
    if (!Item.consume_front("+"))
      break;
  }
  Rest = Item.trim();
  return Sum;
}

/// The counts of a comma-separated ptxas line ("0 bytes stack frame, 0
/// bytes spill stores, 0 bytes spill loads"; "Used 32 registers, used 1
/// barriers, 4096 bytes smem, 368 bytes cmem[0]"): each item whose words
/// after the count are a key of Fields sets that field.
static void
readCounts(StringRef Line,
           std::initializer_list<std::pair<StringRef, uint64_t *>> Fields) {
  SmallVector<StringRef, 6> Items;
  Line.split(Items, ',');
  for (StringRef Item : Items) {
    StringRef What;
    std::optional<uint64_t> N = leadingCount(Item, What);
    if (!N)
      continue;
    for (auto &[Key, Field] : Fields)
      if (What == Key)
        *Field = *N;
  }
}

static void readFrameLine(StringRef Line, PtxasUsage &U) {
  readCounts(Line, {{"bytes stack frame", &U.StackFrameBytes},
                    {"bytes spill stores", &U.SpillStoreBytes},
                    {"bytes spill loads", &U.SpillLoadBytes}});
}

static void readUsedLine(StringRef Line, PtxasUsage &U) {
  uint64_t Registers = U.Registers;
  readCounts(Line, {{"registers", &Registers}, {"bytes smem", &U.SharedBytes}});
  U.Registers = unsigned(Registers);
}

/// The function a "Compiling [entry] function 'NAME' for 'sm_90'" or
/// "Function properties for NAME" message is about, if it is one.
static std::optional<StringRef> functionNamed(StringRef Message) {
  if (Message.consume_front("Function properties for "))
    return Message.trim();
  if (!Message.consume_front("Compiling entry function ") &&
      !Message.consume_front("Compiling function "))
    return std::nullopt;
  if (!Message.consume_front("'"))
    return std::nullopt;
  return Message.take_until([](char C) { return C == '\''; });
}

std::map<std::string, PtxasUsage>
roofline::parsePtxasVerbose(StringRef Output) {
  std::map<std::string, PtxasUsage> Out;
  // The function the lines that follow are about: ptxas names it, then
  // prints its frame line and (for a kernel) its "Used" line.
  PtxasUsage *Current = nullptr;
  SmallVector<StringRef, 32> Lines;
  Output.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("ptxas info")) {
      if (Current && Line.contains("bytes stack frame"))
        readFrameLine(Line, *Current);
      continue;
    }
    StringRef Message = Line.drop_until([](char C) { return C == ':'; });
    Message = Message.drop_front(Message.empty() ? 0 : 1).trim();
    if (std::optional<StringRef> Name = functionNamed(Message)) {
      Current = Name->empty() ? nullptr : &Out[Name->str()];
      continue;
    }
    if (Current && Message.starts_with("Used "))
      readUsedLine(Message, *Current);
  }
  return Out;
}

std::string roofline::ptxasPath(StringRef CudaPath) {
  SmallString<256> Path(CudaPath.empty() ? StringRef(ROOFLINE_CUDA_PATH)
                                         : CudaPath);
  sys::path::append(Path, "bin", "ptxas");
  return std::string(Path);
}

std::string roofline::ptxEntryAtLine(StringRef Ptx, unsigned Line) {
  // Functions are not nested: the last .entry or .func header before the
  // line, whose body's braces have not closed by it.
  std::string Name;
  int Depth = 0;
  unsigned N = 0;
  while (!Ptx.empty() && ++N < Line) {
    auto [Text, Rest] = Ptx.split('\n');
    Ptx = Rest;
    StringRef T = Text.trim();
    size_t Entry = T.find(".entry ");
    size_t Func = T.find(".func ");
    if (Depth == 0 && (Entry != StringRef::npos || Func != StringRef::npos)) {
      Name.clear();
      if (Entry != StringRef::npos)
        Name = T.substr(Entry + 7)
                   .take_until([](char C) { return C == '(' || isSpace(C); })
                   .str();
    }
    Depth += T.count('{') - T.count('}');
  }
  return Depth > 0 ? Name : std::string();
}

std::string roofline::ptxWithoutEntry(StringRef Ptx, StringRef Name) {
  std::string Out;
  bool Skipping = false, Opened = false;
  int Depth = 0;
  while (!Ptx.empty()) {
    auto [Text, Rest] = Ptx.split('\n');
    Ptx = Rest;
    StringRef T = Text.trim();
    if (!Skipping && Depth == 0) {
      size_t Entry = T.find(".entry ");
      if (Entry != StringRef::npos &&
          T.substr(Entry + 7).take_until(
              [](char C) { return C == '(' || isSpace(C); }) == Name) {
        Skipping = true;
        Opened = false;
      }
    }
    Depth += T.count('{') - T.count('}');
    if (!Skipping) {
      Out += Text;
      Out += '\n';
      continue;
    }
    Opened |= T.contains('{');
    if (Opened && Depth == 0)
      Skipping = false;
  }
  return Out;
}

/// The line of a failed run's report that says why: the first error, or
/// the first fatal error when there is none (an unknown --gpu-name), with
/// the temporary file's path left out. "Ptx assembly aborted due to errors"
/// comes last and says nothing, so an error line before it wins.
static std::string firstError(StringRef Log, StringRef PtxFile) {
  SmallVector<StringRef, 16> Lines;
  Log.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::optional<StringRef> Found;
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (Line.empty())
      continue;
    if (Line.contains("error") && !Line.starts_with("ptxas fatal")) {
      Found = Line;
      break;
    }
    if (!Found && Line.starts_with("ptxas fatal"))
      Found = Line;
  }
  if (!Found)
    return Lines.empty() ? "no message" : Lines.back().trim().str();
  std::string Text = Found->str();
  for (size_t At; !PtxFile.empty() &&
                  (At = Text.find(PtxFile.str())) != std::string::npos;)
    Text.replace(At, PtxFile.size(), "<ptx>");
  return Text;
}

namespace {
/// A temporary file of the run, removed when the run ends.
struct TempFile {
  SmallString<128> Path;
  std::optional<FileRemover> Remover;

  Error create(StringRef Suffix, int *FD = nullptr) {
    std::error_code EC =
        FD ? sys::fs::createTemporaryFile("roofline-ptxas", Suffix, *FD, Path)
           : sys::fs::createTemporaryFile("roofline-ptxas", Suffix, Path);
    if (EC)
      return createStringError(EC, "cannot create a temporary ." + Suffix +
                                       " file for ptxas: " + EC.message());
    Remover.emplace(Path);
    return Error::success();
  }
};
} // namespace

/// The line tables that give the analysis its source locations make the
/// back end mark the PTX target "debug", and ptxas compiles such PTX as a
/// debug build would be (kernels/gemm/naive.cu on sm_90: 36 registers a
/// thread, 29 without the mark, as clang -O3 builds it). The mark goes; the
/// lines stay where they are, for the errors that name them.
static void writeWithoutDebugTarget(StringRef Ptx, raw_ostream &OS) {
  size_t At = Ptx.starts_with(".target") ? 0 : Ptx.find("\n.target");
  if (At == StringRef::npos) {
    OS << Ptx;
    return;
  }
  size_t End = Ptx.find('\n', At + 1);
  StringRef Target = Ptx.slice(At, End);
  size_t Debug = Target.find(", debug");
  if (Debug == StringRef::npos) {
    OS << Ptx;
    return;
  }
  OS << Ptx.take_front(At + Debug)
     << Ptx.drop_front(At + Debug + strlen(", debug"));
}

static Error writePtx(StringRef Ptx, TempFile &File) {
  int FD = -1;
  if (Error E = File.create("ptx", &FD))
    return E;
  raw_fd_ostream OS(FD, /*shouldClose=*/true);
  writeWithoutDebugTarget(Ptx, OS);
  OS.close();
  if (OS.has_error()) {
    std::error_code EC = OS.error();
    OS.clear_error();
    return createStringError(EC, "cannot write the PTX for ptxas to '" +
                                     File.Path + "': " + EC.message());
  }
  return Error::success();
}

namespace {
/// One ptxas run's exit code and report.
struct PtxasRun {
  int Rc = 0;
  std::string ErrMsg, Report;
};
} // namespace

/// Runs ptxas -v on PtxFile, Relocatable (-c) or as a whole program.
static Expected<PtxasRun> execute(StringRef Ptxas, StringRef Arch,
                                  StringRef PtxFile, bool Relocatable,
                                  unsigned Seconds) {
  TempFile Cubin, Log;
  if (Error E = Cubin.create("cubin"))
    return std::move(E);
  if (Error E = Log.create("log"))
    return std::move(E);
  SmallVector<StringRef, 8> Args = {Ptxas, "-v", "--gpu-name", Arch};
  if (Relocatable)
    Args.push_back("-c");
  Args.append({"-o", Cubin.Path.str(), PtxFile});
  std::optional<StringRef> Redirects[] = {StringRef(""), Log.Path.str(),
                                          Log.Path.str()};
  PtxasRun Run;
  bool ExecFailed = false;
  auto Start = std::chrono::steady_clock::now();
  Run.Rc = sys::ExecuteAndWait(Ptxas, Args, std::nullopt, Redirects, Seconds, 0,
                               &Run.ErrMsg, &ExecFailed);
  std::chrono::duration<double> Ran = std::chrono::steady_clock::now() - Start;
  if (ExecFailed)
    return createStringError("cannot run ptxas at '" + Ptxas + "': " +
                             Run.ErrMsg + "; registers per thread are unknown");
  if (Seconds && Run.Rc < 0 && Ran.count() >= Seconds)
    return createStringError("ptxas timed out after " + Twine(Seconds) +
                             " s assembling the device code for " + Arch +
                             "; registers per thread are unknown");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Report =
      MemoryBuffer::getFile(Log.Path);
  if (Report)
    Run.Report = (*Report)->getBuffer().str();
  else if (Run.Rc == 0)
    return createStringError("cannot read the ptxas report '" + Log.Path +
                             "': " + Report.getError().message());
  return Run;
}

Expected<std::map<std::string, PtxasUsage>>
roofline::runPtxas(StringRef Ptx, StringRef Arch, StringRef CudaPath,
                   double TimeoutSeconds) {
  std::string Ptxas = ptxasPath(CudaPath);
  if (!sys::fs::can_execute(Ptxas))
    return createStringError("ptxas not found at '" + Ptxas +
                             "' (CUDA toolkit); registers per thread are "
                             "unknown");
  if (Arch.empty())
    return createStringError("no GPU architecture to run ptxas for; "
                             "registers per thread are unknown");
  TempFile PtxFile;
  if (Error E = writePtx(Ptx, PtxFile))
    return std::move(E);
  unsigned Seconds = TimeoutSeconds > 0
                         ? unsigned(std::max(1.0, std::ceil(TimeoutSeconds)))
                         : 0;
  // A whole program first, as nvcc assembles a file without -rdc; calls
  // to functions the PTX only declares (library math the analysis does not
  // link) need the relocatable form, which leaves them to the linker.
  auto Run = execute(Ptxas, Arch, PtxFile.Path, /*Relocatable=*/false, Seconds);
  if (Run && Run->Rc != 0 &&
      StringRef(Run->Report).contains("Unresolved extern function"))
    Run = execute(Ptxas, Arch, PtxFile.Path, /*Relocatable=*/true, Seconds);
  if (!Run)
    return Run.takeError();
  if (Run->Rc != 0) {
    // A negative code is ExecuteAndWait's (a signal), which ErrMsg names.
    std::string How = Run->Rc < 0 && !Run->ErrMsg.empty()
                          ? Run->ErrMsg
                          : "exit code " + std::to_string(Run->Rc);
    return createStringError("ptxas failed for " + Arch + " (" + How +
                             "): " + firstError(Run->Report, PtxFile.Path) +
                             "; registers per thread are unknown");
  }
  return parsePtxasVerbose(Run->Report);
}
