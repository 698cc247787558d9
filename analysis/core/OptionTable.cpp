//===- OptionTable.cpp ----------------------------------------------------===//

#include "OptionTable.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <string>

using namespace roofline;

// Constant-initialized: the command line registers its flags from it during
// static initialization.
static constexpr OptionSpec Table[] = {
#define ROOFLINE_RANGE(MIN, MIN_CLOSED, MAX, MAX_CLOSED, TEXT)                 \
  OptionRange { MIN, MAX, MIN_CLOSED, MAX_CLOSED, TEXT }
#define ROOFLINE_NO_RANGE                                                      \
  OptionRange {}
#define ROOFLINE_OPTION(ID, NAME, KIND, CONFIG, TIDY, PLUGIN, CLI, RANGE,      \
                        UNIT, DEFAULT, LINT_DEFAULT, VALUE_DESC, FIELD, HELP)  \
  {                                                                            \
      OptionId::ID, NAME,         OptionKind::KIND,                            \
      CONFIG,       TIDY,         PLUGIN,                                      \
      CLI,          RANGE,        UNIT,                                        \
      DEFAULT,      LINT_DEFAULT, VALUE_DESC,                                  \
      HELP},
#include "Options.def"
};

llvm::ArrayRef<OptionSpec> roofline::optionTable() { return Table; }

const OptionSpec &roofline::option(OptionId Id) {
  return Table[static_cast<unsigned>(Id)];
}

llvm::StringRef OptionSpec::key(FrontEnd F) const {
  switch (F) {
  case FrontEnd::Cli:
    return CliFlag;
  case FrontEnd::Config:
    return ConfigKey;
  case FrontEnd::Tidy:
    return TidyKey;
  case FrontEnd::Plugin:
    return PluginKey;
  }
  return "";
}

llvm::StringRef OptionSpec::defaultIn(FrontEnd F) const {
  bool Lint = F == FrontEnd::Tidy || F == FrontEnd::Plugin;
  return Lint && LintDefault ? LintDefault : Default;
}

bool OptionSpec::cliNegates() const {
  llvm::StringRef Flag = CliFlag;
  return Kind == OptionKind::Bool && Flag.starts_with("no-") &&
         !llvm::StringRef(Name).starts_with("no-");
}

// "MinEfficiencyLoss" -> "min-efficiency-loss"; dashed keys stay.
static std::string dashed(llvm::StringRef Key) {
  std::string Out;
  for (size_t I = 0; I < Key.size(); ++I) {
    char C = Key[I];
    if (llvm::isUpper(C)) {
      if (I)
        Out += '-';
      Out += char(llvm::toLower(C));
    } else {
      Out += C == '_' ? '-' : C;
    }
  }
  return Out;
}

const OptionSpec *roofline::findOption(FrontEnd F, llvm::StringRef Key) {
  std::string K = dashed(Key.trim());
  for (const OptionSpec &O : Table)
    if (O.acceptedBy(F) && dashed(O.key(F)) == K)
      return &O;
  return nullptr;
}
