//===- LintOptions.cpp ----------------------------------------------------===//

#include "LintOptions.h"
#include "Checks.h"
#include "GpuDatabase.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace roofline;

OptionField roofline::optionField(LintSettings &S, OptionId Id) {
  switch (Id) {
#define ROOFLINE_OPTION(ID, NAME, KIND, CONFIG, TIDY, PLUGIN, CLI, RANGE,      \
                        UNIT, DEFAULT, LINT_DEFAULT, VALUE_DESC, FIELD, HELP)  \
  case OptionId::ID:                                                           \
    return &S.FIELD;
#include "Options.def"
  }
  llvm_unreachable("an option of the table");
}

static llvm::Error bad(llvm::StringRef Key, llvm::StringRef Value,
                       const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "option '" + Key + "': bad value '" + Value +
                                     "': " + Why);
}

static llvm::Expected<double> number(llvm::StringRef Key,
                                     llvm::StringRef Value) {
  double D;
  if (Value.trim().getAsDouble(D))
    return bad(Key, Value, "expected a number");
  return D;
}

// The shortest text that reads back as V: the value as the user wrote it.
static std::string shortest(double V) {
  char Buf[32];
  for (int Digits = 1; Digits <= 17; ++Digits) {
    snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
    if (strtod(Buf, nullptr) == V)
      break;
  }
  std::string Text = Buf;
  // printf writes 1e-09; C and the user write 1e-9.
  size_t E = Text.find("e-0");
  if (E == std::string::npos)
    E = Text.find("e+0");
  if (E != std::string::npos)
    Text.erase(E + 2, 1);
  return Text;
}

llvm::Error roofline::checkRanges(const LintSettings &S) {
  // Read only: optionField gives the fields to set and to read alike.
  LintSettings &Fields = const_cast<LintSettings &>(S);
  for (const OptionSpec &O : optionTable()) {
    double V;
    if (O.Kind == OptionKind::Number)
      V = *std::get<double *>(optionField(Fields, O.Id));
    else if (O.Kind == OptionKind::Count)
      V = *std::get<unsigned *>(optionField(Fields, O.Id));
    else
      continue;
    if (!O.Range.contains(V))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "option '" + llvm::Twine(O.Name) +
                                         "' must be " + O.Range.Text +
                                         ": got " + shortest(V));
  }
  return llvm::Error::success();
}

// Param(s) and Launch(es): each item parsed; one value may hold several.
static llvm::Error setItems(LintSettings &S, const OptionSpec &O,
                            llvm::StringRef Key, llvm::StringRef Value) {
  llvm::StringRef Separator =
      O.Kind == OptionKind::Params
          ? (Value.contains(';') ? ";" : ",")
          : (O.Kind == OptionKind::Launches ? ";" : "\n");
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Value.split(Items, Separator, -1, /*KeepEmpty=*/false);
  OptionField Field = optionField(S, O.Id);
  for (llvm::StringRef I : Items) {
    if (auto *Params = std::get_if<std::map<std::string, int64_t> *>(&Field)) {
      auto KV = parseParam(I.trim());
      if (!KV)
        return bad(Key, Value, llvm::toString(KV.takeError()));
      (**Params)[KV->first] = KV->second;
      continue;
    }
    auto L = parseLaunchOverride(I.trim());
    if (!L)
      return bad(Key, Value, llvm::toString(L.takeError()));
    std::get<std::vector<KernelLaunch> *>(Field)->push_back(*L);
  }
  return llvm::Error::success();
}

// A check glob list, as written (CheckGlob reads its own spaces): the
// `checks` that enable none are a typo that would silence every finding.
static llvm::Error setGlobs(LintSettings &S, const OptionSpec &O,
                            llvm::StringRef Value) {
  auto G = CheckGlob::parse(Value);
  if (!G)
    return G.takeError();
  if (O.Id == OptionId::Checks)
    if (llvm::Error E = checkGlobEnablesSome(*G, Value))
      return E;
  *std::get<std::optional<CheckGlob> *>(optionField(S, O.Id)) = std::move(*G);
  return llvm::Error::success();
}

// Number, Count and Limit.
static llvm::Error setNumber(LintSettings &S, const OptionSpec &O,
                             llvm::StringRef Key, llvm::StringRef Value) {
  auto D = number(Key, Value);
  if (!D)
    return D.takeError();
  OptionField Field = optionField(S, O.Id);
  if (O.Kind == OptionKind::Limit) {
    if (*D < O.Range.Min)
      return bad(Key, Value,
                 llvm::Twine("expected ") + O.Unit + " " + O.Range.Text +
                     " (0: no limit)");
    *std::get<double *>(Field) = *D;
    return llvm::Error::success();
  }
  if (O.Kind == OptionKind::Number) {
    *std::get<double *>(Field) = *D;
  } else {
    // Range first: converting a negative or huge double to unsigned is
    // undefined behaviour.
    if (!(*D >= 0 && *D <= double(UINT_MAX)) || *D != std::floor(*D))
      return bad(Key, Value, "expected a whole number");
    *std::get<unsigned *>(Field) = unsigned(*D);
  }
  return checkRanges(S);
}

llvm::Error roofline::setOption(LintSettings &S, const OptionSpec &O,
                                llvm::StringRef Key, llvm::StringRef Raw) {
  llvm::StringRef Value = Raw.trim();
  switch (O.Kind) {
  case OptionKind::GpuId:
    if (Value.empty())
      return bad(Key, Value, "expected a GPU id (see --list-gpus)");
    *std::get<std::optional<std::string> *>(optionField(S, O.Id)) = Value.str();
    return llvm::Error::success();
  case OptionKind::Arch:
    if (!Value.starts_with("sm_"))
      return bad(Key, Value, "expected sm_XX");
    *std::get<std::string *>(optionField(S, O.Id)) = Value.str();
    return llvm::Error::success();
  case OptionKind::Param:
  case OptionKind::Params:
  case OptionKind::Launch:
  case OptionKind::Launches:
    return setItems(S, O, Key, Value);
  case OptionKind::Globs:
    return setGlobs(S, O, Raw);
  case OptionKind::Bool: {
    bool &Flag = *std::get<bool *>(optionField(S, O.Id));
    std::string V = Value.lower();
    if (V == "true" || V == "1" || V == "on")
      Flag = true;
    else if (V == "false" || V == "0" || V == "off")
      Flag = false;
    else
      return bad(Key, Value, "expected true or false");
    return llvm::Error::success();
  }
  case OptionKind::Number:
  case OptionKind::Count:
  case OptionKind::Limit:
    return setNumber(S, O, Key, Value);
  }
  llvm_unreachable("an option kind");
}

llvm::Error roofline::setOption(LintSettings &S, FrontEnd F,
                                llvm::StringRef Key, llvm::StringRef Value) {
  if (const OptionSpec *O = findOption(F, Key))
    return setOption(S, *O, Key, Value);
  // The check globs aside, which the front-ends that take them name in
  // their own documentation, as this message has always read.
  std::vector<llvm::StringRef> Keys;
  for (const OptionSpec &O : optionTable())
    if (O.acceptedBy(F) && O.Kind != OptionKind::Globs)
      Keys.push_back(O.key(F));
  std::string Expected;
  for (size_t I = 0; I < Keys.size(); ++I)
    Expected += (I == 0                 ? ""
                 : I + 1 == Keys.size() ? " or "
                                        : ", ") +
                Keys[I].str();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown option '" + Key + "' (expected " +
                                     Expected + ")");
}

llvm::Error roofline::readOptions(
    LintSettings &S, FrontEnd F,
    llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Get) {
  for (const OptionSpec &O : optionTable()) {
    if (!O.acceptedBy(F))
      continue;
    std::optional<std::string> V = Get(O.key(F));
    if (!V)
      continue;
    if (llvm::Error E = setOption(S, O, O.key(F), *V))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     O.key(F) + ": " +
                                         llvm::toString(std::move(E)));
  }
  return llvm::Error::success();
}

LintSettings roofline::defaultSettings(FrontEnd F) {
  LintSettings S;
  for (const OptionSpec &O : optionTable())
    if (O.acceptedBy(F) && O.LintDefault && O.defaultIn(F) != O.Default)
      llvm::cantFail(setOption(S, O, O.Name, O.defaultIn(F)));
  return S;
}

const GpuDatabase &roofline::lintGpus() {
  static GpuDatabase DB = GpuDatabase::builtin();
  return DB;
}

llvm::Error roofline::checkGpu(const AnalyzerOptions &Opts,
                               const GpuDatabase &DB) {
  if (!Opts.GpuId || DB.find(*Opts.GpuId))
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown GPU '" + *Opts.GpuId +
                                     "' (see cuda-roofline --list-gpus)");
}
