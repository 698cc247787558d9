# lit configuration for cuda-roofline end-to-end tests.
import os
import lit.formats

config.name = "cuda-roofline"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".cu", ".cuh"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.roofline_bin, "..", "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.roofline_bin, config.environment.get("PATH", "")])
config.substitutions.append(("%cuda-roofline", os.path.join(config.roofline_bin, "cuda-roofline")))
config.substitutions.append(("%kernels", os.path.join(config.roofline_src, "kernels")))
config.substitutions.append(("%src", config.roofline_src))
config.environment["NVCC"] = os.path.join(config.cuda_path, "bin", "nvcc")
config.substitutions.append(("%expect-exit", "bash " + os.path.join(config.roofline_src, "test", "lit", "expect-exit.sh")))
# The lint front-ends and the tools that load them.
config.substitutions.append(("%tidy-module", os.path.join(config.roofline_bin, "..", "lib", "cuda-roofline-tidy.so")))
config.substitutions.append(("%roofline-plugin", os.path.join(config.roofline_bin, "..", "lib", "cuda-roofline-plugin.so")))
config.substitutions.append(("%clang-tidy", os.path.join(config.llvm_tools_dir, "clang-tidy")))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%cuda-path", config.cuda_path))
