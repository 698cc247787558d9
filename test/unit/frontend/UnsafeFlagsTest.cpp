//===- UnsafeFlagsTest.cpp - Flags that would load or run code ------------===//
//
// Part of cuda-roofline.
//
// unsafeFlag names the first flag of a command that brings code into the
// analysis, joined or separate, through -Xclang or in cc1's own spelling,
// and lets the flags that only read headers or set macros through.
//
//===----------------------------------------------------------------------===//

#include "UnsafeFlags.h"

#include "gtest/gtest.h"

using namespace roofline;

static std::optional<std::string> check(std::vector<std::string> Args) {
  return unsafeFlag(Args);
}

TEST(UnsafeFlags, Plugins) {
  EXPECT_EQ(check({"clang++", "-fplugin=/x/p.so", "-c", "k.cu"}),
            "-fplugin=/x/p.so");
  EXPECT_EQ(check({"clang++", "-fpass-plugin=p.so"}), "-fpass-plugin=p.so");
  EXPECT_EQ(check({"clang++", "-Xclang", "-load", "-Xclang", "p.so"}),
            "-Xclang -load");
  EXPECT_EQ(check({"clang++", "-Xclang", "-plugin", "-Xclang", "p"}),
            "-Xclang -plugin");
  EXPECT_EQ(check({"clang++", "-Xclang", "-add-plugin", "-Xclang", "p"}),
            "-Xclang -add-plugin");
  EXPECT_EQ(check({"clang++", "-Xclang=-load"}), "-Xclang=-load");
  EXPECT_EQ(check({"clang", "-cc1", "-load", "p.so"}), "-load p.so");
}

TEST(UnsafeFlags, ProgramsAndConfigs) {
  EXPECT_EQ(check({"clang++", "-B/evil/bin"}), "-B/evil/bin");
  EXPECT_EQ(check({"clang++", "-B", "/evil/bin"}), "-B /evil/bin");
  EXPECT_EQ(check({"clang++", "--prefix=/evil"}), "--prefix=/evil");
  EXPECT_EQ(check({"clang++", "-ccc-install-dir", "/evil"}),
            "-ccc-install-dir /evil");
  EXPECT_EQ(check({"clang++", "--config=x.cfg"}), "--config=x.cfg");
  EXPECT_EQ(check({"clang++", "--config", "x.cfg"}), "--config x.cfg");
  EXPECT_EQ(check({"clang++", "-fuse-ld=/evil/ld"}), "-fuse-ld=/evil/ld");
  EXPECT_EQ(check({"clang++", "--gcc-toolchain=/evil"}),
            "--gcc-toolchain=/evil");
}

TEST(UnsafeFlags, HarmlessFlagsPass) {
  EXPECT_EQ(check({"clang++", "-O3", "-DBLOCK=256", "-I", "include", "-isystem",
                   "/usr/include", "-include", "pre.h", "--cuda-gpu-arch=sm_90",
                   "-Xclang", "-fno-rtti", "-fplugin-arg-x-y", "-c", "k.cu"}),
            std::nullopt);
  // --configure-me is not --config; but -Bxyz is -B with the folder xyz
  // (clang joins -B's value).
  EXPECT_EQ(check({"clang++", "--configure-me"}), std::nullopt);
  EXPECT_EQ(check({"clang++", "-Bxyz"}), std::string("-Bxyz"));
  EXPECT_EQ(check({}), std::nullopt);
}
