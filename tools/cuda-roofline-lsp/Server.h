//===- Server.h - The language server's requests and documents -*- C++ -*-===//
//
// cuda-roofline as an editor sees it: documents opened, changed, saved and
// closed; each version analyzed by the library's Analyzer from the editor's
// buffer (not the file on disk) with the same lint policy as the CLI; its
// findings published as diagnostics, its numbers shown on hover and its
// kernels listed as document symbols. Everything shown is formatted from the
// FileReport (analysis/report): the server computes nothing itself.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LSP_SERVER_H
#define CUDA_ROOFLINE_LSP_SERVER_H

#include "AnalysisQueue.h"
#include "GpuDatabase.h"
#include "LintOptions.h"
#include "Report.h"
#include "ReportViews.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct ServerOptions {
  /// The command line's options (--gpu, --cuda-path, ...), before the
  /// client's settings.
  LintSettings Settings;
  /// --compile-commands-dir: the compile_commands.json to use; empty:
  /// searched upward from each file (then none: the file alone).
  std::string CompileCommandsDir;
  /// How long after an edit the file is analyzed (a newer edit restarts it).
  std::chrono::milliseconds Debounce{300};
  /// Analyze on the protocol's thread, in message order (tests).
  bool Sync = false;
};

/// A JSON value as a request's parameters (the methods whose parameters
/// llvm/Support/LSP has no type for).
struct RawParams {
  llvm::json::Value Value = nullptr;
};
bool fromJSON(const llvm::json::Value &V, RawParams &R, llvm::json::Path P);

class Server {
public:
  Server(const GpuDatabase &Gpus, ServerOptions Opts,
         llvm::lsp::JSONTransport &Transport);

  /// Serves until the client says exit (or the input ends).
  llvm::Error run();

private:
  struct Document {
    llvm::lsp::URIForFile Uri;
    /// What the editor has now.
    std::string Text;
    int64_t Version = 0;
    /// The last analysis (of AnalyzedText), or why there is none: what the
    /// requests answer from while a newer version is analyzed.
    std::optional<FileReport> Report;
    std::string Error;
    std::string AnalyzedText;
    /// Files the last publication gave diagnostics (to clear them).
    std::vector<std::string> Published;
  };

  void onInitialize(const RawParams &P, llvm::lsp::Callback<llvm::json::Value>);
  void onInitialized(const llvm::lsp::InitializedParams &);
  void onShutdown(const llvm::lsp::NoParams &,
                  llvm::lsp::Callback<std::nullptr_t>);
  void onDidOpen(const llvm::lsp::DidOpenTextDocumentParams &P);
  void onDidChange(const llvm::lsp::DidChangeTextDocumentParams &P);
  void onDidSave(const RawParams &P);
  void onDidClose(const llvm::lsp::DidCloseTextDocumentParams &P);
  void onDidChangeConfiguration(const RawParams &P);
  void onCancelRequest(const RawParams &P);
  void onHover(const llvm::lsp::TextDocumentPositionParams &P,
               llvm::lsp::Callback<std::optional<llvm::lsp::Hover>>);
  void onInlayHint(const llvm::lsp::InlayHintsParams &P,
                   llvm::lsp::Callback<llvm::json::Value>);
  void onCodeAction(const llvm::lsp::CodeActionParams &P,
                    llvm::lsp::Callback<llvm::json::Value>);
  void
  onDocumentSymbol(const llvm::lsp::DocumentSymbolParams &P,
                   llvm::lsp::Callback<std::vector<llvm::lsp::DocumentSymbol>>);

  /// What View makes of the last analysis of the document at Uri (with
  /// State held), or Empty while it has none.
  template <typename Result, typename ViewT>
  Result fromLastAnalysis(const llvm::lsp::URIForFile &Uri, Result Empty,
                          ViewT View) {
    std::lock_guard<std::mutex> L(State);
    auto It = Docs.find(Uri.file().str());
    if (It == Docs.end() || !It->second.Report)
      return Empty;
    return View(It->first, It->second);
  }

  /// Reads the client's settings ({"cudaRoofline": {KEY: VALUE}} or
  /// {KEY: VALUE}, KEY as in the clang-tidy options: Gpu, Params, ...; and
  /// the server's own inlayHints and compilationDatabasePath) over the
  /// command line's; an error names the bad setting.
  llvm::Error applyClientSettings(const llvm::json::Value &V);
  /// The queue's work: analyzes the current version of the document at
  /// Path and publishes it, unless a newer one makes it stale.
  void analyze(const std::string &Path, const std::atomic<bool> &Cancelled);
  /// With State held.
  void publish(Document &D);
  /// work-done progress: asks the client for the next token.
  void requestProgressToken();

  const GpuDatabase &Gpus;
  ServerOptions Opts;
  llvm::lsp::JSONTransport &Transport;
  llvm::lsp::MessageHandler Handler;
  llvm::lsp::OutgoingNotification<llvm::json::Value> PublishDiagnostics;
  llvm::lsp::OutgoingNotification<llvm::json::Value> ShowMessage;
  llvm::lsp::OutgoingNotification<llvm::json::Value> Progress;
  llvm::lsp::OutgoingRequest<llvm::json::Value> CreateProgress;

  /// Guards what both threads touch: the documents, the settings and the
  /// progress tokens.
  std::mutex State;
  /// The command line's settings with the client's over them.
  LintSettings Settings;
  std::string SettingsError;
  HintKinds Hints; ///< The client's "inlayHints" setting.
  /// --compile-commands-dir, or the client's compilationDatabasePath.
  std::string CompileCommandsDir;
  std::map<std::string, Document> Docs; ///< By file path.
  /// The client shows work-done progress; tokens it has created, unused.
  bool ProgressSupported = false;
  /// The workspace's folder and whether the client creates files in edits
  /// (for the code action that writes .cuda-roofline.yaml).
  WorkspaceAccess Workspace;
  unsigned NextToken = 1;
  std::vector<std::string> ReadyTokens;

  /// Last: its thread stops before the rest goes.
  AnalysisQueue Queue;
};

} // namespace roofline

#endif
