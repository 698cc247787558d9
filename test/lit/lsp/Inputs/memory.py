"""memory.py SERVER FILE EDITS: opens FILE in the server, then sends EDITS
changes (alternately adding and removing a line, as typing does), waiting for
each version's diagnostics; prints the server's resident memory after the
first tenth of the edits and at the end, and whether it stayed within 16 MiB
plus 10% of the first reading."""
import os
import sys

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../tools")
)
from lsp_client import Client, open_params, published  # noqa: E402

server, path, edits = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(path).read()
uri = "file:///roofline-lsp-test/" + os.path.basename(path)
c = Client([server, "--debounce-ms=0"])
c.request("initialize", {"capabilities": {}})
c.notify("textDocument/didOpen", open_params(uri, text))
c.wait_for(published(uri, 1))
warm = None
for v in range(2, edits + 2):
    body = text + ("\n// typing\n" if v % 2 else "")
    c.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": v},
            "contentChanges": [{"text": body}],
        },
    )
    c.wait_for(published(uri, v))
    if v - 1 == max(1, edits // 10):
        warm = c.rss_mib()
end = c.rss_mib()
print("memory: after %d edits %.1f MiB" % (max(1, edits // 10), warm))
print("memory: after %d edits %.1f MiB" % (edits, end))
print("memory: %s" % ("bounded" if end <= warm * 1.10 + 16 else "GROWS"))
print("exit %d" % c.close())
