//===- Prelude.cpp --------------------------------------------------------===//

#include "Prelude.h"
#include "Config.h"

#include "clang/Basic/FileManager.h"
#include "clang/Lex/DirectoryLookup.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace roofline;

std::string roofline::preludeDir() { return ROOFLINE_PRELUDE_DIR; }

static std::string preludeHeader() {
  llvm::SmallString<256> P(preludeDir());
  llvm::sys::path::append(P, "cuda_roofline_prelude.h");
  return std::string(P);
}

std::vector<std::string> roofline::preludeArgs() {
  llvm::SmallString<256> Compat(preludeDir());
  llvm::sys::path::append(Compat, "compat");
  return {"-include", preludeHeader(), "-idirafter", std::string(Compat)};
}

static llvm::Error badFlag(const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
}

/// Where a search directory goes (see injectPreprocessorArgs).
enum class SearchGroup { Angled, System, After };

static void addSearchDir(clang::HeaderSearch &HS, llvm::StringRef Dir,
                         SearchGroup Group) {
  clang::OptionalDirectoryEntryRef D =
      HS.getFileMgr().getOptionalDirectoryRef(Dir);
  if (!D)
    return; // As clang does with a missing -I directory.
  auto Kind = Group == SearchGroup::Angled ? clang::SrcMgr::C_User
                                           : clang::SrcMgr::C_System;
  clang::DirectoryLookup Lookup(*D, Kind, /*isFramework=*/false);
  // AddSearchPath(..., isAngled) puts a directory last among the angled
  // ones, which is where the system ones start: an -isystem directory
  // placed there is searched before every other system directory, as the
  // first -isystem of a command line is.
  if (Group == SearchGroup::After)
    HS.AddSystemSearchPath(Lookup);
  else
    HS.AddSearchPath(Lookup, /*isAngled=*/true);
}

llvm::Error roofline::injectPreprocessorArgs(clang::Preprocessor &PP,
                                             llvm::ArrayRef<std::string> Args) {
  std::string Lines;
  // A flag that cannot be applied is named; the others are applied all the
  // same (one bad flag in a config must not drop its -D lines).
  std::string Refused;
  auto refuse = [&](const llvm::Twine &Why) {
    Refused += (Refused.empty() ? "" : "; ") + Why.str();
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    llvm::StringRef Flag, Value;
    for (llvm::StringRef F :
         {"-include", "-idirafter", "-isystem", "-D", "-U", "-I"}) {
      if (!A.starts_with(F))
        continue;
      Flag = F;
      Value = A.drop_front(F.size());
      break;
    }
    if (Flag.empty()) {
      refuse("cannot apply '" + A + "' to the preprocessor");
      continue;
    }
    if (Value.empty()) {
      if (I + 1 == Args.size()) {
        refuse("'" + A + "' has no value");
        continue;
      }
      Value = Args[++I];
    }
    // One line each in the predefines: a line break would start another.
    if (Value.contains('\n') || Value.contains('\r')) {
      refuse("the value of '" + Flag + "' has a line break");
      continue;
    }
    if (Flag == "-include") {
      if (Value.contains('"')) {
        refuse("cannot include '" + Value + "': it has a '\"'");
        continue;
      }
      Lines += "#include \"" + Value.str() + "\"\n";
    } else if (Flag == "-D") {
      auto [Name, Def] = Value.split('=');
      // -DX defines X as 1, as on a command line; -DX= as nothing.
      Lines += "#define " + Name.str() + " " +
               (Value.contains('=') ? Def.str() : std::string("1")) + "\n";
    } else if (Flag == "-U") {
      Lines += "#undef " + Value.str() + "\n";
    } else {
      SearchGroup G = Flag == "-I"         ? SearchGroup::Angled
                      : Flag == "-isystem" ? SearchGroup::System
                                           : SearchGroup::After;
      addSearchDir(PP.getHeaderSearchInfo(), Value, G);
    }
  }
  if (!Lines.empty())
    PP.setPredefines(PP.getPredefines() + Lines);
  if (!Refused.empty())
    return badFlag(Refused);
  return llvm::Error::success();
}

/// The CCCL directory of the toolkit on HS's search path, if it has one
/// that is not searched already.
static std::optional<std::string> ccclDir(clang::HeaderSearch &HS) {
  clang::FileManager &FM = HS.getFileMgr();
  std::optional<std::string> Found;
  std::vector<const clang::DirectoryEntry *> Searched;
  for (const clang::DirectoryLookup &DL : HS.search_dir_range()) {
    clang::OptionalDirectoryEntryRef D = DL.getDirRef();
    if (!D)
      continue;
    Searched.push_back(&D->getDirEntry());
    llvm::SmallString<256> Runtime(D->getName());
    llvm::sys::path::append(Runtime, "cuda_runtime.h");
    llvm::SmallString<256> Cccl(D->getName());
    llvm::sys::path::append(Cccl, "cccl");
    if (!Found && FM.getOptionalFileRef(Runtime) &&
        FM.getOptionalDirectoryRef(Cccl))
      Found = std::string(Cccl);
  }
  if (!Found)
    return std::nullopt;
  clang::OptionalDirectoryEntryRef C = FM.getOptionalDirectoryRef(*Found);
  if (llvm::is_contained(Searched, &C->getDirEntry()))
    return std::nullopt;
  return Found;
}

llvm::Error roofline::injectPrelude(clang::Preprocessor &PP) {
  std::string Include = "#include \"" + preludeHeader() + "\"\n";
  if (llvm::StringRef(PP.getPredefines()).contains(Include))
    return llvm::Error::success();
  return injectPreprocessorArgs(PP, preludeArgs());
}

llvm::Error roofline::injectCcclDir(clang::Preprocessor &PP) {
  // ccclDir() finds nothing once the directory is searched: once per
  // preprocessor, like the others.
  std::optional<std::string> Cccl = ccclDir(PP.getHeaderSearchInfo());
  if (!Cccl)
    return llvm::Error::success();
  return injectPreprocessorArgs(PP, {"-idirafter", *Cccl});
}

llvm::Error roofline::injectConfigArgs(clang::Preprocessor &PP,
                                       llvm::StringRef MainFile) {
  // A comment line in the predefines marks a preprocessor already done
  // (clang-tidy calls each roofline check on the same one).
  static const char Marker[] = "// cuda-roofline: extra-args\n";
  if (llvm::StringRef(PP.getPredefines()).contains(Marker))
    return llvm::Error::success();
  PP.setPredefines(PP.getPredefines() + Marker);
  auto Cfg = readConfigFor(MainFile.str());
  if (!Cfg) {
    llvm::consumeError(Cfg.takeError());
    return llvm::Error::success();
  }
  if (!*Cfg || (*Cfg)->ExtraArgs.empty())
    return llvm::Error::success();
  if (llvm::Error E = injectPreprocessorArgs(PP, (*Cfg)->ExtraArgs))
    return badFlag((*Cfg)->Origin +
                   ": extra-args: " + llvm::toString(std::move(E)) +
                   " (the lint front-ends take -D, -U, -include, -I, "
                   "-isystem and -idirafter)");
  return llvm::Error::success();
}
