"""A minimal LSP client over the standard protocol (Content-Length headers),
for tests and benchmarks that need to wait for answers: starts the server,
sends messages, reads until a given message comes."""
import json
import os
import subprocess
import time


class Client:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("the server closed its output")
            line = line.strip()
            if not line:
                if length is not None:
                    break
                continue
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == i and "method" not in m:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, pred):
        while True:
            m = self.read()
            if pred(m):
                return m

    def rss_mib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
        return 0.0

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
        except (EOFError, BrokenPipeError):
            pass
        return self.proc.wait(timeout=60)


def open_params(uri, text, version=1):
    return {
        "textDocument": {
            "uri": uri,
            "languageId": "cuda",
            "version": version,
            "text": text,
        }
    }


def published(uri, version):
    return lambda m: (
        m.get("method") == "textDocument/publishDiagnostics"
        and m["params"]["uri"] == uri
        and m["params"].get("version") == version
    )
