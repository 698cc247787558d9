"""feed.py TRANSCRIPT N SECONDS: writes the delimited transcript to stdout
as a client would send it over time: the first N messages, a pause of
SECONDS, then the rest (so that the server is busy with what the first ones
asked when the others arrive)."""
import sys
import time

parts = open(sys.argv[1]).read().split("\n// -----\n")
n, pause = int(sys.argv[2]), float(sys.argv[3])
for i, p in enumerate(parts):
    sys.stdout.write(("\n// -----\n" if i else "") + p)
    sys.stdout.flush()
    if i + 1 == n:
        time.sleep(pause)
sys.stdout.write("\n")
