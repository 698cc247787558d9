//===- Config.cpp ---------------------------------------------------------===//

#include "Config.h"
#include "OptionTable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"

using namespace roofline;

namespace {
/// Any YAML node, kept as its kind: extra-args must be a list of strings,
/// and a mistake there deserves a message naming the key rather than
/// YAML's "not a sequence".
struct AnyNode {
  llvm::yaml::NodeKind Kind = llvm::yaml::NodeKind::Scalar;
  std::string Scalar;
  std::vector<AnyNode> Items;
  struct Fields {
    std::vector<AnyNode> Values;
  } Map;
};

/// A params value: an integer, or null for a pointer parameter.
struct ParamValue {
  int64_t V = 0;
};

struct ConfigDoc {
  std::map<std::string, ParamValue> Params;
  std::vector<std::string> Launches;
  /// The other options of the table the file accepts (gpu, checks, the
  /// thresholds, the limits, ...), by OptionId, as written.
  std::vector<std::optional<std::string>> Scalars =
      std::vector<std::optional<std::string>>(optionTable().size());
  std::optional<AnyNode> ExtraArgs;
};
} // namespace

LLVM_YAML_IS_SEQUENCE_VECTOR(AnyNode)

namespace llvm::yaml {
template <> struct ScalarTraits<ParamValue> {
  static void output(const ParamValue &P, void *, raw_ostream &OS) {
    OS << P.V;
  }
  static StringRef input(StringRef Scalar, void *, ParamValue &P) {
    // YAML's own null (`~`) too: `bias: null` reads as the user means it.
    if (Scalar == "~" || Scalar == "null" || Scalar == "nullptr" ||
        Scalar == "NULL") {
      P.V = 0;
      return StringRef();
    }
    // Integers as YAML reads them (0x10 and octal 010 included), with its
    // message for a bad one.
    return ScalarTraits<int64_t>::input(Scalar, nullptr, P.V);
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};
template <> struct CustomMappingTraits<std::map<std::string, ParamValue>> {
  static void inputOne(IO &Io, StringRef Key,
                       std::map<std::string, ParamValue> &V) {
    Io.mapRequired(Key.str().c_str(), V[Key.str()]);
  }
  static void output(IO &Io, std::map<std::string, ParamValue> &V) {
    for (auto &KV : V)
      Io.mapRequired(KV.first.c_str(), KV.second);
  }
};
template <> struct PolymorphicTraits<AnyNode> {
  static NodeKind getKind(const AnyNode &N) { return N.Kind; }
  static std::string &getAsScalar(AnyNode &N) {
    N.Kind = NodeKind::Scalar;
    return N.Scalar;
  }
  static AnyNode::Fields &getAsMap(AnyNode &N) {
    N.Kind = NodeKind::Map;
    return N.Map;
  }
  static std::vector<AnyNode> &getAsSequence(AnyNode &N) {
    N.Kind = NodeKind::Sequence;
    return N.Items;
  }
};
template <> struct CustomMappingTraits<AnyNode::Fields> {
  static void inputOne(IO &Io, StringRef Key, AnyNode::Fields &F) {
    F.Values.emplace_back();
    Io.mapRequired(Key.str().c_str(), F.Values.back());
  }
  static void output(IO &, AnyNode::Fields &) {}
};
template <> struct MappingTraits<ConfigDoc> {
  // The keys of the option table, in its order, then extra-args (the
  // file's own: clang arguments).
  static void mapping(IO &Io, ConfigDoc &D) {
    for (const roofline::OptionSpec &O : roofline::optionTable()) {
      if (!O.acceptedBy(roofline::FrontEnd::Config))
        continue;
      if (O.Kind == roofline::OptionKind::Params)
        Io.mapOptional(O.ConfigKey, D.Params);
      else if (O.Kind == roofline::OptionKind::Launches)
        Io.mapOptional(O.ConfigKey, D.Launches);
      else
        Io.mapOptional(O.ConfigKey, D.Scalars[unsigned(O.Id)]);
    }
    Io.mapOptional("extra-args", D.ExtraArgs);
  }
};
} // namespace llvm::yaml

static llvm::Error fileError(const std::string &File, unsigned Line,
                             const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 File + ":" + std::to_string(Line) + ": " +
                                     Msg);
}

llvm::Expected<SourceSettings>
roofline::readAnnotations(const std::string &File,
                          const std::string *Contents) {
  SourceSettings S;
  S.Origin = File;
  std::unique_ptr<llvm::MemoryBuffer> Disk;
  if (!Contents) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return S; // Missing files are reported by the compiler step.
    Disk = std::move(*Buf);
  }
  llvm::StringRef Text =
      Contents ? llvm::StringRef(*Contents) : Disk->getBuffer();
  unsigned LineNo = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    ++LineNo;
    size_t Pos = Line.find("cuda-roofline:");
    if (Pos == llvm::StringRef::npos)
      continue;
    // Only comments carry annotations: a line comment before the marker,
    // or a block comment (or its `*` continuation) that the line opens with.
    llvm::StringRef Before = Line.substr(0, Pos);
    llvm::StringRef Lead = Before.ltrim();
    if (!Before.contains("//") && !Lead.starts_with("/*") &&
        !Lead.starts_with("*"))
      continue;
    llvm::StringRef Body = Line.substr(Pos + strlen("cuda-roofline:")).trim();
    Body = Body.split("*/").first.trim();
    auto [Verb, Arg] = Body.split(' ');
    Arg = Arg.trim();
    SourceLoc Loc{File, LineNo, unsigned(Pos + 1)};
    if (Verb == "param") {
      auto P = parseParam(Arg);
      if (!P)
        return fileError(File, LineNo, llvm::toString(P.takeError()));
      S.Params[P->first] = P->second;
    } else if (Verb == "launch") {
      auto L = parseLaunchOverride(Arg);
      if (!L)
        return fileError(File, LineNo, llvm::toString(L.takeError()));
      L->Source = LaunchSource::Annotation;
      L->Loc = Loc;
      S.Launches.push_back(std::move(*L));
    } else if (Verb == "gpu") {
      S.Gpu = Arg.str();
    } else {
      return fileError(File, LineNo,
                       "unknown cuda-roofline annotation '" + Verb +
                           "' (expected param, launch or gpu)");
    }
  }
  return S;
}

llvm::Expected<SourceSettings>
roofline::readConfigFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(Buf.getError(),
                                   "cannot read config file '" + Path +
                                       "': " + Buf.getError().message());
  ConfigDoc Doc;
  // Named buffer: YAML errors print with the file name and position.
  llvm::yaml::Input In((*Buf)->getMemBufferRef());
  In >> Doc;
  if (In.error())
    return llvm::createStringError(In.error(), "malformed config " + Path);
  SourceSettings S;
  S.Origin = Path;
  for (auto &[Name, Value] : Doc.Params) {
    bool Ok = !Name.empty() && !isdigit(static_cast<unsigned char>(Name[0]));
    for (char C : Name)
      Ok &= isalnum(static_cast<unsigned char>(C)) || C == '_';
    if (!Ok)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     Path + ": params: '" + Name +
                                         "' is not an identifier");
  }
  for (auto &[Name, Value] : Doc.Params)
    S.Params[Name] = Value.V;
  // The GPU and the check globs have their own precedence; the rest are
  // set as the option table says (lint/LintOptions.h).
  for (const OptionSpec &O : optionTable()) {
    const std::optional<std::string> &Value = Doc.Scalars[unsigned(O.Id)];
    if (!Value)
      continue;
    if (O.Id == OptionId::Gpu)
      S.Gpu = Value;
    else if (O.Id == OptionId::Checks)
      S.Checks = Value;
    else if (O.Id == OptionId::WarningsAsErrors)
      S.WarningsAsErrors = Value;
    else
      S.Options.push_back({O.ConfigKey, *Value});
  }
  if (Doc.ExtraArgs) {
    const AnyNode &List = *Doc.ExtraArgs;
    auto Bad = [&](const llvm::Twine &Why) {
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          Path + ": extra-args: " + Why +
              "; expected a list of strings, as extra-args: [\"-DNDEBUG\"]");
    };
    if (List.Kind != llvm::yaml::NodeKind::Sequence)
      return Bad(List.Kind == llvm::yaml::NodeKind::Map ? "a mapping"
                                                        : "not a list");
    for (size_t I = 0; I < List.Items.size(); ++I) {
      if (List.Items[I].Kind != llvm::yaml::NodeKind::Scalar)
        return Bad("item " + llvm::Twine(I + 1) + " is not a string");
      S.ExtraArgs.push_back(List.Items[I].Scalar);
    }
  }
  for (const std::string &L : Doc.Launches) {
    auto LO = parseLaunchOverride(L);
    if (!LO)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     S.Origin + ": " +
                                         llvm::toString(LO.takeError()));
    LO->Source = LaunchSource::Config;
    LO->Loc = SourceLoc{S.Origin, 0, 0};
    S.Launches.push_back(std::move(*LO));
  }
  return S;
}

llvm::Expected<std::optional<SourceSettings>>
roofline::readConfigFor(const std::string &File) {
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  while (!Dir.empty()) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ".cuda-roofline.yaml");
    // A link counts even when it dangles: reading it then says why.
    llvm::sys::fs::file_status Link;
    if (!llvm::sys::fs::status(Candidate, Link, /*follow=*/false) &&
        llvm::sys::fs::exists(Link)) {
      auto S = readConfigFile(Candidate.str().str());
      if (!S)
        return S.takeError();
      return std::optional<SourceSettings>(std::move(*S));
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return std::optional<SourceSettings>();
}
