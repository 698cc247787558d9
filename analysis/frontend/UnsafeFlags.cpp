//===- UnsafeFlags.cpp ----------------------------------------------------===//

#include "UnsafeFlags.h"

#include "llvm/ADT/StringRef.h"

using namespace roofline;
using llvm::StringRef;

/// Flags that name code to load or a program or directory of programs the
/// driver would use, joined (-fplugin=X) or separate (-B X) alike.
static const char *const Prefixes[] = {
    "-fplugin",          "-fpass-plugin", "-B",        "--prefix",
    "-ccc-install-dir",  "-ccc-gcc-name", "--config",  "--config-system-dir",
    "--config-user-dir", "-fuse-ld",      "--ld-path", "--gcc-install-dir",
    "--gcc-toolchain",
};

/// cc1 options (behind -Xclang or -Xclang=) that load or run a plugin.
static bool unsafeCc1(StringRef A) {
  return A.starts_with("-load") || A == "-plugin" ||
         A.starts_with("-add-plugin") || A.starts_with("-fplugin") ||
         A.starts_with("-fpass-plugin");
}

std::optional<std::string>
roofline::unsafeFlag(llvm::ArrayRef<std::string> Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    std::string Next = I + 1 < Args.size() ? " " + Args[I + 1] : "";
    if (A == "-Xclang" && I + 1 < Args.size() && unsafeCc1(Args[I + 1]))
      return A.str() + Next;
    if (A.consume_front("-Xclang=") && unsafeCc1(A))
      return Args[I];
    // The cc1 form, in a command written for cc1 or through -cc1.
    if (A == "-load" || A == "-plugin" || A.starts_with("-add-plugin"))
      return Args[I] + Next;
    for (const char *P : Prefixes) {
      StringRef Flag(P);
      if (!A.starts_with(Flag))
        continue;
      StringRef Rest = A.substr(Flag.size());
      // -B and --prefix join their value; the others take "=" or a space.
      if (Rest.empty())
        return Args[I] + Next;
      if (Rest.front() == '=' || Flag == "-B")
        return Args[I];
    }
  }
  return std::nullopt;
}
