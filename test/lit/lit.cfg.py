# lit configuration for cuda-roofline end-to-end tests.
import os
import lit.formats
import lit.util

config.name = "cuda-roofline"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".cu", ".cuh"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.roofline_bin, "..", "test", "lit")

# A sanitizer build (ROOFLINE_SANITIZE, docs/robustness.md): every test runs
# with its options, and three tools run through the wrappers of
# test/CMakeLists.txt: cuda-roofline with a per-kernel time limit fit for
# the sanitizers' slowdown, clang++ and clang-tidy (which load the
# instrumented modules) with the sanitizer runtime preloaded. Feature 'asan'
# for REQUIRES / UNSUPPORTED lines.
sanitize = lit.util.pythonize_bool(config.roofline_sanitize)
tool_dirs = [config.llvm_tools_dir, config.roofline_bin]
roofline_dir = config.roofline_bin
module_hosts_dir = config.llvm_tools_dir
if sanitize:
    config.available_features.add("asan")
    for assignment in config.roofline_sanitizer_env.split(";"):
        name, _, value = assignment.partition("=")
        config.environment[name] = value
    roofline_dir = module_hosts_dir = config.roofline_sanitizer_wrappers
    tool_dirs.insert(0, config.roofline_sanitizer_wrappers)
    # Tests that bound the tool's wall time (stress/Inputs/run_stress.py:
    # 60 s) on inputs that take 5-9 s normally and 55-120 s under the
    # sanitizers (many_kernels: 300 kernels, 9 s, over 60 s under ASan with
    # the machine code's ptxas run); the normal run keeps them.
    config.excludes += [
        "long_kernel.test",
        "many_branches_crash.test",
        "many_kernels.test",
    ]

# Neovim for the editor tests (test/lit/editors/), from Debian's `neovim`.
import shutil

if shutil.which("nvim"):
    config.available_features.add("nvim")
# Emacs with eglot (built in from Emacs 29; Debian 12's `elpa-eglot` on Emacs
# 28), loaded the way the test's script loads it.
if shutil.which("emacs"):
    import subprocess

    try:
        probe = subprocess.run(
            [
                "emacs",
                "--batch",
                "-Q",
                "-l",
                os.path.join(
                    config.test_source_root, "editors", "Inputs", "eglot-lsp.el"
                ),
            ],
            env=dict(os.environ, ROOFLINE_EGLOT_PROBE="1"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
        )
        if probe.returncode == 0:
            config.available_features.add("emacs")
    except (OSError, subprocess.SubprocessError):
        pass
# `script` (util-linux) gives the progress test a terminal.
if shutil.which("script"):
    config.available_features.add("script")

config.environment["PATH"] = os.pathsep.join(
    tool_dirs + [config.environment.get("PATH", "")]
)
# Before %cuda-roofline, which is its prefix.
config.substitutions.append(
    ("%cuda-roofline-lsp", os.path.join(config.roofline_bin, "cuda-roofline-lsp"))
)
config.substitutions.append(
    ("%cuda-roofline", os.path.join(roofline_dir, "cuda-roofline"))
)
config.substitutions.append(("%kernels", os.path.join(config.roofline_src, "kernels")))
config.substitutions.append(("%src", config.roofline_src))
# The version, written once in CMakeLists.txt project().
config.substitutions.append(("%roofline-version", config.roofline_version))
config.environment["NVCC"] = os.path.join(config.cuda_path, "bin", "nvcc")
config.substitutions.append(("%nvcc", config.environment["NVCC"]))
config.substitutions.append(
    (
        "%expect-exit",
        "bash " + os.path.join(config.roofline_src, "test", "lit", "expect-exit.sh"),
    )
)
# The lint front-ends and the tools that load them.
config.substitutions.append(
    (
        "%tidy-module",
        os.path.join(config.roofline_bin, "..", "lib", "cuda-roofline-tidy.so"),
    )
)
config.substitutions.append(
    (
        "%roofline-plugin",
        os.path.join(config.roofline_bin, "..", "lib", "cuda-roofline-plugin.so"),
    )
)
config.substitutions.append(
    ("%clang-tidy", os.path.join(module_hosts_dir, "clang-tidy"))
)
config.substitutions.append(("%clangxx", os.path.join(module_hosts_dir, "clang++")))
config.substitutions.append(("%cuda-path", config.cuda_path))
# Node.js runs the VS Code extension's code (test/lit/editors/vscode.test);
# the build packages the extension as %vsix.
if shutil.which("node"):
    config.available_features.add("node")
config.substitutions.append(
    (
        "%vsix",
        os.path.join(
            config.roofline_bin, "..", "editors", "vscode", "cuda-roofline.vsix"
        ),
    )
)
