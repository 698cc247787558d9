//===- Server.cpp ---------------------------------------------------------===//

#include "Server.h"
#include "Analyzer.h"
#include "LintPolicy.h"
#include "ReportViews.h"
#include "Version.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/Path.h"

using namespace roofline;
namespace lsp = llvm::lsp;
namespace json = llvm::json;

bool roofline::fromJSON(const json::Value &V, RawParams &R, json::Path) {
  R.Value = V;
  return true;
}

Server::Server(const GpuDatabase &Gpus, ServerOptions Opts,
               lsp::JSONTransport &Transport)
    : Gpus(Gpus), Opts(std::move(Opts)), Transport(Transport),
      Handler(Transport) {
  Settings = this->Opts.Settings;
  Handler.method("initialize", this, &Server::onInitialize);
  Handler.notification("initialized", this, &Server::onInitialized);
  Handler.method("shutdown", this, &Server::onShutdown);
  Handler.notification("textDocument/didOpen", this, &Server::onDidOpen);
  Handler.notification("textDocument/didChange", this, &Server::onDidChange);
  Handler.notification("textDocument/didSave", this, &Server::onDidSave);
  Handler.notification("textDocument/didClose", this, &Server::onDidClose);
  Handler.notification("workspace/didChangeConfiguration", this,
                       &Server::onDidChangeConfiguration);
  Handler.method("textDocument/hover", this, &Server::onHover);
  Handler.method("textDocument/documentSymbol", this,
                 &Server::onDocumentSymbol);
  Handler.method("textDocument/inlayHint", this, &Server::onInlayHint);
  Handler.method("textDocument/codeAction", this, &Server::onCodeAction);
  PublishDiagnostics = Handler.outgoingNotification<json::Value>(
      "textDocument/publishDiagnostics");
  ShowMessage = Handler.outgoingNotification<json::Value>("window/showMessage");
}

llvm::Error Server::run() { return Transport.run(Handler); }

llvm::Error Server::applyClientSettings(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return llvm::Error::success();
  if (const json::Object *Nested = O->getObject("cudaRoofline"))
    O = Nested;
  LintSettings S = Opts.Settings;
  HintKinds H;
  for (const auto &[Key, Value] : *O) {
    // The server's own setting: which inlay hints to show.
    if (Key == "inlayHints") {
      const json::Object *K = Value.getAsObject();
      if (!K)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "setting 'inlayHints': expected an object such as "
            "{\"sectors\": true, \"trips\": true, \"kernels\": true}");
      H.Sectors = K->getBoolean("sectors").value_or(false);
      H.Trips = K->getBoolean("trips").value_or(false);
      H.Kernels = K->getBoolean("kernels").value_or(false);
      continue;
    }
    std::string Text;
    if (auto Str = Value.getAsString())
      Text = Str->str();
    else
      llvm::raw_string_ostream(Text) << Value;
    if (llvm::Error E = setOption(S, FrontEnd::Tidy, Key.str(), Text))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "setting '" + Key.str() +
                                         "': " + llvm::toString(std::move(E)));
  }
  if (S.Analysis.GpuId && !Gpus.find(*S.Analysis.GpuId))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "setting 'Gpu': unknown GPU '" +
                                       *S.Analysis.GpuId +
                                       "' (cuda-roofline --list-gpus)");
  Settings = std::move(S);
  Hints = H;
  return llvm::Error::success();
}

void Server::onInitialize(const RawParams &P,
                          lsp::Callback<json::Value> Reply) {
  if (const json::Object *O = P.Value.getAsObject())
    if (const json::Value *Init = O->get("initializationOptions"))
      if (llvm::Error E = applyClientSettings(*Init))
        SettingsError = llvm::toString(std::move(E));
  json::Object Capabilities{
      {"textDocumentSync",
       json::Object{{"openClose", true},
                    {"change", int(lsp::TextDocumentSyncKind::Full)},
                    {"save", true}}},
      {"hoverProvider", true},
      {"documentSymbolProvider", true},
      {"inlayHintProvider", true},
      {"codeActionProvider",
       json::Object{{"codeActionKinds", json::Array{"quickfix"}}}},
  };
  Reply(json::Object{
      {"capabilities", std::move(Capabilities)},
      {"serverInfo",
       json::Object{{"name", "cuda-roofline-lsp"}, {"version", ToolVersion}}},
  });
}

void Server::onInitialized(const lsp::InitializedParams &) {
  if (!SettingsError.empty())
    ShowMessage(json::Object{{"type", int(lsp::MessageType::Error)},
                             {"message", "cuda-roofline: " + SettingsError}});
}

void Server::onShutdown(const lsp::NoParams &,
                        lsp::Callback<std::nullptr_t> Reply) {
  ShuttingDown = true;
  Reply(nullptr);
}

void Server::onDidOpen(const lsp::DidOpenTextDocumentParams &P) {
  Document &D = Docs[P.textDocument.uri.file().str()];
  D.Uri = P.textDocument.uri;
  D.Text = P.textDocument.text;
  D.Version = P.textDocument.version;
  analyze(D);
}

void Server::onDidChange(const lsp::DidChangeTextDocumentParams &P) {
  auto It = Docs.find(P.textDocument.uri.file().str());
  if (It == Docs.end())
    return;
  Document &D = It->second;
  // Whole-text changes (what the server asks for) and ranged ones alike.
  if (llvm::failed(lsp::TextDocumentContentChangeEvent::applyTo(
          P.contentChanges, D.Text)))
    lsp::Logger::error("cannot apply a change to {0}", D.Uri.file());
  D.Version = P.textDocument.version;
  analyze(D);
}

void Server::onDidSave(const RawParams &P) {
  const json::Object *O = P.Value.getAsObject();
  const json::Object *TD = O ? O->getObject("textDocument") : nullptr;
  std::optional<llvm::StringRef> Uri = TD ? TD->getString("uri") : std::nullopt;
  if (!Uri)
    return;
  auto U = lsp::URIForFile::fromURI(*Uri);
  if (!U) {
    llvm::consumeError(U.takeError());
    return;
  }
  auto It = Docs.find(U->file().str());
  if (It != Docs.end())
    analyze(It->second);
}

void Server::onDidClose(const lsp::DidCloseTextDocumentParams &P) {
  auto It = Docs.find(P.textDocument.uri.file().str());
  if (It == Docs.end())
    return;
  // An editor shows a closed file's diagnostics no more.
  for (const std::string &File : It->second.Published)
    if (auto U = lsp::URIForFile::fromFile(File))
      PublishDiagnostics(json::Object{{"uri", U->uri().str()},
                                      {"diagnostics", json::Array()}});
    else
      llvm::consumeError(U.takeError());
  Docs.erase(It);
}

void Server::onDidChangeConfiguration(const RawParams &P) {
  const json::Object *O = P.Value.getAsObject();
  const json::Value *S = O ? O->get("settings") : nullptr;
  if (!S)
    return;
  if (llvm::Error E = applyClientSettings(*S)) {
    ShowMessage(json::Object{
        {"type", int(lsp::MessageType::Error)},
        {"message", "cuda-roofline: " + llvm::toString(std::move(E))}});
    return;
  }
  for (auto &[Path, D] : Docs)
    analyze(D);
}

/// The compile command of File: from --compile-commands-dir, else a
/// compile_commands.json found upward from the file, else the file alone.
static std::unique_ptr<clang::tooling::CompilationDatabase>
databaseFor(const std::string &File, const std::string &Dir) {
  std::string Err;
  if (!Dir.empty())
    if (auto DB =
            clang::tooling::CompilationDatabase::loadFromDirectory(Dir, Err))
      return DB;
  if (auto DB =
          clang::tooling::CompilationDatabase::autoDetectFromSource(File, Err))
    return DB;
  // An unsaved buffer may name a folder that does not exist (yet).
  llvm::StringRef Parent = llvm::sys::path::parent_path(File);
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(
      llvm::sys::fs::is_directory(Parent) ? Parent : ".",
      std::vector<std::string>());
}

void Server::analyze(Document &D) {
  D.Report.reset();
  D.Error.clear();
  std::string File = D.Uri.file().str();
  AnalyzerOptions AO = Settings.Analysis;
  AO.Contents = D.Text;
  std::string ClangDiagnostics;
  llvm::raw_string_ostream Diags(ClangDiagnostics);
  AO.Diagnostics = &Diags;
  auto DB = databaseFor(File, Opts.CompileCommandsDir);
  // A crash in one analysis costs that analysis, not the session.
  llvm::CrashRecoveryContext CRC;
  bool Finished = CRC.RunSafely([&] {
    Analyzer A(Gpus, AO);
    auto R = A.analyzeFile(*DB, File);
    if (!R) {
      D.Error = llvm::toString(R.takeError());
      return;
    }
    auto Policy = withConfigGlobs(*R, Settings.Policy);
    if (!Policy) {
      D.Error = llvm::toString(Policy.takeError());
      return;
    }
    applyLintPolicy(*R, *Policy, &D.Text);
    D.Report = std::move(*R);
  });
  if (!Finished)
    D.Error = "the analysis crashed; the server goes on (please report "
              "this file)";
  if (!D.Error.empty() && !ClangDiagnostics.empty())
    lsp::Logger::info("clang on {0}:\n{1}", File, ClangDiagnostics);
  publish(D);
}

void Server::publish(Document &D) {
  std::string Main = D.Uri.file().str();
  std::map<std::string, std::vector<json::Value>> ByFile;
  if (D.Report)
    ByFile = diagnosticsOf(*D.Report, Main, D.Text);
  else
    ByFile[Main].push_back(failureDiagnostic(D.Error));
  // Files that had diagnostics last time and have none now are cleared.
  for (const std::string &Old : D.Published)
    ByFile[Old];
  D.Published.clear();
  for (auto &[File, Diagnostics] : ByFile) {
    auto U = lsp::URIForFile::fromFile(File);
    if (!U) {
      llvm::consumeError(U.takeError());
      continue;
    }
    if (!Diagnostics.empty())
      D.Published.push_back(File);
    json::Object Params{{"uri", U->uri().str()},
                        {"diagnostics", json::Array(std::move(Diagnostics))}};
    if (File == Main)
      Params["version"] = D.Version;
    PublishDiagnostics(std::move(Params));
  }
}

void Server::onHover(const lsp::TextDocumentPositionParams &P,
                     lsp::Callback<std::optional<lsp::Hover>> Reply) {
  auto It = Docs.find(P.textDocument.uri.file().str());
  if (It == Docs.end() || !It->second.Report)
    return Reply(std::nullopt);
  Reply(hoverAt(*It->second.Report, It->first, It->second.Text, P.position));
}

void Server::onDocumentSymbol(
    const lsp::DocumentSymbolParams &P,
    lsp::Callback<std::vector<lsp::DocumentSymbol>> Reply) {
  auto It = Docs.find(P.textDocument.uri.file().str());
  if (It == Docs.end() || !It->second.Report)
    return Reply(std::vector<lsp::DocumentSymbol>());
  Reply(symbolsOf(*It->second.Report, It->first, It->second.Text));
}

void Server::onInlayHint(const lsp::InlayHintsParams &P,
                         lsp::Callback<json::Value> Reply) {
  auto It = Docs.find(P.textDocument.uri.file().str());
  if (It == Docs.end() || !It->second.Report)
    return Reply(json::Array());
  Reply(inlayHintsOf(*It->second.Report, It->first, It->second.Text, Hints,
                     P.range));
}

void Server::onCodeAction(const lsp::CodeActionParams &P,
                          lsp::Callback<json::Value> Reply) {
  auto It = Docs.find(P.textDocument.uri.file().str());
  if (It == Docs.end() || !It->second.Report)
    return Reply(json::Array());
  Reply(codeActionsAt(*It->second.Report, It->first, It->second.Text,
                      It->second.Uri.uri().str(), P.range));
}
