//===- LaunchSpec.cpp -----------------------------------------------------===//

#include "LaunchSpec.h"

#include "llvm/ADT/SmallVector.h"

using namespace roofline;
using llvm::StringRef;

static llvm::Error bad(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

static bool parseDims(StringRef Text, Dim3 &Out) {
  llvm::SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return false;
  for (unsigned I = 0; I < Parts.size(); ++I) {
    int64_t V;
    if (Parts[I].trim().getAsInteger(10, V) || V <= 0)
      return false;
    Out.V[I] = V;
  }
  return true;
}

llvm::Expected<KernelLaunch> roofline::parseLaunchOverride(StringRef Text) {
  const char *Form = "expected KERNEL=GX[,GY[,GZ]]/BX[,BY[,BZ]][/SMEM]";
  // The kernel part may contain '=' only inside template arguments; split at
  // the last '=' outside angle brackets.
  int Depth = 0;
  size_t Eq = StringRef::npos;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '<')
      ++Depth;
    else if (Text[I] == '>')
      --Depth;
    else if (Text[I] == '=' && Depth == 0)
      Eq = I;
  }
  if (Eq == StringRef::npos || Eq == 0)
    return bad("malformed --launch '" + Text + "': " + Form);
  KernelLaunch L;
  L.Source = LaunchSource::Flag;
  L.Loc.File = "--launch";
  L.Text = Text.trim().str();
  L.Kernel = Text.substr(0, Eq).trim().str();
  StringRef K = L.Kernel;
  size_t Lt = K.find('<');
  if (Lt != StringRef::npos) {
    if (!K.ends_with(">"))
      return bad("malformed --launch '" + Text +
                 "': template arguments must end with '>'");
    L.PlainName = K.substr(0, Lt).trim().str();
    L.TemplateArgs = K.substr(Lt + 1, K.size() - Lt - 2).trim().str();
  } else {
    L.PlainName = L.Kernel;
  }
  llvm::SmallVector<StringRef, 3> Parts;
  Text.substr(Eq + 1).split(Parts, '/');
  Dim3 Grid, Block;
  if (Parts.size() < 2 || Parts.size() > 3 || !parseDims(Parts[0], Grid) ||
      !parseDims(Parts[1], Block))
    return bad("malformed --launch '" + Text + "': " + Form +
               " with positive integers");
  L.Grid = Grid;
  L.Block = Block;
  if (Parts.size() == 3 &&
      (Parts[2].trim().getAsInteger(10, L.SharedBytes) || L.SharedBytes < 0))
    return bad("malformed --launch '" + Text +
               "': SMEM must be a non-negative integer");
  return L;
}

llvm::Expected<std::pair<std::string, int64_t>>
roofline::parseParam(StringRef Text) {
  auto [Name, Value] = Text.split('=');
  Name = Name.trim();
  Value = Value.trim();
  if (Name.empty() || !Text.contains('='))
    return bad("malformed --param '" + Text + "': expected NAME=VALUE");
  bool StartsWithDigit = isdigit(static_cast<unsigned char>(Name[0]));
  for (char C : Name)
    if (StartsWithDigit ||
        !(isalnum(static_cast<unsigned char>(C)) || C == '_'))
      return bad("malformed --param '" + Text + "': '" + Name +
                 "' is not an identifier");
  auto V = parseParamValue(Value);
  if (!V)
    return bad("malformed --param '" + Text + "': '" + Value +
               "' is not an integer or null");
  return std::make_pair(Name.str(), *V);
}

std::optional<int64_t> roofline::parseParamValue(StringRef Value) {
  Value = Value.trim();
  // The spellings of a null pointer in CUDA sources; a null pointer is
  // address 0, as in C.
  if (Value == "null" || Value == "nullptr" || Value == "NULL")
    return 0;
  int64_t V;
  bool Hex = Value.starts_with_insensitive("0x");
  if (Hex ? Value.drop_front(2).getAsInteger(16, V) : Value.getAsInteger(10, V))
    return std::nullopt;
  return V;
}

std::string Dim3::str() const {
  return "(" + std::to_string(V[0]) + "," + std::to_string(V[1]) + "," +
         std::to_string(V[2]) + ")";
}

std::string roofline::dimText(const std::optional<Dim3> &D) {
  return D ? D->str() : "?";
}

std::string roofline::launchLimitError(const Dim3 &Grid, const Dim3 &Block) {
  auto Txt = [](const Dim3 &D) { return D.str(); };
  for (int64_t V : Block.V)
    if (V <= 0)
      return "block " + Txt(Block) + " has no threads";
  for (int64_t V : Grid.V)
    if (V < 0)
      return "grid " + Txt(Grid) + " is negative";
  if (Block.V[0] > 1024 || Block.V[1] > 1024 || Block.V[2] > 64 ||
      Block.count() > 1024)
    return "block " + Txt(Block) +
           " exceeds the 1024-thread block limit "
           "(x, y <= 1024, z <= 64): the launch fails";
  if (Grid.V[0] > 2147483647 || Grid.V[1] > 65535 || Grid.V[2] > 65535)
    return "grid " + Txt(Grid) +
           " exceeds the grid limits (x < 2^31, "
           "y, z <= 65535): the launch fails";
  return "";
}

const std::vector<int64_t> &roofline::rooflineSweepSizes() {
  static const std::vector<int64_t> Sizes = [] {
    std::vector<int64_t> S;
    for (int64_t V = 16; V <= 4096; V *= 2) {
      S.push_back(V);
      if (V < 4096)
        S.push_back(V + V / 2);
    }
    return S;
  }();
  return Sizes;
}

const char *roofline::launchSourceName(LaunchSource S) {
  switch (S) {
  case LaunchSource::None:
    return "none";
  case LaunchSource::Call:
    return "call";
  case LaunchSource::Flag:
    return "flag";
  case LaunchSource::Annotation:
    return "annotation";
  case LaunchSource::Config:
    return "config";
  }
  return "none";
}
