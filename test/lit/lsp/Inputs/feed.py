"""feed.py TRANSCRIPT N SECONDS: writes the delimited transcript to stdout
as a client would send it over time: the first N messages, a pause of
SECONDS, then the rest (so that the server is busy with what the first ones
asked when the others arrive). Each message is followed at once by its
delimiter, which is what tells the server the message is whole."""
import sys
import time

parts = open(sys.argv[1]).read().split("\n// -----\n")
n, pause = int(sys.argv[2]), float(sys.argv[3])
for i, p in enumerate(parts):
    last = i + 1 == len(parts)
    sys.stdout.write(p + ("\n" if last else "\n// -----\n"))
    sys.stdout.flush()
    if i + 1 == n:
        time.sleep(pause)
