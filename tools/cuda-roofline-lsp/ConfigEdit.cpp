//===- ConfigEdit.cpp -----------------------------------------------------===//

#include "ConfigEdit.h"
#include "Config.h"

#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace roofline;
namespace lsp = llvm::lsp;

/// A value to edit, as the annotation action offers: sizes are integers.
static constexpr llvm::StringLiteral PlaceholderValue = "1048576";

/// A line that holds no entry: blank or a comment.
static bool isBlank(llvm::StringRef Line) {
  llvm::StringRef T = Line.trim();
  return T.empty() || T.starts_with("#");
}

std::optional<TextInsertion> roofline::paramInsertion(llvm::StringRef Yaml,
                                                      llvm::StringRef Param,
                                                      llvm::StringRef Value) {
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Yaml.split(Lines, '\n');
  std::string Entry = (Param + ": " + Value).str();
  for (unsigned I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I].rtrim("\r");
    if (!L.consume_front("params:"))
      continue;
    // `params: {n: 1}` or `params: []`: not a block to add a line to.
    if (!isBlank(L))
      return std::nullopt;
    // Indent as the block's first entry is, else two spaces.
    std::string Indent = "  ";
    for (unsigned J = I + 1; J < Lines.size(); ++J) {
      if (isBlank(Lines[J]))
        continue;
      llvm::StringRef Lead =
          Lines[J].take_while([](char C) { return C == ' ' || C == '\t'; });
      if (!Lead.empty())
        Indent = Lead.str();
      break;
    }
    return TextInsertion{I + 1, 0, Indent + Entry + "\n"};
  }
  // No params block: one at the end, on a line of its own.
  unsigned Last = Lines.size() - 1;
  std::string Text = "params:\n  " + Entry + "\n";
  if (!Lines[Last].empty())
    Text = "\n" + Text;
  return TextInsertion{Last, unsigned(Lines[Last].size()), Text};
}

static llvm::json::Value insertEdit(const TextInsertion &I) {
  lsp::Position At(int(I.Line), int(I.Column));
  return llvm::json::Object{{"range", lsp::toJSON(lsp::Range(At, At))},
                            {"newText", I.Text}};
}

static std::string uriOf(llvm::StringRef Path) {
  auto U = lsp::URIForFile::fromFile(Path);
  if (!U) {
    llvm::consumeError(U.takeError());
    return "";
  }
  return U->uri().str();
}

std::optional<llvm::json::Value>
roofline::configSizeAction(const std::string &File, llvm::StringRef Param,
                           const WorkspaceAccess &W) {
  std::string Entry = (Param + ": " + PlaceholderValue).str();
  auto Found = readConfigFor(File);
  // A configuration that does not read is shown as the file's error; an
  // edit made blind could only add to it.
  if (!Found) {
    llvm::consumeError(Found.takeError());
    return std::nullopt;
  }
  if (*Found) {
    const std::string &Path = (*Found)->Origin;
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return std::nullopt;
    auto Insert =
        paramInsertion((*Buffer)->getBuffer(), Param, PlaceholderValue);
    std::string Uri = uriOf(Path);
    if (!Insert || Uri.empty())
      return std::nullopt;
    llvm::json::Object Changes;
    Changes[Uri] = llvm::json::Array{insertEdit(*Insert)};
    return llvm::json::Object{
        {"title", "Give '" + Param.str() +
                      "' a value for the workspace: add '" + Entry +
                      "' to params in " + Path + " (then edit the value)"},
        {"kind", "quickfix"},
        {"isPreferred", false},
        {"edit", llvm::json::Object{{"changes", std::move(Changes)}}}};
  }
  if (!W.CanCreateFiles)
    return std::nullopt;
  // The workspace's root when the file is in it, else the file's folder:
  // readConfigFor finds either.
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(File));
  if (!W.Root.empty() && llvm::StringRef(File).starts_with(W.Root + "/"))
    Dir = W.Root;
  llvm::sys::path::append(Dir, ".cuda-roofline.yaml");
  std::string Uri = uriOf(Dir);
  if (Uri.empty())
    return std::nullopt;
  TextInsertion Insert{0, 0, "params:\n  " + Entry + "\n"};
  llvm::json::Array Operations{
      llvm::json::Object{
          {"kind", "create"},
          {"uri", Uri},
          {"options", llvm::json::Object{{"ignoreIfExists", true}}}},
      llvm::json::Object{
          {"textDocument",
           llvm::json::Object{{"uri", Uri}, {"version", nullptr}}},
          {"edits", llvm::json::Array{insertEdit(Insert)}}}};
  return llvm::json::Object{
      {"title", "Give '" + Param.str() +
                    "' a value for the workspace: create " + std::string(Dir) +
                    " with '" + Entry + "' (then edit the value)"},
      {"kind", "quickfix"},
      {"isPreferred", false},
      {"edit", llvm::json::Object{{"documentChanges", std::move(Operations)}}}};
}
