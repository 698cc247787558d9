"""apply-edit.py SERVER_OUTPUT ID TITLE_PART: applies to disk the workspace
edit of the code action whose title contains TITLE_PART, in the reply with
id ID of a cuda-roofline-lsp transcript's output (as an editor would): file
creations and text insertions, of `changes` or `documentChanges`."""
import json
import re
import sys
from urllib.parse import unquote, urlparse

output, want_id, title_part = sys.argv[1], int(sys.argv[2]), sys.argv[3]
reply = None
for line in open(output):
    m = re.search(r"\{.*\}", line)
    if m:
        msg = json.loads(m.group(0))
        if msg.get("id") == want_id:
            reply = msg
actions = [a for a in reply["result"] if title_part in a["title"]]
if len(actions) != 1:
    sys.exit(f"apply-edit: {len(actions)} actions match '{title_part}'")
edit = actions[0]["edit"]


def path_of(uri):
    return unquote(urlparse(uri).path)


def insert(path, edits):
    lines = open(path).read().split("\n")
    for e in sorted(
        edits,
        key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
        reverse=True,
    ):
        start, end = e["range"]["start"], e["range"]["end"]
        assert start == end, "only insertions"
        l = lines[start["line"]]
        lines[start["line"]] = (
            l[: start["character"]] + e["newText"] + l[start["character"] :]
        )
    open(path, "w").write("\n".join(lines))


for uri, edits in edit.get("changes", {}).items():
    insert(path_of(uri), edits)
for op in edit.get("documentChanges", []):
    if op.get("kind") == "create":
        open(path_of(op["uri"]), "a").close()
    else:
        insert(path_of(op["textDocument"]["uri"]), op["edits"])
print(f"apply-edit: {actions[0]['title']}")
