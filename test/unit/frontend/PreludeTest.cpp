//===- PreludeTest.cpp - Preprocessor flags applied after the fact -------===//
//
// Part of cuda-roofline.
//
// injectPreprocessorArgs on the preprocessor of a real clang invocation, at
// the point the lint front-ends call it (the action's CreateASTConsumer:
// preprocessor made, main file not read). The code under test asserts with
// static_assert what each flag must have done, so a flag that is dropped,
// applied too late or in the wrong search order fails the compile. The
// headers live in an in-memory file system.
//
//===----------------------------------------------------------------------===//

#include "Prelude.h"

#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

/// A syntax-only action that applies Args to the preprocessor first.
class InjectingAction : public clang::SyntaxOnlyAction {
public:
  InjectingAction(std::vector<std::string> Args, std::string &Error,
                  std::string &Predefines)
      : Args(std::move(Args)), Error(Error), Predefines(Predefines) {}

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef F) override {
    clang::Preprocessor &PP = CI.getPreprocessor();
    if (llvm::Error E = injectPreprocessorArgs(PP, Args))
      Error = llvm::toString(std::move(E));
    // A second application of the prelude must change nothing.
    if (InjectPreludeTwice) {
      if (llvm::Error E = injectPrelude(PP))
        Error = llvm::toString(std::move(E));
      if (llvm::Error E = injectPrelude(PP))
        Error = llvm::toString(std::move(E));
    }
    Predefines = PP.getPredefines();
    return clang::SyntaxOnlyAction::CreateASTConsumer(CI, F);
  }

  bool InjectPreludeTwice = false;

private:
  std::vector<std::string> Args;
  std::string &Error;
  std::string &Predefines;
};

// Headers: the same name in two directories tells which one was searched
// first.
const clang::tooling::FileContentMappings Headers = {
    {"/inc/cmdline/which1.h", "#define WHICH1 'A'\n"},
    {"/inc/user/which1.h", "#define WHICH1 'B'\n"},
    {"/inc/user/only_user.h", "#define ONLY_USER 1\n"},
    {"/inc/sys/which2.h", "#define WHICH2 'S'\n"},
    {"/inc/after/which2.h", "#define WHICH2 'F'\n"},
    {"/inc/after/only_after.h", "#define ONLY_AFTER 1\n"},
    {"/inc/forced.h", "int from_include = FOO;\n"},
};

const char *const Code = R"cc(
#include <which1.h>
#include <only_user.h>
#include <which2.h>
#include <only_after.h>
// The command line's -I directory comes before an injected -I one.
static_assert(WHICH1 == 'A', "-I is appended to the user directories");
// An injected -isystem directory comes before an -idirafter one.
static_assert(WHICH2 == 'S', "-isystem before -idirafter");
static_assert(ONLY_USER == 1 && ONLY_AFTER == 1, "both searched");
// -D NAME=VALUE, -DNAME (1), -DNAME= (empty), and -U after -D.
static_assert(FOO == 2 && BAR == 1 && EMPTY + 3 == 3, "-D");
#ifdef GONE
#error "-U did not undefine GONE"
#endif
// The -include file was read before this line.
int use = from_include;
)cc";

bool run(InjectingAction *A, const char *Source = Code) {
  return clang::tooling::runToolOnCodeWithArgs(
      std::unique_ptr<clang::FrontendAction>(A), Source,
      {"-std=c++17", "-I", "/inc/cmdline"}, "/src/input.cc", "prelude-test",
      std::make_shared<clang::PCHContainerOperations>(), Headers);
}

TEST(PreludeTest, AppliesEveryFlagBeforeTheMainFile) {
  std::string Error, Predefines;
  auto *A = new InjectingAction({"-D", "FOO=2", "-DBAR", "-DEMPTY=", "-DGONE",
                                 "-UGONE", "-include", "/inc/forced.h", "-I",
                                 "/inc/user", "-isystem", "/inc/sys",
                                 "-idirafter/inc/after", "-I/no/such/dir"},
                                Error, Predefines);
  EXPECT_TRUE(run(A));
  EXPECT_EQ(Error, "");
  // In command-line order, after clang's own predefines.
  llvm::StringRef P = Predefines;
  size_t Foo = P.find("#define FOO 2\n");
  ASSERT_NE(Foo, llvm::StringRef::npos) << Predefines;
  EXPECT_TRUE(P.drop_front(Foo).starts_with(
      "#define FOO 2\n#define BAR 1\n#define EMPTY \n#define GONE 1\n"
      "#undef GONE\n#include \"/inc/forced.h\"\n"))
      << Predefines;
  EXPECT_TRUE(P.ends_with("#include \"/inc/forced.h\"\n")) << Predefines;
}

TEST(PreludeTest, WithoutTheFlagsTheCodeDoesNotCompile) {
  // The control: the same code and command line, nothing injected.
  std::string Error, Predefines;
  EXPECT_FALSE(run(new InjectingAction({}, Error, Predefines)));
  EXPECT_EQ(Error, "");
}

TEST(PreludeTest, RefusesWhatItCannotApply) {
  struct Case {
    std::vector<std::string> Args;
    const char *Message;
  } Cases[] = {
      {{"-fopenmp"}, "cannot apply '-fopenmp' to the preprocessor"},
      {{"-include"}, "'-include' has no value"},
      {{"-DX=a\nb"}, "the value of '-D' has a line break"},
      {{"-include", "a\"b.h"}, "cannot include 'a\"b.h': it has a '\"'"},
  };
  for (const Case &C : Cases) {
    std::string Error, Predefines;
    run(new InjectingAction(C.Args, Error, Predefines), "int x;");
    EXPECT_EQ(Error, C.Message);
  }
}

TEST(PreludeTest, AppliesTheRestAroundAFlagItRefuses) {
  // A bad flag in the middle of a config's extra-args: named, and the -D
  // lines around it are applied all the same.
  std::string Error, Predefines;
  run(new InjectingAction({"-DA=1", "-std=c++20", "-DB=2", "-fopenmp"}, Error,
                          Predefines),
      "int x;");
  EXPECT_EQ(Error, "cannot apply '-std=c++20' to the preprocessor; cannot "
                   "apply '-fopenmp' to the preprocessor");
  EXPECT_NE(Predefines.find("#define A 1\n#define B 2\n"), std::string::npos)
      << Predefines;
}

TEST(PreludeTest, PreludeArgsNameTheShippedFiles) {
  std::string Dir = preludeDir();
  std::vector<std::string> Args = preludeArgs();
  ASSERT_EQ(Args.size(), 4u);
  EXPECT_EQ(Args[0], "-include");
  EXPECT_EQ(Args[1], Dir + "/cuda_roofline_prelude.h");
  EXPECT_EQ(Args[2], "-idirafter");
  EXPECT_EQ(Args[3], Dir + "/compat");
  EXPECT_TRUE(llvm::sys::fs::exists(Args[1]));
  llvm::SmallString<256> Omp(Args[3]);
  llvm::sys::path::append(Omp, "omp.h");
  EXPECT_TRUE(llvm::sys::fs::exists(Omp));
}

TEST(PreludeTest, InjectPreludeOnce) {
  std::string Error, Predefines;
  auto *A = new InjectingAction({}, Error, Predefines);
  A->InjectPreludeTwice = true;
  // Not CUDA: the prelude's guard leaves the C++ code alone.
  EXPECT_TRUE(run(A, "int x;"));
  EXPECT_EQ(Error, "");
  std::string Line = "#include \"" + preludeArgs()[1] + "\"\n";
  llvm::StringRef P = Predefines;
  size_t First = P.find(Line);
  ASSERT_NE(First, llvm::StringRef::npos) << Predefines;
  EXPECT_EQ(P.find(Line, First + 1), llvm::StringRef::npos) << Predefines;
}

} // namespace
