#!/usr/bin/env python3
"""Runs the hooks of .pre-commit-hooks.yaml on a small project (precommit.test).

  precommit_run.py --hooks .pre-commit-hooks.yaml --inputs DIR --work DIR
                   --tool PATH/cuda-roofline [--mode auto|pre-commit|entry]

Mode `pre-commit` (the default when `pre-commit` is on PATH): WORK/hooks is a
git repository holding a copy of the hooks file (committed), WORK/project a
git repository whose .pre-commit-config.yaml points `repo:` at WORK/hooks,
`rev:` at that commit, and `pre-commit run HOOK --all-files` runs there with
PRE_COMMIT_HOME=WORK/cache and HOME=WORK. Mode `entry`: each hook's `entry`
runs directly on the project's cuda files, as pre-commit would run it. Both
modes print the same lines, which the test checks:

  step N: HOOK on FILES: passed|failed
  FILE:LINE:COL: warning|error: ...     (the hook's diagnostics, sorted)

The project: kernels/strided.cu (sizes from an annotation) and
src/transpose.cu (sizes from the project's .cuda-roofline.yaml), both with
an uncoalesced access; then the first fixed, the second suppressed by NOLINT.
"""
import argparse
import os
import re
import shlex
import shutil
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

DIAG = re.compile(r"^\S.*:\d+:\d+: (warning|error|note): ")
CUDA_EXTENSIONS = (".cu", ".cuh")  # what identify tags `cuda`


def fail(msg):
    sys.stdout.flush()
    sys.exit("precommit_run.py: " + msg)


def run(cmd, cwd, env, check=True):
    proc = roofline_tools.run(cmd, cwd=cwd, env=env, stderr=subprocess.STDOUT)
    if check and proc.returncode != 0:
        fail("%s exited with %d:\n%s" % (" ".join(cmd), proc.returncode, proc.stdout))
    return proc


def load_hooks(path):
    """The hooks file as a list of dicts (PyYAML when there is one)."""
    text = open(path).read()
    try:
        import yaml

        return yaml.safe_load(text)
    except ImportError:
        pass
    hooks = []
    for line in text.splitlines():
        m = re.match(r"^(- )?\s*([a-z_]+):\s*(.*)$", line)
        if not m or line.lstrip().startswith("#"):
            continue
        if m.group(1):
            hooks.append({})
        value = m.group(3).strip()
        if value.startswith("'") and value.endswith("'"):
            value = value[1:-1]
        elif value.startswith("["):
            value = [v.strip() for v in value.strip("[]").split(",")]
        elif value in ("true", "false"):
            value = value == "true"
        hooks[-1][m.group(2)] = value
    return hooks


def clean_env(work, tool):
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GIT_", "PRE_COMMIT")) and k != "SKIP"
    }
    env.update(
        {
            "HOME": work,
            "PRE_COMMIT_HOME": os.path.join(work, "cache"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "PATH": os.path.dirname(os.path.abspath(tool))
            + os.pathsep
            + env.get("PATH", ""),
        }
    )
    return env


def git_repo(path, env):
    os.makedirs(path)
    run(["git", "init", "-q", "."], path, env)
    run(["git", "config", "user.name", "precommit test"], path, env)
    run(["git", "config", "user.email", "precommit@example.invalid"], path, env)
    run(["git", "config", "commit.gpgsign", "false"], path, env)


def diagnostics(output):
    """The hook's diagnostics, one block per warning/error with its notes,
    blocks sorted (pre-commit runs files in parallel, in shuffled order)."""
    blocks = []
    for line in output.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        if m.group(1) == "note" and blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return [line for block in sorted(blocks) for line in block]


class Runner:
    def __init__(self, args, env, hooks):
        self.args, self.env, self.hooks = args, env, hooks
        self.project = os.path.join(args.work, "project")
        self.step = 0

    def files(self):
        out = run(["git", "ls-files"], self.project, self.env).stdout.split()
        return sorted(f for f in out if f.endswith(CUDA_EXTENSIONS))

    def hook(self, hook_id):
        self.step += 1
        files = self.files()
        if self.args.mode == "pre-commit":
            proc = run(
                ["pre-commit", "run", hook_id, "--all-files", "--color=never"],
                self.project,
                self.env,
                check=False,
            )
            passed = proc.returncode == 0
            # pre-commit's own report of the hook.
            status = re.search(
                r"^%s\.*(Passed|Failed)$" % re.escape(self.hooks[hook_id]["name"]),
                proc.stdout,
                re.M,
            )
            if not status or (status.group(1) == "Passed") != passed:
                fail(
                    "unexpected pre-commit output (exit %d):\n%s"
                    % (proc.returncode, proc.stdout)
                )
            if not passed and "- hook id: %s" % hook_id not in proc.stdout:
                fail("no '- hook id' line:\n" + proc.stdout)
        else:
            entry = shlex.split(self.hooks[hook_id]["entry"])
            proc = run(entry + files, self.project, self.env, check=False)
            passed = proc.returncode == 0
        print(
            "step %d: %s on %s: %s"
            % (self.step, hook_id, " ".join(files), "passed" if passed else "failed")
        )
        for line in diagnostics(proc.stdout):
            print(line)
        sys.stdout.flush()

    def put(self, name, dest):
        path = os.path.join(self.project, dest)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(os.path.join(self.args.inputs, name), path)
        run(["git", "add", dest], self.project, self.env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hooks", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--mode", choices=["auto", "pre-commit", "entry"], default="auto")
    args = ap.parse_args()
    args.work = os.path.abspath(args.work)
    if args.mode == "auto":
        args.mode = "pre-commit" if shutil.which("pre-commit") else "entry"
    if os.path.exists(args.work):
        shutil.rmtree(args.work)
    os.makedirs(args.work)
    env = clean_env(args.work, args.tool)

    hooks = {h["id"]: h for h in load_hooks(args.hooks)}
    print("hooks: " + ", ".join(sorted(hooks)))
    for h in hooks.values():
        if (
            h.get("language") != "system"
            or h.get("types_or") != ["cuda"]
            or h.get("pass_filenames", True) is not True
        ):
            fail(
                "hook %s: want language system, types_or [cuda], pass_filenames"
                % h["id"]
            )
    print("mode: " + args.mode)

    if args.mode == "pre-commit":
        repo = os.path.join(args.work, "hooks")
        git_repo(repo, env)
        shutil.copyfile(args.hooks, os.path.join(repo, ".pre-commit-hooks.yaml"))
        run(["git", "add", ".pre-commit-hooks.yaml"], repo, env)
        run(["git", "commit", "-q", "-m", "hooks"], repo, env)
        rev = run(["git", "rev-parse", "HEAD"], repo, env).stdout.strip()

    r = Runner(args, env, hooks)
    git_repo(r.project, env)
    if args.mode == "pre-commit":
        with open(os.path.join(r.project, ".pre-commit-config.yaml"), "w") as f:
            f.write(
                "repos:\n"
                "  - repo: %s\n"
                "    rev: %s\n"
                "    hooks:\n"
                "      - id: cuda-roofline\n"
                "      - id: cuda-roofline-warn\n" % (repo, rev)
            )
        run(["git", "add", ".pre-commit-config.yaml"], r.project, env)
    r.put("precommit_roofline.yaml", ".cuda-roofline.yaml")
    r.put("precommit_strided.cu", "kernels/strided.cu")
    r.put("precommit_transpose.cu", "src/transpose.cu")

    r.hook("cuda-roofline")  # fails on the two findings
    r.hook("cuda-roofline-warn")  # passes, and shows them
    r.put("precommit_strided_fixed.cu", "kernels/strided.cu")
    r.put("precommit_transpose_nolint.cu", "src/transpose.cu")
    r.hook("cuda-roofline")  # passes, nothing printed
    r.hook("cuda-roofline-warn")


if __name__ == "__main__":
    main()
