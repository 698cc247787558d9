// @ts-check
// VS Code's client for cuda-roofline-lsp. It starts the server, keeps it told
// of every open CUDA file (the buffer's text, on each change), and shows what
// the server answers: diagnostics, hovers, inlay hints, code actions and
// document symbols. The numbers are the server's; nothing is computed here.
//
// The client is written against VS Code's API alone (no npm packages), so
// the .vsix builds without network access (tools/build-vsix.py).
'use strict';

const vscode = require('vscode');
const { LspConnection } = require('./lsp-connection');

const SELECTOR = [
  { scheme: 'file', language: 'cuda-cpp' },
  { scheme: 'file', pattern: '**/*.{cu,cuh}' },
];

/** @param {vscode.TextDocument} doc */
function isCuda(doc) {
  return (
    doc.uri.scheme === 'file' &&
    (doc.languageId === 'cuda-cpp' || /\.(cu|cuh)$/i.test(doc.fileName))
  );
}

// LSP numbers severities from 1 (error), VS Code from 0.
const SEVERITY = [
  undefined,
  vscode.DiagnosticSeverity.Error,
  vscode.DiagnosticSeverity.Warning,
  vscode.DiagnosticSeverity.Information,
  vscode.DiagnosticSeverity.Hint,
];

/** @param {any} r an LSP range */
function toRange(r) {
  return new vscode.Range(
    r.start.line,
    r.start.character,
    r.end.line,
    r.end.character
  );
}

/** @param {vscode.Range} r */
function fromRange(r) {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

/** @param {any} d an LSP diagnostic */
function toDiagnostic(d) {
  const diag = new vscode.Diagnostic(
    toRange(d.range),
    d.message,
    SEVERITY[d.severity || 1]
  );
  diag.source = d.source || 'cuda-roofline';
  if (d.code !== undefined)
    diag.code =
      d.codeDescription && d.codeDescription.href
        ? { value: d.code, target: vscode.Uri.parse(d.codeDescription.href) }
        : d.code;
  if (Array.isArray(d.relatedInformation))
    diag.relatedInformation = d.relatedInformation.map(
      (/** @type {any} */ ri) =>
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(
            vscode.Uri.parse(ri.location.uri),
            toRange(ri.location.range)
          ),
          ri.message
        )
    );
  return diag;
}

/** @param {any} edit an LSP WorkspaceEdit */
function toWorkspaceEdit(edit) {
  const out = new vscode.WorkspaceEdit();
  for (const [uri, edits] of Object.entries(edit.changes || {}))
    for (const e of /** @type {any[]} */ (edits))
      out.replace(vscode.Uri.parse(uri), toRange(e.range), e.newText);
  for (const change of edit.documentChanges || []) {
    // The action that writes a new .cuda-roofline.yaml creates it first.
    if (change.kind === 'create') {
      out.createFile(vscode.Uri.parse(change.uri), change.options || {});
      continue;
    }
    for (const e of change.edits || [])
      out.replace(
        vscode.Uri.parse(change.textDocument.uri),
        toRange(e.range),
        e.newText
      );
  }
  return out;
}

/** @param {any} s an LSP DocumentSymbol */
function toSymbol(s) {
  // VS Code's SymbolKind is the protocol's minus one.
  const sym = new vscode.DocumentSymbol(
    s.name,
    s.detail || '',
    (s.kind || 12) - 1,
    toRange(s.range),
    toRange(s.selectionRange || s.range)
  );
  sym.children = (s.children || []).map(toSymbol);
  return sym;
}

/** The settings the server reads, from the extension's configuration. */
function serverSettings() {
  const c = vscode.workspace.getConfiguration('cudaRoofline');
  /** @type {Record<string, any>} */
  const s = Object.assign({}, c.get('settings') || {});
  const gpu = c.get('gpu');
  if (gpu) s.Gpu = gpu;
  const db = c.get('compilationDatabasePath');
  if (db) s.compilationDatabasePath = db;
  s.inlayHints = {
    sectors: !!c.get('inlayHints.sectors'),
    trips: !!c.get('inlayHints.trips'),
    kernels: !!c.get('inlayHints.kernels'),
  };
  return { cudaRoofline: s };
}

class Client {
  /** @param {vscode.ExtensionContext} context */
  constructor(context) {
    this.context = context;
    this.output = vscode.window.createOutputChannel('CUDA Roofline');
    this.diagnostics = vscode.languages.createDiagnosticCollection('cuda-roofline');
    /** The server's own diagnostics per file, sent back with code action requests. */
    /** @type {Map<string, any[]>} */
    this.lspDiagnostics = new Map();
    this.hintsChanged = new vscode.EventEmitter();
    /** @type {Map<string, Function>} */
    this.progress = new Map();
    /** @type {LspConnection | null} */
    this.connection = null;
    /** @type {Promise<void> | null} */
    this.ready = null;
    this.stopping = false;
  }

  /** @param {string} line */
  log(line) {
    this.output.appendLine(line);
  }

  start() {
    if (this.connection) return this.ready;
    const c = vscode.workspace.getConfiguration('cudaRoofline');
    const command = c.get('serverPath') || 'cuda-roofline-lsp';
    const args = c.get('allowUnsafeFlags') ? ['--allow-unsafe-flags'] : [];
    const folder = (vscode.workspace.workspaceFolders || [])[0];
    this.log(`starting ${command} ${args.join(' ')}`);
    const conn = new LspConnection(String(command), args, {
      cwd: folder ? folder.uri.fsPath : undefined,
      log: (l) => this.log(l),
    });
    this.connection = conn;
    this.stopping = false;
    conn.onExit((code, why) => this.onServerExit(conn, code, why));
    conn.onNotification('textDocument/publishDiagnostics', (/** @type {any} */ p) => {
      const uri = vscode.Uri.parse(p.uri);
      this.lspDiagnostics.set(uri.toString(), p.diagnostics);
      this.diagnostics.set(uri, p.diagnostics.map(toDiagnostic));
      // A new analysis: the hints VS Code holds for the file are stale.
      this.hintsChanged.fire(undefined);
    });
    conn.onNotification('window/showMessage', (/** @type {any} */ p) => {
      if (p.type === 1) vscode.window.showErrorMessage(`cuda-roofline: ${p.message}`);
      else if (p.type === 2) vscode.window.showWarningMessage(`cuda-roofline: ${p.message}`);
      else vscode.window.showInformationMessage(`cuda-roofline: ${p.message}`);
    });
    conn.onNotification('window/logMessage', (/** @type {any} */ p) => this.log(p.message));
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onNotification('$/progress', (/** @type {any} */ p) => this.onProgress(p));

    const root = folder ? folder.uri.toString() : null;
    this.ready = conn
      .request('initialize', {
        processId: process.pid,
        clientInfo: { name: 'vscode-cuda-roofline' },
        rootUri: root,
        workspaceFolders: folder ? [{ uri: root, name: folder.name }] : null,
        initializationOptions: serverSettings(),
        capabilities: {
          window: { workDoneProgress: true },
          workspace: {
            workspaceEdit: { documentChanges: true, resourceOperations: ['create'] },
          },
          textDocument: {
            synchronization: { didSave: true },
            publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true },
            hover: { contentFormat: ['markdown', 'plaintext'] },
            inlayHint: {},
            codeAction: {
              codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } },
            },
            documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          },
        },
      })
      .then(() => {
        conn.notify('initialized', {});
        for (const doc of vscode.workspace.textDocuments) this.didOpen(doc);
      })
      .catch((err) => this.log(`initialize failed: ${err.message}`));
    return this.ready;
  }

  /** @param {LspConnection} conn @param {number | null} code @param {string} why */
  onServerExit(conn, code, why) {
    if (this.connection !== conn) return;
    this.connection = null;
    this.ready = null;
    for (const done of this.progress.values()) done();
    this.progress.clear();
    this.diagnostics.clear();
    this.lspDiagnostics.clear();
    if (this.stopping) return;
    this.log(`the server stopped: ${why}`);
    const hint =
      code === null && /ENOENT/.test(why)
        ? ' Set cudaRoofline.serverPath to the cuda-roofline-lsp program.'
        : '';
    vscode.window
      .showErrorMessage(`cuda-roofline-lsp stopped: ${why}.${hint}`, 'Restart', 'Show log')
      .then((choice) => {
        if (choice === 'Restart') this.restart();
        if (choice === 'Show log') this.output.show();
      });
  }

  async stop() {
    const conn = this.connection;
    if (!conn) return;
    this.stopping = true;
    await conn.stop();
  }

  async restart() {
    await this.stop();
    return this.start();
  }

  /** @param {any} p */
  onProgress(p) {
    const value = p.value || {};
    if (value.kind === 'begin') {
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: value.title || 'cuda-roofline' },
        () => new Promise((resolve) => this.progress.set(String(p.token), resolve))
      );
    } else if (value.kind === 'end') {
      const done = this.progress.get(String(p.token));
      this.progress.delete(String(p.token));
      if (done) done();
    }
  }

  /** @param {vscode.TextDocument} doc */
  didOpen(doc) {
    if (!this.connection || !isCuda(doc)) return;
    this.connection.notify('textDocument/didOpen', {
      textDocument: {
        uri: doc.uri.toString(),
        languageId: 'cuda',
        version: doc.version,
        text: doc.getText(),
      },
    });
  }

  /** @param {vscode.TextDocumentChangeEvent} e */
  didChange(e) {
    if (!this.connection || !isCuda(e.document) || e.contentChanges.length === 0) return;
    // The server takes whole texts (TextDocumentSyncKind.Full).
    this.connection.notify('textDocument/didChange', {
      textDocument: { uri: e.document.uri.toString(), version: e.document.version },
      contentChanges: [{ text: e.document.getText() }],
    });
  }

  /** @param {vscode.TextDocument} doc */
  didSave(doc) {
    if (!this.connection || !isCuda(doc)) return;
    this.connection.notify('textDocument/didSave', {
      textDocument: { uri: doc.uri.toString() },
    });
  }

  /** @param {vscode.TextDocument} doc */
  didClose(doc) {
    if (!isCuda(doc)) return;
    this.diagnostics.delete(doc.uri);
    this.lspDiagnostics.delete(doc.uri.toString());
    if (this.connection)
      this.connection.notify('textDocument/didClose', {
        textDocument: { uri: doc.uri.toString() },
      });
  }

  configurationChanged() {
    if (this.connection)
      this.connection.notify('workspace/didChangeConfiguration', {
        settings: serverSettings(),
      });
  }

  /**
   * A request answered from the server's last analysis; null while the
   * server is down, so VS Code shows nothing rather than an error.
   * @param {string} method @param {any} params
   */
  async ask(method, params) {
    if (!this.connection) return null;
    await this.ready;
    if (!this.connection) return null;
    try {
      return await this.connection.request(method, params);
    } catch (err) {
      this.log(String(err.message || err));
      return null;
    }
  }

  /** @param {vscode.TextDocument} doc @param {vscode.Position} pos */
  async hover(doc, pos) {
    const h = await this.ask('textDocument/hover', {
      textDocument: { uri: doc.uri.toString() },
      position: { line: pos.line, character: pos.character },
    });
    if (!h || !h.contents) return null;
    const c = h.contents;
    const text =
      typeof c === 'string'
        ? new vscode.MarkdownString(c)
        : c.kind === 'plaintext'
        ? new vscode.MarkdownString().appendCodeblock(c.value, 'text')
        : new vscode.MarkdownString(c.value);
    return new vscode.Hover(text, h.range ? toRange(h.range) : undefined);
  }

  /** @param {vscode.TextDocument} doc @param {vscode.Range} range */
  async inlayHints(doc, range) {
    const hints = await this.ask('textDocument/inlayHint', {
      textDocument: { uri: doc.uri.toString() },
      range: fromRange(range),
    });
    return (hints || []).map((/** @type {any} */ h) => {
      const label =
        typeof h.label === 'string'
          ? h.label
          : h.label.map((/** @type {any} */ part) => part.value).join('');
      const hint = new vscode.InlayHint(
        new vscode.Position(h.position.line, h.position.character),
        label,
        h.kind === 2 ? vscode.InlayHintKind.Parameter : vscode.InlayHintKind.Type
      );
      hint.paddingLeft = !!h.paddingLeft;
      hint.paddingRight = !!h.paddingRight;
      if (h.tooltip) hint.tooltip = typeof h.tooltip === 'string' ? h.tooltip : h.tooltip.value;
      return hint;
    });
  }

  /** @param {vscode.TextDocument} doc @param {vscode.Range} range */
  async codeActions(doc, range) {
    // The server matches actions to its own diagnostics: send back those
    // that touch the range, as it published them.
    const mine = (this.lspDiagnostics.get(doc.uri.toString()) || []).filter((d) =>
      toRange(d.range).intersection(range)
    );
    const actions = await this.ask('textDocument/codeAction', {
      textDocument: { uri: doc.uri.toString() },
      range: fromRange(range),
      context: { diagnostics: mine },
    });
    return (actions || []).map((/** @type {any} */ a) => {
      const action = new vscode.CodeAction(a.title, vscode.CodeActionKind.QuickFix);
      if (a.edit) action.edit = toWorkspaceEdit(a.edit);
      if (a.isPreferred) action.isPreferred = true;
      return action;
    });
  }

  /** @param {vscode.TextDocument} doc */
  async symbols(doc) {
    const syms = await this.ask('textDocument/documentSymbol', {
      textDocument: { uri: doc.uri.toString() },
    });
    return (syms || []).map(toSymbol);
  }
}

/** @type {Client | null} */
let client = null;

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  const c = new Client(context);
  client = c;
  const subs = context.subscriptions;
  subs.push(
    c.output,
    c.diagnostics,
    vscode.workspace.onDidOpenTextDocument((d) => c.didOpen(d)),
    vscode.workspace.onDidChangeTextDocument((e) => c.didChange(e)),
    vscode.workspace.onDidSaveTextDocument((d) => c.didSave(d)),
    vscode.workspace.onDidCloseTextDocument((d) => c.didClose(d)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The program and its trust flag are the command line: restart.
      if (
        e.affectsConfiguration('cudaRoofline.serverPath') ||
        e.affectsConfiguration('cudaRoofline.allowUnsafeFlags')
      )
        c.restart();
      else if (e.affectsConfiguration('cudaRoofline')) c.configurationChanged();
    }),
    vscode.languages.registerHoverProvider(SELECTOR, {
      provideHover: (doc, pos) => c.hover(doc, pos),
    }),
    vscode.languages.registerInlayHintsProvider(SELECTOR, {
      onDidChangeInlayHints: c.hintsChanged.event,
      provideInlayHints: (doc, range) => c.inlayHints(doc, range),
    }),
    vscode.languages.registerCodeActionsProvider(
      SELECTOR,
      { provideCodeActions: (doc, range) => c.codeActions(doc, range) },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }
    ),
    vscode.languages.registerDocumentSymbolProvider(SELECTOR, {
      provideDocumentSymbols: (doc) => c.symbols(doc),
    }),
    vscode.commands.registerCommand('cudaRoofline.restartServer', () => c.restart()),
    vscode.commands.registerCommand('cudaRoofline.showLog', () => c.output.show())
  );
  // An untrusted workspace's compile database and config choose the flags
  // the server compiles with: start only once the user trusts it.
  if (vscode.workspace.isTrusted) return c.start();
  subs.push(vscode.workspace.onDidGrantWorkspaceTrust(() => c.start()));
  return undefined;
}

function deactivate() {
  const c = client;
  client = null;
  return c ? c.stop() : undefined;
}

module.exports = { activate, deactivate };
