"""transcript.py FILE URI [MESSAGE...]: a delimited JSON-RPC transcript for
cuda-roofline-lsp --input-style=delimited on stdout: initialize (with the
initializationOptions of $INIT_OPTIONS, JSON, if set, and the other
parameters of $INIT_PARAMS, a JSON object, if set), didOpen of URI with
FILE's text, each MESSAGE (JSON, or @PATH for a file that holds one; @URI@
in it is replaced by URI), shutdown and exit."""
import json
import os
import sys

path, uri, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
init = {"capabilities": {}}
if os.environ.get("INIT_OPTIONS"):
    init["initializationOptions"] = json.loads(os.environ["INIT_OPTIONS"])
if os.environ.get("INIT_PARAMS"):
    init.update(json.loads(os.environ["INIT_PARAMS"]))
with open(path) as f:
    text = f.read()
msgs = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init},
    {
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": {
            "textDocument": {
                "uri": uri,
                "languageId": "cuda",
                "version": 1,
                "text": text,
            }
        },
    },
]
for m in extra:
    if m.startswith("@"):
        with open(m[1:]) as f:
            m = f.read()
    msgs.append(json.loads(m.replace("@URI@", uri)))
msgs += [
    {"jsonrpc": "2.0", "id": 99, "method": "shutdown"},
    {"jsonrpc": "2.0", "method": "exit"},
]
print("\n// -----\n".join(json.dumps(m) for m in msgs))
