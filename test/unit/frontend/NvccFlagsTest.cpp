//===- NvccFlagsTest.cpp - Unit tests for the nvcc command translation ----===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#include "NvccFlags.h"
#include "Prelude.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace roofline;
using clang::tooling::CompileCommand;
using Args = std::vector<std::string>;

namespace {

/// A fresh temporary directory, removed with its contents at the end.
class TempDir {
public:
  TempDir() {
    std::error_code EC =
        llvm::sys::fs::createUniqueDirectory("cuda-roofline-nvcc", Path);
    EXPECT_FALSE(EC) << EC.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }

  std::string write(const std::string &Rel, const std::string &Text) {
    std::string P = path(Rel);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS << Text;
    return P;
  }

  std::string path(const std::string &Rel) const {
    llvm::SmallString<256> P(Path);
    llvm::sys::path::append(P, Rel);
    return P.str().str();
  }

  llvm::SmallString<256> Path;
};

CompileCommand command(const std::string &Dir, const std::string &File,
                       Args CommandLine) {
  return CompileCommand(Dir, File, std::move(CommandLine), "");
}

/// The translation of CommandLine (for File, in Dir), with argv[0] checked
/// and left out: clang++ of the LLVM the tool was built with.
Args translated(Args CommandLine, const std::string &File = "/src/k.cu",
                const std::string &Dir = "/build",
                std::vector<std::string> *Notes = nullptr) {
  auto T = translateCompileCommand(command(Dir, File, std::move(CommandLine)));
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return {};
  }
  if (Notes)
    *Notes = T->Notes;
  else
    EXPECT_TRUE(T->Notes.empty()) << T->Notes.front();
  Args Out = T->Command.CommandLine;
  EXPECT_FALSE(Out.empty());
  if (Out.empty())
    return Out;
  EXPECT_TRUE(llvm::StringRef(Out[0]).ends_with("/bin/clang++")) << Out[0];
  Out.erase(Out.begin());
  return Out;
}

std::string translationError(Args CommandLine, const std::string &Dir) {
  auto T = translateCompileCommand(command(Dir, "/src/k.cu", CommandLine));
  if (T) {
    ADD_FAILURE() << "translated";
    return "";
  }
  return llvm::toString(T.takeError());
}

TEST(NvccFlagsTest, RecognizesNvcc) {
  EXPECT_TRUE(isNvccCommand({"/usr/local/cuda/bin/nvcc", "-c", "k.cu"}));
  EXPECT_TRUE(isNvccCommand({"nvcc"}));
  EXPECT_TRUE(isNvccCommand({"/usr/bin/ccache", "/opt/cuda/bin/nvcc", "-c"}));
  EXPECT_FALSE(isNvccCommand({"/usr/lib/llvm-22/bin/clang++", "-xcuda"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/ccache", "g++", "-c"}));
  EXPECT_FALSE(isNvccCommand({}));
}

// CMake 3.25's Makefile generator for a CUDA target with
// target_include_directories(inc), CUDA_ARCHITECTURES 90 and
// target_compile_options(-Xcompiler=-fopenmp --expt-relaxed-constexpr): the
// include path is only in the response file.
TEST(NvccFlagsTest, CMakeMakefilesCommand) {
  TempDir D;
  D.write("build/CMakeFiles/k.dir/includes_CUDA.rsp", "-I/src/inc\n");
  std::string Build = D.path("build");
  EXPECT_EQ(
      translated({"/usr/local/cuda/bin/nvcc",
                  "-forward-unknown-to-host-compiler", "-DUSE_FOO=1",
                  "--options-file", "CMakeFiles/k.dir/includes_CUDA.rsp",
                  "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                  "-Xcompiler=-fopenmp", "--expt-relaxed-constexpr",
                  "-std=c++17", "-x", "cu", "-c", "/src/k.cu", "-o",
                  "CMakeFiles/k.dir/k.cu.o"},
                 "/src/k.cu", Build),
      (Args{"-xcuda", "-DUSE_FOO=1", "-I/src/inc", "--cuda-gpu-arch=sm_90",
            "-D_OPENMP=201511", "-Wno-source-uses-openmp", "-std=c++17", "-c",
            "/src/k.cu", "-o", "CMakeFiles/k.dir/k.cu.o"}));
}

TEST(NvccFlagsTest, HostCompilerOptions) {
  // Lists split at commas, values at spaces; an escaped comma stays; a flag
  // and its value may come in two -Xcompiler; -fopenmp defines _OPENMP
  // once; code generation and warning flags go.
  EXPECT_EQ(
      translated({"nvcc", "-Xcompiler=-fopenmp,-DA=f(1\\,2)", "-Xcompiler",
                  "-fPIC", "--compiler-options", "-Wall -isystem /opt/inc",
                  "--compiler-options=-O2,-g,-march=native,-fopenmp",
                  "-Xcompiler", "-include", "-Xcompiler", "pre.h",
                  "-Xcompiler=-std=gnu++17,-fno-exceptions,-pthread",
                  "-Xcompiler", "-I/x,-U,NDEBUG", "-c", "k.cu"},
                 "k.cu"),
      (Args{"-xcuda", "-D_OPENMP=201511", "-Wno-source-uses-openmp",
            "-DA=f(1,2)", "-isystem", "/opt/inc", "-include", "pre.h",
            "-std=gnu++17", "-fno-exceptions", "-pthread", "-I/x", "-UNDEBUG",
            "-c", "k.cu"}));

  // Flags forwarded with -forward-unknown-to-host-compiler get the same
  // treatment, a separate value included.
  EXPECT_EQ(translated({"nvcc", "-forward-unknown-to-host-compiler", "-fPIC",
                        "-Wextra", "-fopenmp", "-iquote", "q", "-c", "k.cu"},
                       "k.cu"),
            (Args{"-xcuda", "-D_OPENMP=201511", "-Wno-source-uses-openmp",
                  "-iquote", "q", "-c", "k.cu"}));
}

TEST(NvccFlagsTest, Architectures) {
  // One per virtual architecture (what the front-end compiles for: the
  // code= of a -gencode is what ptxas assembles), lowest first by number
  // (sm_75 < sm_90 < sm_90a < sm_100), at the first architecture option.
  EXPECT_EQ(
      translated({"nvcc", "-O3", "-gencode", "arch=compute_100,code=sm_100",
                  "-gencode", "arch=compute_80,code=sm_86",
                  "-gencode=arch=compute_90a,code=sm_90a", "-arch=sm_75",
                  "--generate-code=arch=compute_90,code=[compute_90,sm_"
                  "90]",
                  "-c", "k.cu"},
                 "k.cu"),
      (Args{"-xcuda", "-O3", "--cuda-gpu-arch=sm_75", "--cuda-gpu-arch=sm_80",
            "--cuda-gpu-arch=sm_90", "--cuda-gpu-arch=sm_90a",
            "--cuda-gpu-arch=sm_100", "-c", "k.cu"}));
  // -arch names the virtual architecture, -code the real ones.
  EXPECT_EQ(
      translated({"nvcc", "-arch", "compute_70", "-code=sm_70,sm_72", "k.cu"},
                 "k.cu"),
      (Args{"-xcuda", "--cuda-gpu-arch=sm_70", "k.cu"}));
  EXPECT_EQ(translated({"nvcc", "--gpu-architecture=sm_89", "k.cu"}, "k.cu"),
            (Args{"-xcuda", "--cuda-gpu-arch=sm_89", "k.cu"}));
  // -code alone: its real architectures.
  EXPECT_EQ(translated({"nvcc", "--gpu-code", "sm_86", "k.cu"}, "k.cu"),
            (Args{"-xcuda", "--cuda-gpu-arch=sm_86", "k.cu"}));
  // The same architecture twice is one device compilation.
  EXPECT_EQ(translated({"nvcc", "-arch=sm_90",
                        "-gencode=arch=compute_90,code=sm_90", "k.cu"},
                       "k.cu"),
            (Args{"-xcuda", "--cuda-gpu-arch=sm_90", "k.cu"}));

  // No fixed architecture: dropped with a note, clang's default applies.
  std::vector<std::string> Notes;
  EXPECT_EQ(translated({"nvcc", "-arch=native", "-arch", "all-major",
                        "-arch=gfx90a", "k.cu"},
                       "k.cu", "/build", &Notes),
            (Args{"-xcuda", "k.cu"}));
  EXPECT_EQ(Notes,
            (std::vector<std::string>{
                "dropped nvcc flag '-arch=native' (no fixed architecture: "
                "clang's default applies)",
                "dropped nvcc flag '-arch all-major' (no fixed architecture: "
                "clang's default applies)",
                "dropped nvcc flag '-arch=gfx90a' (unknown GPU architecture "
                "'gfx90a')"}));
}

TEST(NvccFlagsTest, NvccOptionsWithClangEquivalents) {
  EXPECT_EQ(translated({"nvcc",
                        "--std",
                        "c++20",
                        "--include-path",
                        "a,b",
                        "-I",
                        "c",
                        "-Dx,y=2",
                        "--define-macro=Z",
                        "-U",
                        "W",
                        "-isystem",
                        "s",
                        "-include",
                        "p.h",
                        "--pre-include=q.h",
                        "-x",
                        "cu",
                        "-O",
                        "2",
                        "-g",
                        "-noeh",
                        "-w",
                        "--ftemplate-depth",
                        "2048",
                        "-Wno-deprecated-declarations",
                        "-c",
                        "k.cpp"},
                       "k.cpp"),
            (Args{"-xcuda",
                  "-std=c++20",
                  "-Ia",
                  "-Ib",
                  "-Ic",
                  "-Dx",
                  "-Dy=2",
                  "-DZ",
                  "-UW",
                  "-isystem",
                  "s",
                  "-include",
                  "p.h",
                  "-include",
                  "q.h",
                  "-O2",
                  "-g",
                  "-fno-exceptions",
                  "-w",
                  "-ftemplate-depth=2048",
                  "-Wno-deprecated-declarations",
                  "-c",
                  "k.cpp"}));
  // Device code generation: nvcc's fast math is approximate
  // transcendentals and flushed denormals; relocatable device code.
  EXPECT_EQ(
      translated({"nvcc", "--use_fast_math", "--ftz=false", "--fmad=false",
                  "--fmad", "true", "-rdc=true", "--relocatable-device-code",
                  "false", "-dc", "--default-stream", "per-thread", "k.cu"},
                 "k.cu"),
      (Args{"-xcuda", "-fgpu-approx-transcendentals",
            "-fgpu-flush-denormals-to-zero", "-fno-gpu-flush-denormals-to-zero",
            "-ffp-contract=off", "-fgpu-rdc", "-fgpu-rdc", "-c",
            "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", "k.cu"}));
  // A C++ file nvcc compiles as C++ stays C++; without -x, a .cpp gets no
  // language flag (clang's default is C++ too).
  EXPECT_EQ(translated({"nvcc", "-x", "c++", "-c", "h.cpp"}, "h.cpp"),
            (Args{"-xc++", "-c", "h.cpp"}));
  EXPECT_EQ(translated({"nvcc", "-c", "h.cpp"}, "h.cpp"),
            (Args{"-c", "h.cpp"}));
}

TEST(NvccFlagsTest, DropsNvccOnlyOptions) {
  // Each with its value where it takes one, in every spelling.
  EXPECT_EQ(translated({"ccache",
                        "nvcc",
                        "-Xptxas",
                        "-v,-warn-spills",
                        "-Xnvlink=--verbose",
                        "-Xcudafe",
                        "--diag_suppress=177",
                        "-Xfatbin=-compress-all",
                        "-lineinfo",
                        "-G",
                        "--keep",
                        "--keep-dir",
                        "tmp",
                        "-ccbin",
                        "g++-12",
                        "--compiler-bindir=/usr/bin/g++",
                        "-forward-unknown-to-host-compiler",
                        "--diag-suppress",
                        "177,550",
                        "-diag-suppress=20012",
                        "-maxrregcount=64",
                        "--maxrregcount",
                        "32",
                        "--threads",
                        "4",
                        "-t=0",
                        "--resource-usage",
                        "-Werror=cross-execution-space-call",
                        "-Werror",
                        "all-warnings",
                        "--expt-relaxed-constexpr",
                        "--extended-lambda",
                        "--expt-extended-lambda",
                        "-Wno-deprecated-gpu-targets",
                        "--prec-div=false",
                        "-prec-sqrt",
                        "false",
                        "-m64",
                        "--machine",
                        "64",
                        "-MD",
                        "-MF",
                        "k.d",
                        "-MT",
                        "k.o",
                        "-lcublas",
                        "-L/opt/lib",
                        "--cudart",
                        "shared",
                        "-Xlinker",
                        "-rpath,/x",
                        "k.cu"},
                       "k.cu"),
            (Args{"-xcuda", "k.cu"}));
}

TEST(NvccFlagsTest, UnknownFlagsAreDroppedWithANote) {
  std::vector<std::string> Notes;
  EXPECT_EQ(translated({"nvcc", "--mystery", "-Xcompiler", "-fmystery,-Wall",
                        "-Xcompiler", "-isystem", "-rdc=maybe", "k.cu"},
                       "k.cu", "/build", &Notes),
            (Args{"-xcuda", "k.cu"}));
  EXPECT_EQ(Notes, (std::vector<std::string>{
                       "dropped nvcc flag '--mystery' (no clang equivalent)",
                       "dropped host compiler flag '-fmystery' (no clang "
                       "equivalent)",
                       "dropped nvcc flag '-rdc=maybe' (expected true or "
                       "false)",
                       "dropped host compiler flag '-isystem' (no value "
                       "follows)"}));
}

TEST(NvccFlagsTest, ClangCommandsPassUnchanged) {
  Args Clang = {"/usr/lib/llvm-22/bin/clang++",
                "-x",
                "cuda",
                "--cuda-gpu-arch=sm_80",
                "-DX=1",
                "-O2",
                "--options-file",
                "nope",
                "-c",
                "k.cu"};
  auto T = translateCompileCommand(command("/build", "k.cu", Clang));
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->Command.CommandLine, Clang);
  EXPECT_TRUE(T->Notes.empty());
  EXPECT_EQ(T->Command.Directory, "/build");
  EXPECT_EQ(T->Command.Filename, "k.cu");
}

TEST(NvccFlagsTest, ResponseFiles) {
  TempDir D;
  // Names relative to the command's directory, nested ones too; quotes and
  // several lines.
  D.write("b/top.rsp", "-DTOP \"-I/dir with space\"\n@sub/nested.rsp\n");
  D.write("b/sub/nested.rsp", "-optf=sub/deeper.rsp,sub/other.rsp\n");
  D.write("b/sub/deeper.rsp", "-DDEEP\n");
  D.write("b/sub/other.rsp", "-DOTHER='a b'\n");
  std::string B = D.path("b");
  EXPECT_EQ(translated({"nvcc", "-optf", "top.rsp", "-c", "k.cu"}, "k.cu", B),
            (Args{"-xcuda", "-DTOP", "-I/dir with space", "-DDEEP",
                  "-DOTHER=a b", "-c", "k.cu"}));

  // A clang command: @FILE is expanded, nvcc's --options-file is not.
  auto T = translateCompileCommand(
      command(B, "k.cu", {"clang++", "@sub/deeper.rsp", "-c", "k.cu"}));
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->Command.CommandLine, (Args{"clang++", "-DDEEP", "-c", "k.cu"}));

  // Absolute names are taken as they are.
  EXPECT_EQ(translated({"nvcc", "--options-file=" + D.path("b/sub/deeper.rsp"),
                        "k.cu"},
                       "k.cu", "/elsewhere"),
            (Args{"-xcuda", "-DDEEP", "k.cu"}));
}

TEST(NvccFlagsTest, ResponseFileErrors) {
  TempDir D;
  std::string B = D.path("b");
  D.write("b/loop.rsp", "-DA @loop2.rsp\n");
  D.write("b/loop2.rsp", "--options-file loop.rsp\n");
  D.write("b/bad.rsp", "-DA --options-file missing.rsp\n");
  EXPECT_EQ(translationError({"nvcc", "--options-file", "none.rsp", "k.cu"}, B),
            "the compile command of '/src/k.cu': cannot read response file '" +
                D.path("b/none.rsp") +
                "' (--options-file none.rsp): No such file or directory");
  EXPECT_EQ(translationError({"nvcc", "@bad.rsp", "k.cu"}, B),
            "the compile command of '/src/k.cu': cannot read response file '" +
                D.path("b/missing.rsp") +
                "' (--options-file missing.rsp): No such file or directory");
  EXPECT_EQ(translationError({"nvcc", "@loop.rsp", "k.cu"}, B),
            "the compile command of '/src/k.cu': response file '" +
                D.path("b/loop.rsp") + "' includes itself");
  EXPECT_EQ(translationError({"nvcc", "k.cu", "-optf"}, B),
            "the compile command of '/src/k.cu': '-optf' at the end of the "
            "command: no file");
}

TEST(NvccFlagsTest, TranslatingDatabase) {
  TempDir D;
  D.write("b/inc.rsp", "-I/inc\n");
  std::string B = D.path("b");
  std::string Json =
      "[{\"directory\": \"" + B +
      "\", \"file\": \"/src/a.cu\", \"command\": \"nvcc -arch=sm_80 "
      "--options-file inc.rsp -c /src/a.cu\"},"
      " {\"directory\": \"" +
      B +
      "\", \"file\": \"/src/b.cu\", \"command\": \"nvcc --options-file "
      "gone.rsp -c /src/b.cu\"},"
      " {\"directory\": \"" +
      B +
      "\", \"file\": \"/src/c.cu\", \"command\": \"clang++ -xcuda -c "
      "/src/c.cu\"}]";
  std::string Err;
  auto Inner = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Json, Err, clang::tooling::JSONCommandLineSyntax::Gnu);
  ASSERT_TRUE(Inner) << Err;
  NvccTranslatingDatabase DB(std::move(Inner));

  std::vector<CompileCommand> A = DB.getCompileCommands("/src/a.cu");
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(
      Args(A[0].CommandLine.begin() + 1, A[0].CommandLine.end()),
      (Args{"-xcuda", "--cuda-gpu-arch=sm_80", "-I/inc", "-c", "/src/a.cu"}));
  EXPECT_FALSE(static_cast<bool>(DB.translationError("/src/a.cu")));

  // b.cu's response file is missing: no command, and the reason.
  EXPECT_TRUE(DB.getCompileCommands("/src/b.cu").empty());
  llvm::Error E = DB.translationError("/src/b.cu");
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "the compile command of '/src/b.cu': cannot read response file '" +
                D.path("b/gone.rsp") +
                "' (--options-file gone.rsp): No such file or directory");

  // Every command that translates, in the inner database's order.
  std::vector<CompileCommand> All = DB.getAllCompileCommands();
  ASSERT_EQ(All.size(), 2u);
  EXPECT_EQ(All[0].Filename, "/src/a.cu");
  EXPECT_EQ(All[1].Filename, "/src/c.cu");
  EXPECT_EQ(All[1].CommandLine, (Args{"clang++", "-xcuda", "-c", "/src/c.cu"}));
}

TEST(NvccFlagsTest, NotesAreDistinctAndSorted) {
  (void)takeTranslationNotes();
  recordTranslationNotes({"dropped nvcc flag '-b' (x)", "dropped nvcc flag "
                                                        "'-a' (x)"});
  recordTranslationNotes({"dropped nvcc flag '-a' (x)"});
  EXPECT_EQ(takeTranslationNotes(),
            (std::vector<std::string>{
                "cuda-roofline: note: dropped nvcc flag '-a' (x)",
                "cuda-roofline: note: dropped nvcc flag '-b' (x)"}));
  EXPECT_TRUE(takeTranslationNotes().empty());
}

TEST(NvccFlagsTest, ExportsTranslatedDatabase) {
  TempDir D;
  D.write("b/inc.rsp", "-I/inc\n");
  std::string B = D.path("b");
  std::string Json =
      "[{\"directory\": \"" + B +
      "\", \"file\": \"/src/a.cu\", \"output\": \"a.o\", \"command\": "
      "\"nvcc -arch=sm_90 --options-file inc.rsp --weird -c /src/a.cu -o "
      "a.o\"},"
      " {\"directory\": \"" +
      B +
      "\", \"file\": \"/src/m.cpp\", \"command\": \"/usr/bin/c++ -O2 -c "
      "/src/m.cpp\"}]";
  std::string Err;
  auto Inner = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Json, Err, clang::tooling::JSONCommandLineSyntax::Gnu);
  ASSERT_TRUE(Inner) << Err;
  (void)takeTranslationNotes();
  std::string Out = D.path("out/sub");
  ASSERT_FALSE(static_cast<bool>(
      exportCompileCommands(*Inner, Out, "/opt/cuda-12.8", true)));
  EXPECT_EQ(takeTranslationNotes(),
            (std::vector<std::string>{"cuda-roofline: note: dropped nvcc flag "
                                      "'--weird' (no clang equivalent)"}));

  auto Buf =
      llvm::MemoryBuffer::getFile(D.path("out/sub/compile_commands.json"));
  ASSERT_TRUE(static_cast<bool>(Buf));
  auto V = llvm::json::parse((*Buf)->getBuffer());
  ASSERT_TRUE(static_cast<bool>(V)) << llvm::toString(V.takeError());
  const llvm::json::Array *Entries = V->getAsArray();
  ASSERT_TRUE(Entries && Entries->size() == 2);

  auto ArgsOf = [](const llvm::json::Value &E) {
    Args Out;
    for (const llvm::json::Value &A : *E.getAsObject()->getArray("arguments"))
      Out.push_back(A.getAsString()->str());
    return Out;
  };
  const llvm::json::Object &A = *(*Entries)[0].getAsObject();
  EXPECT_EQ(A.getString("directory")->str(), B);
  EXPECT_EQ(A.getString("file")->str(), "/src/a.cu");
  EXPECT_EQ(A.getString("output")->str(), "a.o");
  Args AArgs = ArgsOf((*Entries)[0]);
  ASSERT_FALSE(AArgs.empty());
  EXPECT_TRUE(llvm::StringRef(AArgs[0]).ends_with("/bin/clang++"));
  // The CUDA command gets the toolkit, its CCCL headers and the prelude.
  Args Expected = {"-xcuda",
                   "--cuda-gpu-arch=sm_90",
                   "-I/inc",
                   "-c",
                   "/src/a.cu",
                   "-o",
                   "a.o",
                   "--cuda-path=/opt/cuda-12.8",
                   "-Wno-unknown-cuda-version",
                   "-idirafter",
                   "/opt/cuda-12.8/include/cccl"};
  llvm::append_range(Expected, preludeArgs());
  EXPECT_EQ(Args(AArgs.begin() + 1, AArgs.end()), Expected);
  // The C++ one is left as it is: no CUDA flags clang would call unused.
  const llvm::json::Object &M = *(*Entries)[1].getAsObject();
  EXPECT_EQ(M.getString("file")->str(), "/src/m.cpp");
  EXPECT_EQ(M.get("output"), nullptr);
  EXPECT_EQ(ArgsOf((*Entries)[1]),
            (Args{"/usr/bin/c++", "-O2", "-c", "/src/m.cpp"}));

  // Without the prelude (--no-prelude): the same command, without its args.
  std::string NoPrelude = D.path("out/none");
  ASSERT_FALSE(static_cast<bool>(
      exportCompileCommands(*Inner, NoPrelude, "/opt/cuda-12.8", false)));
  auto Buf2 = llvm::MemoryBuffer::getFile(NoPrelude + "/compile_commands.json");
  ASSERT_TRUE(static_cast<bool>(Buf2));
  auto V2 = llvm::json::parse((*Buf2)->getBuffer());
  ASSERT_TRUE(static_cast<bool>(V2)) << llvm::toString(V2.takeError());
  Args Plain = ArgsOf((*V2->getAsArray())[0]);
  Expected.resize(Expected.size() - preludeArgs().size());
  EXPECT_EQ(Args(Plain.begin() + 1, Plain.end()), Expected);

  // A command that cannot be translated fails the export.
  std::string Bad =
      "[{\"directory\": \"" + B +
      "\", \"file\": \"/src/a.cu\", \"command\": \"nvcc @gone.rsp -c "
      "/src/a.cu\"}]";
  auto BadDB = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Bad, Err, clang::tooling::JSONCommandLineSyntax::Gnu);
  ASSERT_TRUE(BadDB) << Err;
  llvm::Error E = exportCompileCommands(*BadDB, D.path("out2"), "", true);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "the compile command of '/src/a.cu': cannot read response file '" +
                D.path("b/gone.rsp") +
                "' (@gone.rsp): No such file or directory");
  EXPECT_FALSE(llvm::sys::fs::exists(D.path("out2")));
}

} // namespace
