//===- Server.cpp ---------------------------------------------------------===//

#include "Server.h"
#include "Analyzer.h"
#include "CheckedInput.h"
#include "Limits.h"
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
      Handler(Transport),
      Queue([this](const std::string &Path,
                   const std::atomic<bool> &C) { analyze(Path, C); },
            this->Opts.Sync) {
  Settings = this->Opts.Settings;
  CompileCommandsDir = this->Opts.CompileCommandsDir;
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
  Progress = Handler.outgoingNotification<json::Value>("$/progress");
  CreateProgress = Handler.outgoingRequest<json::Value, RawParams>(
      "window/workDoneProgress/create",
      [this](json::Value Id, llvm::Expected<RawParams> R) {
        if (!R) {
          lsp::Logger::error("no progress token {0}: {1}", Id,
                             llvm::toString(R.takeError()));
          return;
        }
        // The token is the request's id without its prefix.
        std::lock_guard<std::mutex> L(State);
        if (auto S = Id.getAsString())
          ReadyTokens.push_back(S->str());
      });
  // Every request is answered at once from the last analysis: none is in
  // flight for a cancellation to stop.
  Handler.notification("$/cancelRequest", this, &Server::onCancelRequest);
}

void Server::onCancelRequest(const RawParams &) {}

void Server::requestProgressToken() {
  std::string Token;
  {
    std::lock_guard<std::mutex> L(State);
    if (!ProgressSupported)
      return;
    Token = "cuda-roofline-" + std::to_string(NextToken++);
  }
  CreateProgress(json::Value(json::Object{{"token", Token}}), Token);
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
  std::string DatabaseDir = Opts.CompileCommandsDir;
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
    // As clangd names it: the folder of compile_commands.json.
    if (Key == "compilationDatabasePath") {
      auto Dir = Value.getAsString();
      if (!Dir)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "setting 'compilationDatabasePath': expected a folder name");
      DatabaseDir = Dir->str();
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
  std::lock_guard<std::mutex> L(State);
  Settings = std::move(S);
  Hints = H;
  CompileCommandsDir = DatabaseDir;
  return llvm::Error::success();
}

/// The workspace's folder (rootUri, else the first workspace folder) and
/// whether the client's workspace edits may create files.
static WorkspaceAccess workspaceOf(const json::Object &Init) {
  WorkspaceAccess W;
  std::optional<llvm::StringRef> Root = Init.getString("rootUri");
  if (!Root)
    if (const json::Array *Folders = Init.getArray("workspaceFolders"))
      if (!Folders->empty())
        if (const json::Object *F = Folders->front().getAsObject())
          Root = F->getString("uri");
  if (Root) {
    if (auto U = lsp::URIForFile::fromURI(*Root))
      W.Root = U->file().rtrim('/').str();
    else
      llvm::consumeError(U.takeError());
  }
  const json::Object *Caps = Init.getObject("capabilities");
  const json::Object *Ws = Caps ? Caps->getObject("workspace") : nullptr;
  const json::Object *Edit = Ws ? Ws->getObject("workspaceEdit") : nullptr;
  if (const json::Array *Ops =
          Edit ? Edit->getArray("resourceOperations") : nullptr)
    for (const json::Value &Op : *Ops)
      if (Op.getAsString() == "create")
        W.CanCreateFiles = true;
  return W;
}

void Server::onInitialize(const RawParams &P,
                          lsp::Callback<json::Value> Reply) {
  if (const json::Object *O = P.Value.getAsObject()) {
    if (const json::Value *Init = O->get("initializationOptions"))
      if (llvm::Error E = applyClientSettings(*Init)) {
        std::lock_guard<std::mutex> L(State);
        SettingsError = llvm::toString(std::move(E));
      }
    const json::Object *Caps = O->getObject("capabilities");
    const json::Object *Window = Caps ? Caps->getObject("window") : nullptr;
    WorkspaceAccess W = workspaceOf(*O);
    std::lock_guard<std::mutex> L(State);
    ProgressSupported =
        Window && Window->getBoolean("workDoneProgress").value_or(false);
    Workspace = std::move(W);
  }
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
  std::string Error;
  {
    std::lock_guard<std::mutex> L(State);
    Error = SettingsError;
  }
  if (!Error.empty())
    ShowMessage(json::Object{{"type", int(lsp::MessageType::Error)},
                             {"message", "cuda-roofline: " + Error}});
  requestProgressToken();
}

void Server::onShutdown(const lsp::NoParams &,
                        lsp::Callback<std::nullptr_t> Reply) {
  // What was asked for is finished (and published) first.
  Queue.waitIdle();
  Reply(nullptr);
}

void Server::onDidOpen(const lsp::DidOpenTextDocumentParams &P) {
  std::string Path = P.textDocument.uri.file().str();
  {
    std::lock_guard<std::mutex> L(State);
    Document &D = Docs[Path];
    D.Uri = P.textDocument.uri;
    D.Text = P.textDocument.text;
    D.Version = P.textDocument.version;
  }
  Queue.schedule(Path, std::chrono::milliseconds(0));
}

void Server::onDidChange(const lsp::DidChangeTextDocumentParams &P) {
  std::string Path = P.textDocument.uri.file().str();
  {
    std::lock_guard<std::mutex> L(State);
    auto It = Docs.find(Path);
    if (It == Docs.end())
      return;
    Document &D = It->second;
    // Whole-text changes (what the server asks for) and ranged ones alike.
    if (llvm::failed(lsp::TextDocumentContentChangeEvent::applyTo(
            P.contentChanges, D.Text)))
      lsp::Logger::error("cannot apply a change to {0}", D.Uri.file());
    D.Version = P.textDocument.version;
  }
  // Typing goes on: analyze once it pauses; the analysis of the version
  // before, if running, is stale and stops.
  Queue.schedule(Path, Opts.Debounce);
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
  std::string Path = U->file().str();
  {
    std::lock_guard<std::mutex> L(State);
    if (!Docs.count(Path))
      return;
  }
  Queue.schedule(Path, std::chrono::milliseconds(0));
}

void Server::onDidClose(const lsp::DidCloseTextDocumentParams &P) {
  std::string Path = P.textDocument.uri.file().str();
  Queue.cancel(Path);
  std::lock_guard<std::mutex> L(State);
  auto It = Docs.find(Path);
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
  std::vector<std::string> Paths;
  {
    std::lock_guard<std::mutex> L(State);
    for (auto &[Path, D] : Docs)
      Paths.push_back(Path);
  }
  for (const std::string &Path : Paths)
    Queue.schedule(Path, std::chrono::milliseconds(0));
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

void Server::analyze(const std::string &Path,
                     const std::atomic<bool> &Cancelled) {
  lsp::URIForFile Uri;
  std::string Text, Token, DatabaseDir;
  int64_t Version;
  LintSettings Now;
  {
    std::lock_guard<std::mutex> L(State);
    auto It = Docs.find(Path);
    if (It == Docs.end())
      return;
    Uri = It->second.Uri;
    Text = It->second.Text;
    Version = It->second.Version;
    Now = Settings;
    DatabaseDir = CompileCommandsDir;
    if (!ReadyTokens.empty()) {
      Token = ReadyTokens.front();
      ReadyTokens.erase(ReadyTokens.begin());
    }
  }
  std::string Name = llvm::sys::path::filename(Path).str();
  if (!Token.empty()) {
    std::lock_guard<std::mutex> W(transportWriteLock());
    Progress(
        json::Object{{"token", Token},
                     {"value", json::Object{{"kind", "begin"},
                                            {"title", "cuda-roofline"},
                                            {"message", "analyzing " + Name},
                                            {"cancellable", false}}}});
  }
  if (!Token.empty())
    requestProgressToken(); // for the next analysis
  auto Start = std::chrono::steady_clock::now();
  std::optional<FileReport> Report;
  std::string Error;
  AnalyzerOptions AO = Now.Analysis;
  AO.Contents = Text;
  std::string ClangDiagnostics;
  llvm::raw_string_ostream Diags(ClangDiagnostics);
  AO.Diagnostics = &Diags;
  auto DB = databaseFor(Path, DatabaseDir);
  // A crash in one analysis costs that analysis, not the session.
  llvm::CrashRecoveryContext CRC;
  bool Finished = CRC.RunSafely([&] {
    Analyzer A(Gpus, AO);
    auto R = A.analyzeFile(*DB, Path);
    if (!R) {
      Error = llvm::toString(R.takeError());
      return;
    }
    auto Policy = withConfigGlobs(*R, Now.Policy);
    if (!Policy) {
      Error = llvm::toString(Policy.takeError());
      return;
    }
    applyLintPolicy(*R, *Policy, &Text);
    Report = std::move(*R);
  });
  if (!Finished)
    Error = "the analysis crashed; the server goes on (please report this "
            "file)";
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (!Token.empty()) {
    std::lock_guard<std::mutex> W(transportWriteLock());
    Progress(json::Object{
        {"token", Token},
        {"value",
         json::Object{
             {"kind", "end"},
             {"message", (Cancelled ? "cancelled: " : "analyzed ") + Name}}}});
  }
  if (Cancelled) {
    lsp::Logger::info("analysis of {0} version {1} cancelled after {2:f2} s{3}",
                      Path, Version, Seconds,
                      CancelScope::stoppedEarly()
                          ? " (stopped early, at a limit check)"
                          : "");
    return;
  }
  if (!Error.empty() && !ClangDiagnostics.empty())
    lsp::Logger::info("clang on {0}:\n{1}", Path, ClangDiagnostics);
  std::lock_guard<std::mutex> L(State);
  auto It = Docs.find(Path);
  // Closed, or changed since: a newer analysis is due.
  if (It == Docs.end() || It->second.Version != Version)
    return;
  Document &D = It->second;
  D.Report = std::move(Report);
  D.Error = std::move(Error);
  D.AnalyzedText = std::move(Text);
  publish(D);
}

void Server::publish(Document &D) {
  std::string Main = D.Uri.file().str();
  std::map<std::string, std::vector<json::Value>> ByFile;
  if (D.Report)
    ByFile = diagnosticsOf(*D.Report, Main, D.AnalyzedText);
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
    std::lock_guard<std::mutex> W(transportWriteLock());
    PublishDiagnostics(std::move(Params));
  }
}

void Server::onHover(const lsp::TextDocumentPositionParams &P,
                     lsp::Callback<std::optional<lsp::Hover>> Reply) {
  Reply(fromLastAnalysis(P.textDocument.uri, std::optional<lsp::Hover>(),
                         [&](const std::string &Path, const Document &D) {
                           return hoverAt(*D.Report, Path, D.AnalyzedText,
                                          P.position);
                         }));
}

void Server::onDocumentSymbol(
    const lsp::DocumentSymbolParams &P,
    lsp::Callback<std::vector<lsp::DocumentSymbol>> Reply) {
  Reply(fromLastAnalysis(P.textDocument.uri, std::vector<lsp::DocumentSymbol>(),
                         [&](const std::string &Path, const Document &D) {
                           return symbolsOf(*D.Report, Path, D.AnalyzedText);
                         }));
}

void Server::onInlayHint(const lsp::InlayHintsParams &P,
                         lsp::Callback<json::Value> Reply) {
  Reply(fromLastAnalysis(P.textDocument.uri, json::Value(json::Array()),
                         [&](const std::string &Path, const Document &D) {
                           return inlayHintsOf(*D.Report, Path, D.AnalyzedText,
                                               Hints, P.range);
                         }));
}

void Server::onCodeAction(const lsp::CodeActionParams &P,
                          lsp::Callback<json::Value> Reply) {
  Reply(fromLastAnalysis(P.textDocument.uri, json::Value(json::Array()),
                         [&](const std::string &Path, const Document &D) {
                           return codeActionsAt(*D.Report, Path, D.AnalyzedText,
                                                D.Uri.uri().str(), P.range,
                                                Workspace);
                         }));
}
