"""progress.py TRANSCRIPT: the transcript with a client that shows work-done
progress: window.workDoneProgress in the initialize capabilities, an
`initialized` notification, and the client's reply to the server's first
token request (id cuda-roofline-1) before the rest."""
import json
import sys

parts = open(sys.argv[1]).read().split("\n// -----\n")
init = json.loads(parts[0])
init["params"]["capabilities"]["window"] = {"workDoneProgress": True}
extra = [
    {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    {"jsonrpc": "2.0", "id": "cuda-roofline-1", "result": None},
]
out = [json.dumps(init)] + [json.dumps(m) for m in extra] + parts[1:]
print("\n// -----\n".join(out))
