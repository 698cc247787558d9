// @ts-check
// JSON-RPC 2.0 over a child process's stdio, framed as the Language Server
// Protocol frames it (Content-Length headers). Nothing here knows VS Code, so
// the extension's tests can drive it from plain Node.js.
'use strict';

const { spawn } = require('child_process');

class LspConnection {
  /**
   * @param {string} command the server program
   * @param {string[]} args its arguments
   * @param {{cwd?: string, log?: (line: string) => void}} options
   */
  constructor(command, args, options = {}) {
    this.log = options.log || (() => {});
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function, method: string}>} */
    this.pending = new Map();
    /** @type {Map<string, Function>} */
    this.notificationHandlers = new Map();
    /** @type {Map<string, Function>} */
    this.requestHandlers = new Map();
    /** @type {((code: number | null, why: string) => void)[]} */
    this.exitHandlers = [];
    this.buffer = Buffer.alloc(0);
    this.closed = false;

    this.child = spawn(command, args, {
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk) => this.onData(chunk));
    this.child.stderr.on('data', (chunk) =>
      String(chunk)
        .split('\n')
        .filter((l) => l.length > 0)
        .forEach((l) => this.log(l))
    );
    // A program that cannot be started reports 'error' and never 'exit'.
    this.child.on('error', (err) => this.onClosed(null, err.message));
    this.child.on('exit', (code, signal) =>
      this.onClosed(
        code,
        signal ? `ended by signal ${signal}` : `exited with status ${code}`
      )
    );
    this.child.stdin.on('error', () => {});
  }

  /** @param {(code: number | null, why: string) => void} handler */
  onExit(handler) {
    this.exitHandlers.push(handler);
  }

  /** @param {string} method @param {Function} handler */
  onNotification(method, handler) {
    this.notificationHandlers.set(method, handler);
  }

  /** A request the server sends the client; the handler's value is the result. */
  onRequest(method, handler) {
    this.requestHandlers.set(method, handler);
  }

  /** @param {string} method @param {any} params @returns {Promise<any>} */
  request(method, params) {
    if (this.closed)
      return Promise.reject(new Error(`the server is not running (${method})`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** @param {string} method @param {any} params */
  notify(method, params) {
    if (!this.closed) this.send({ jsonrpc: '2.0', method, params });
  }

  /** Asks the server to stop (shutdown, exit) and waits for it, at most `ms`. */
  async stop(ms = 5000) {
    if (this.closed) return;
    const ended = new Promise((resolve) => this.onExit(() => resolve(null)));
    const timer = new Promise((resolve) => setTimeout(resolve, ms));
    try {
      await Promise.race([this.request('shutdown', null), timer]);
      this.notify('exit', null);
    } catch (e) {
      // Already gone: nothing to stop.
    }
    await Promise.race([ended, timer]);
    if (!this.closed) this.child.kill();
  }

  /** @param {object} message */
  send(message) {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  /** @param {Buffer} chunk */
  onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /Content-Length:\s*(\d+)/i.exec(header);
      if (!match) {
        // Not a frame this client can read: drop the header and go on, so a
        // stray line from the server never stops the connection.
        this.log(`ignored a message without Content-Length: ${header}`);
        this.buffer = this.buffer.subarray(headerEnd + 4);
        continue;
      }
      const length = Number(match[1]);
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString('utf8');
      this.buffer = this.buffer.subarray(start + length);
      let message;
      try {
        message = JSON.parse(body);
      } catch (e) {
        this.log(`ignored a message that is not JSON: ${body}`);
        continue;
      }
      this.dispatch(message);
    }
  }

  /** @param {any} message */
  dispatch(message) {
    if (message.id !== undefined && message.method === undefined) {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.error)
        waiter.reject(
          new Error(`${waiter.method}: ${message.error.message || 'error'}`)
        );
      else waiter.resolve(message.result);
      return;
    }
    if (message.id !== undefined) {
      const handler = this.requestHandlers.get(message.method);
      Promise.resolve()
        .then(() => (handler ? handler(message.params) : null))
        .then(
          (result) =>
            this.send({ jsonrpc: '2.0', id: message.id, result: result ?? null }),
          (err) =>
            this.send({
              jsonrpc: '2.0',
              id: message.id,
              error: { code: -32603, message: String(err) },
            })
        );
      return;
    }
    const handler = this.notificationHandlers.get(message.method);
    if (handler) handler(message.params);
  }

  /** @param {number | null} code @param {string} why */
  onClosed(code, why) {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.pending.values())
      waiter.reject(new Error(`the server stopped (${why})`));
    this.pending.clear();
    for (const handler of this.exitHandlers) handler(code, why);
  }
}

module.exports = { LspConnection };
