#!/usr/bin/env python3
"""usage: unreadable.py PATH -- CMD...

Runs CMD (stdout and stderr together, then "exit: N") while PATH, a file or
a directory, has mode 000, and restores its mode afterwards.

Root reads a file whatever its mode, so as root CMD runs as nobody (uid and
gid 65534, no supplementary groups), for whom the mode applies; the
directories on the way and CMD itself must be open to others. Where that
cannot be done (no CAP_SETUID, or CMD cannot run as nobody), a file PATH is
replaced by an empty directory of the same name for the run, which cannot be
read either ("Is a directory" instead of "Permission denied"); a directory
PATH then cannot be tested and the script fails.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(
    0,
    os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "tools"
    ),
)
import roofline_tools  # noqa: E402

path, sep, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
assert sep == "--", __doc__

as_nobody = {}
replace = False
if os.geteuid() == 0:
    nobody = {"user": 65534, "group": 65534, "extra_groups": []}
    try:
        probe = subprocess.run([cmd[0], "--version"], capture_output=True, **nobody)
        if probe.returncode == 0:
            as_nobody = nobody
    except (OSError, subprocess.SubprocessError):
        pass
    if not as_nobody:
        if os.path.isdir(path):
            sys.exit(
                f"unreadable.py: cannot run '{cmd[0]}' as nobody, and "
                f"'{path}' is a directory"
            )
        replace = True

mode = os.stat(path).st_mode & 0o7777
if replace:
    os.rename(path, path + ".unreadable")
    os.mkdir(path)
else:
    os.chmod(path, 0)
try:
    p = roofline_tools.run(cmd, text=False, stderr=subprocess.STDOUT, **as_nobody)
finally:
    if replace:
        os.rmdir(path)
        os.rename(path + ".unreadable", path)
    else:
        os.chmod(path, mode)
sys.stdout.buffer.write(p.stdout)
print(f"exit: {p.returncode}")
