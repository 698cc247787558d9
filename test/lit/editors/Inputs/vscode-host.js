// Runs the VS Code extension (editors/vscode, as unpacked from the built
// .vsix) in Node.js against a stand-in for the `vscode` module: the parts of
// VS Code's extension API the extension uses, recording what it is given.
// VS Code itself cannot be downloaded here; what this checks is the
// extension's own code against the real server: that it starts the server,
// keeps it told of the buffer, and turns each answer into VS Code's types.
//
// Usage: node vscode-host.js EXTENSION_DIR FILE [--missing-server | --workspace-action]
// Environment: ROOFLINE_LSP (the server). Prints "vscode-host: ..." lines;
// exits 1 after "vscode-host: FAILED: ..." at the first failure.
'use strict';

const fs = require('fs');
const path = require('path');
const Module = require('module');

const [extensionDir, file, mode] = process.argv.slice(2);

function out(msg) {
  process.stdout.write(`vscode-host: ${msg}\n`);
}

function fail(msg) {
  out(`FAILED: ${msg}`);
  process.exit(1);
}

// ---- The stand-in API ------------------------------------------------------

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
  isBefore(o) {
    return this.line < o.line || (this.line === o.line && this.character < o.character);
  }
}

class Range {
  constructor(a, b, c, d) {
    this.start = a instanceof Position ? a : new Position(a, b);
    this.end = a instanceof Position ? b : new Position(c, d);
  }
  intersection(o) {
    if (this.end.isBefore(o.start) || o.end.isBefore(this.start)) return undefined;
    return this;
  }
}

class Uri {
  constructor(scheme, fsPath) {
    this.scheme = scheme;
    this.fsPath = fsPath;
  }
  static file(p) {
    return new Uri('file', p);
  }
  static parse(s) {
    const m = /^([a-z]+):\/\/(.*)$/.exec(s);
    if (!m) return new Uri('unknown', s);
    return new Uri(m[1], m[1] === 'file' ? decodeURIComponent(m[2]) : `//${m[2]}`);
  }
  toString() {
    return this.scheme === 'file'
      ? `file://${this.fsPath.split('/').map(encodeURIComponent).join('/')}`
      : `${this.scheme}:${this.fsPath}`;
  }
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (fn) => {
      this.listeners.push(fn);
      return { dispose() {} };
    };
  }
  fire(v) {
    for (const fn of this.listeners) fn(v);
  }
}

class MarkdownString {
  constructor(value = '') {
    this.value = value;
  }
  appendCodeblock(code, lang) {
    this.value += '\n```' + lang + '\n' + code + '\n```\n';
    return this;
  }
}

class WorkspaceEdit {
  constructor() {
    this.edits = [];
  }
  replace(uri, range, newText) {
    this.edits.push({ uri, range, newText });
  }
  createFile(uri, options) {
    this.edits.push({ create: uri, options });
  }
}

const events = {
  open: new EventEmitter(),
  change: new EventEmitter(),
  save: new EventEmitter(),
  close: new EventEmitter(),
  config: new EventEmitter(),
  trust: new EventEmitter(),
};
const providers = {};
const collections = [];
const messages = [];
const progress = { begun: 0, ended: 0 };
const config = {
  serverPath: mode === '--missing-server' ? '/nonexistent/cuda-roofline-lsp' : process.env.ROOFLINE_LSP,
  allowUnsafeFlags: false,
  gpu: '',
  compilationDatabasePath: '',
  settings: {},
  'inlayHints.sectors': true,
  'inlayHints.trips': true,
  'inlayHints.kernels': true,
};
const documents = [];

function register(kind) {
  return (selector, provider) => {
    providers[kind] = provider;
    return { dispose() {} };
  };
}

function message(level) {
  return (text) => {
    messages.push(`${level}: ${text}`);
    return Promise.resolve(undefined);
  };
}

const vscode = {
  Position,
  Range,
  Uri,
  EventEmitter,
  MarkdownString,
  WorkspaceEdit,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  InlayHintKind: { Type: 1, Parameter: 2 },
  CodeActionKind: { QuickFix: 'quickfix' },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  Diagnostic: class {
    constructor(range, message, severity) {
      Object.assign(this, { range, message, severity });
    }
  },
  DiagnosticRelatedInformation: class {
    constructor(location, message) {
      Object.assign(this, { location, message });
    }
  },
  Location: class {
    constructor(uri, range) {
      Object.assign(this, { uri, range });
    }
  },
  Hover: class {
    constructor(contents, range) {
      Object.assign(this, { contents, range });
    }
  },
  InlayHint: class {
    constructor(position, label, kind) {
      Object.assign(this, { position, label, kind });
    }
  },
  CodeAction: class {
    constructor(title, kind) {
      Object.assign(this, { title, kind });
    }
  },
  DocumentSymbol: class {
    constructor(name, detail, kind, range, selectionRange) {
      Object.assign(this, { name, detail, kind, range, selectionRange, children: [] });
    }
  },
  window: {
    createOutputChannel: () => ({
      lines: [],
      appendLine(l) {
        this.lines.push(l);
      },
      show() {},
      dispose() {},
    }),
    showErrorMessage: message('error'),
    showWarningMessage: message('warning'),
    showInformationMessage: message('info'),
    withProgress: (opts, task) => {
      progress.begun++;
      return task({ report() {} }).then(() => progress.ended++);
    },
  },
  workspace: {
    isTrusted: true,
    workspaceFolders: [{ uri: Uri.file(process.env.ROOFLINE_WORKSPACE || path.dirname(file)), name: 'w' }],
    textDocuments: documents,
    getConfiguration: () => ({ get: (key) => config[key] }),
    onDidOpenTextDocument: events.open.event,
    onDidChangeTextDocument: events.change.event,
    onDidSaveTextDocument: events.save.event,
    onDidCloseTextDocument: events.close.event,
    onDidChangeConfiguration: events.config.event,
    onDidGrantWorkspaceTrust: events.trust.event,
  },
  languages: {
    createDiagnosticCollection: () => {
      const c = {
        byUri: new Map(),
        set(uri, diags) {
          this.byUri.set(uri.toString(), diags);
        },
        delete(uri) {
          this.byUri.delete(uri.toString());
        },
        clear() {
          this.byUri.clear();
        },
        dispose() {},
      };
      collections.push(c);
      return c;
    },
    registerHoverProvider: register('hover'),
    registerInlayHintsProvider: register('inlayHints'),
    registerCodeActionsProvider: register('codeActions'),
    registerDocumentSymbolProvider: register('symbols'),
  },
  commands: { registerCommand: () => ({ dispose() {} }) },
};

const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

// ---- The session -----------------------------------------------------------

function makeDocument(text, version) {
  return {
    uri: Uri.file(file),
    fileName: file,
    languageId: 'cuda-cpp',
    version,
    getText: () => text,
  };
}

// Polls `predicate` (after `step`, if given) until it is truthy.
async function waitFor(what, predicate, ms = 120000, step = async () => {}) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await step();
    const v = predicate();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  fail(`${what} within ${ms / 1000} s`);
}

function uncoalesced() {
  const diags = collections[0] ? collections[0].byUri.get(Uri.file(file).toString()) : undefined;
  if (!diags) return undefined;
  return diags
    .filter((d) => d.code && d.code.value === 'roofline-uncoalesced-access')
    .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

const SEVERITY_NAMES = ['error', 'warning', 'information', 'hint'];

async function main() {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
  const ext = require(path.resolve(extensionDir, manifest.main));
  let doc = makeDocument(fs.readFileSync(file, 'utf8'), 1);
  // VS Code activates on the language of a document already open.
  documents.push(doc);
  const context = { subscriptions: [] };

  if (mode === '--workspace-action') {
    // A kernel without sizes (line 26 of the file): the action that writes
    // .cuda-roofline.yaml at the workspace's root, applied as VS Code would.
    await ext.activate(context);
    await waitFor('diagnostics', () => collections[0].byUri.get(Uri.file(file).toString()));
    const actions = await providers.codeActions.provideCodeActions(doc, new Range(25, 0, 25, 0));
    for (const a of actions) out(`action "${a.title}"`);
    const workspace = actions.find((a) => /for the workspace/.test(a.title));
    if (!workspace) fail('no workspace action');
    for (const e of workspace.edit.edits) {
      if (e.create) {
        if (!(e.options.ignoreIfExists && fs.existsSync(e.create.fsPath))) fs.writeFileSync(e.create.fsPath, '');
        out(`created ${path.basename(e.create.fsPath)}`);
        continue;
      }
      const lines = fs.readFileSync(e.uri.fsPath, 'utf8').split('\n');
      const l = lines[e.range.start.line];
      lines[e.range.start.line] = l.slice(0, e.range.start.character) + e.newText + l.slice(e.range.start.character);
      fs.writeFileSync(e.uri.fsPath, lines.join('\n'));
    }
    await ext.deactivate();
    return;
  }

  if (mode === '--missing-server') {
    await ext.activate(context);
    await waitFor('an error message', () => messages.length > 0, 10000);
    out(messages[0]);
    await ext.deactivate();
    return;
  }

  await ext.activate(context);
  out(`activated: ${Object.keys(providers).sort().join(', ')}`);

  // 1. Diagnostics, from the didOpen sent once the server is initialized.
  const found = await waitFor('no uncoalesced-access diagnostic', () => {
    const u = uncoalesced();
    return u && u.length > 0 ? u : undefined;
  });
  const d = found[0];
  out(
    `diagnostic ${d.code.value} at ${d.range.start.line + 1}:${d.range.start.character + 1}` +
      ` (${SEVERITY_NAMES[d.severity]}): ${d.message}`
  );
  out(`  link ${path.basename(d.code.target.fsPath)}`);
  for (const ri of d.relatedInformation || []) out(`  related: ${ri.message}`);

  // 2. Hover on the kernel's name (line 8, column 19).
  const hover = await providers.hover.provideHover(doc, new Position(7, 18));
  if (!hover) fail('no hover on the kernel');
  const first = hover.contents.value.split('\n')[0];
  out(`hover ${first}`);
  for (const line of hover.contents.value.split('\n'))
    if (/^  (flops fp32|global load bytes)/.test(line)) out(`hover ${line.replace(/\s+/g, ' ').trim()}`);

  // 3. Inlay hints over the whole file.
  const hints = await providers.inlayHints.provideInlayHints(doc, new Range(0, 0, 1000, 0));
  for (const h of hints) out(`hint ${h.position.line + 1}:${h.position.character + 1} ${h.label}`);

  // 4. Code actions on the diagnostic.
  const actions = await providers.codeActions.provideCodeActions(doc, d.range);
  for (const a of actions) {
    const e = a.edit.edits[0];
    out(`action "${a.title}": line ${e.range.start.line + 1} ${JSON.stringify(e.newText)}`);
  }

  // 5. Document symbols.
  const symbols = await providers.symbols.provideDocumentSymbols(doc);
  for (const s of symbols) out(`symbol ${s.name} (kind ${s.kind}): ${s.detail}`);

  // 6. Another GPU from the settings: the open file is analyzed again for it.
  config.gpu = 'h200';
  events.config.fire({ affectsConfiguration: (s) => s === 'cudaRoofline' || s === 'cudaRoofline.gpu' });
  let retargeted;
  await waitFor('no hover for the H200 after the settings changed', () => retargeted, 120000, async () => {
    const h = await providers.hover.provideHover(doc, new Position(7, 18));
    if (h && /H200/.test(h.contents.value)) retargeted = h.contents.value.split('\n')[0];
  });
  out(`after the settings changed: ${retargeted}`);

  // 7. Thread x indexes the column, y the row: the edit clears the warnings.
  const text = doc
    .getText()
    .replace('int row = blockIdx.x * BX + threadIdx.x;', 'int row = blockIdx.y * BY + threadIdx.y;')
    .replace('int col = blockIdx.y * BY + threadIdx.y;', 'int col = blockIdx.x * BX + threadIdx.x;');
  doc = makeDocument(text, 2);
  documents[0] = doc;
  events.change.fire({ document: doc, contentChanges: [{ text }] });
  await waitFor('the uncoalesced-access diagnostics to go after the edit', () => {
    const u = uncoalesced();
    return u && u.length === 0;
  });
  out('after the edit: 0 uncoalesced-access diagnostics');

  // 8. Each analysis's work-done progress began and ended.
  await waitFor('every progress to end', () => progress.begun > 0 && progress.ended === progress.begun);
  out(`progress: ${progress.begun > 0 ? 'shown' : 'none'}, all ended`);

  // 9. Deactivation stops the server (shutdown, exit) without an error.
  await ext.deactivate();
  out(`stopped; messages: ${messages.length === 0 ? 'none' : messages.join(' | ')}`);
}

main().then(
  () => process.exit(0),
  (e) => fail(e.stack || String(e))
);
