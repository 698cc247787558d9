#!/usr/bin/env bash
# Usage: expect-exit.sh CODE COMMAND...  -- runs COMMAND and succeeds only if
# it exits with exactly CODE (lit's `not` accepts any non-zero status).
want=$1; shift
"$@"
got=$?
if [ "$got" -ne "$want" ]; then
  echo "expect-exit: '$*' exited with $got, expected $want" >&2
  exit 1
fi
exit 0
