//===- ReviewSupport.cpp --------------------------------------------------===//

#include "ReviewSupport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

using namespace roofline;
namespace path = llvm::sys::path;
namespace fs = llvm::sys::fs;

static llvm::SmallString<256> absolute(llvm::StringRef P) {
  llvm::SmallString<256> A(P);
  fs::make_absolute(A);
  path::remove_dots(A, /*remove_dot_dot=*/true);
  return A;
}

// Review formats separate path components with '/'. Only a Windows path has
// '\' separators to convert: on POSIX '\' is an ordinary character of a file
// name, and a path with it changed names another file.
static std::string slashes(llvm::StringRef P) {
  std::string S = P.str();
  if (path::is_style_windows(path::Style::native))
    std::replace(S.begin(), S.end(), '\\', '/');
  return S;
}

// Abs relative to Root, compared component by component so that /a/bc is
// not taken to be under /a/b.
static std::optional<std::string> relativeTo(llvm::StringRef Abs,
                                             llvm::StringRef Root) {
  auto FI = path::begin(Abs), FE = path::end(Abs);
  for (auto RI = path::begin(Root), RE = path::end(Root); RI != RE; ++RI) {
    if (*RI == ".") // A trailing separator.
      continue;
    if (FI == FE || *RI != *FI)
      return std::nullopt;
    ++FI;
  }
  std::string Rel;
  for (; FI != FE; ++FI) {
    if (*FI == ".")
      continue;
    if (!Rel.empty())
      Rel += '/';
    Rel += *FI;
  }
  if (Rel.empty())
    return std::nullopt;
  return Rel;
}

std::string roofline::reviewRoot(const ReviewOptions &Opts) {
  if (!Opts.SourceRoot.empty())
    return std::string(absolute(Opts.SourceRoot));
  llvm::SmallString<256> Cwd;
  if (fs::current_path(Cwd))
    return "/";
  path::remove_dots(Cwd, /*remove_dot_dot=*/true);
  return std::string(Cwd);
}

ReviewPath roofline::reviewPath(llvm::StringRef File, llvm::StringRef Root) {
  llvm::SmallString<256> Abs = absolute(File);
  if (auto Rel = relativeTo(Abs, Root))
    return {slashes(*Rel), true};
  // A root or file reached through a symlink (a checkout under /tmp that is
  // really /private/tmp) still nests once both are resolved.
  llvm::SmallString<256> RealFile, RealRoot;
  if (!fs::real_path(Abs, RealFile) && !fs::real_path(Root, RealRoot))
    if (auto Rel = relativeTo(RealFile, RealRoot))
      return {slashes(*Rel), true};
  return {slashes(Abs), false};
}

std::string roofline::percentEncodePath(llvm::StringRef Path) {
  static const char Hex[] = "0123456789ABCDEF";
  std::string Out;
  for (unsigned char C : Path) {
    if (std::isalnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/') {
      Out += char(C);
      continue;
    }
    Out += '%';
    Out += Hex[C >> 4];
    Out += Hex[C & 15];
  }
  return Out;
}

std::string roofline::fileUri(llvm::StringRef AbsolutePath, bool Directory) {
  std::string P = slashes(AbsolutePath);
  std::string Uri = "file://";
  if (P.empty() || P[0] != '/') // A Windows drive letter.
    Uri += '/';
  Uri += percentEncodePath(P);
  if (Directory && Uri.back() != '/')
    Uri += '/';
  return Uri;
}

// Message text as one sentence: capitalized, ending with a period.
static std::string sentence(llvm::StringRef S) {
  std::string Out = S.trim().str();
  if (Out.empty())
    return Out;
  Out[0] = char(std::toupper(static_cast<unsigned char>(Out[0])));
  char Last = Out.back();
  if (Last != '.' && Last != '!' && Last != '?')
    Out += '.';
  return Out;
}

std::string roofline::messageWithNotes(const Finding &F, NoteStyle Style,
                                       llvm::StringRef Root) {
  std::string Out =
      Style == NoteStyle::Sentences ? sentence(F.Message) : F.Message;
  for (const FindingNote &N : F.Notes) {
    bool OtherFile = N.Loc.File != F.Loc.File;
    bool Elsewhere = N.Loc.Line && (OtherFile || N.Loc.Line != F.Loc.Line);
    std::string Where;
    if (Elsewhere && OtherFile)
      Where =
          reviewPath(N.Loc.File, Root).Path + ":" + std::to_string(N.Loc.Line);
    else if (Elsewhere)
      Where = "line " + std::to_string(N.Loc.Line);
    if (Style == NoteStyle::Lines) {
      Out += "\nnote";
      if (Elsewhere)
        Out += " (" + Where + ")";
      Out += ": " + N.Message;
    } else {
      Out += ' ';
      Out += sentence(Elsewhere ? "At " + Where + ": " + N.Message : N.Message);
    }
  }
  return Out;
}

llvm::StringRef roofline::levelName(llvm::StringRef Level,
                                    const LevelNames &Names) {
  if (Level == "error")
    return Names.Error;
  if (Level == "note")
    return Names.Note;
  return Names.Warning;
}

std::vector<std::string>
roofline::namesNotUtf8(const std::vector<FileReport> &Files) {
  std::set<std::string> Bad;
  auto Check = [&](const std::string &Name) {
    if (!llvm::json::isUTF8(Name))
      Bad.insert(Name);
  };
  for (const FileReport &F : Files) {
    Check(F.File);
    for (const KernelReport &K : F.Kernels)
      Check(K.Decl.Loc.File);
    forEachFinding(F, [&](const Finding &Fd) { Check(Fd.Loc.File); });
  }
  return {Bad.begin(), Bad.end()};
}

std::string roofline::validUtf8(llvm::StringRef S) {
  if (llvm::json::isUTF8(S))
    return S.str();
  return llvm::json::fixUTF8(S);
}
