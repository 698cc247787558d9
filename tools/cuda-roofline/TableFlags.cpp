//===- TableFlags.cpp -----------------------------------------------------===//

#include "TableFlags.h"

#include <cstdlib>

using namespace llvm;
using namespace roofline;

namespace {
template <typename Flag, typename... Mods>
std::unique_ptr<cl::Option> make(const OptionSpec &O, cl::OptionCategory &Cat,
                                 const Mods &...M) {
  auto F = std::make_unique<Flag>(StringRef(O.CliFlag), cl::desc(O.Help),
                                  cl::cat(Cat), M...);
  if (*O.ValueDesc)
    F->setValueStr(O.ValueDesc);
  return F;
}
} // namespace

TableFlags::TableFlags(cl::OptionCategory &Cat) {
  for (const OptionSpec &O : optionTable()) {
    std::unique_ptr<cl::Option> F;
    if (!O.acceptedBy(FrontEnd::Cli)) {
      Flags.push_back(nullptr);
      continue;
    }
    switch (O.Kind) {
    case OptionKind::GpuId:
    case OptionKind::Arch:
    case OptionKind::Globs:
      F = make<cl::opt<std::string>>(O, Cat);
      break;
    case OptionKind::Param:
    case OptionKind::Params:
    case OptionKind::Launch:
    case OptionKind::Launches:
      F = make<cl::list<std::string>>(O, Cat);
      break;
    case OptionKind::Number:
    case OptionKind::Limit:
      F = make<cl::opt<double>>(O, Cat,
                                cl::init(std::strtod(O.Default, nullptr)));
      break;
    case OptionKind::Count:
      F = make<cl::opt<unsigned>>(
          O, Cat, cl::init(unsigned(std::strtoul(O.Default, nullptr, 10))));
      break;
    case OptionKind::Bool:
      F = O.cliNegates()
              ? make<cl::opt<bool>>(O, Cat)
              : make<cl::opt<bool>>(O, Cat,
                                    cl::init(StringRef(O.Default) == "true"));
      break;
    }
    Flags.push_back(std::move(F));
  }
}

bool TableFlags::given(OptionId Id) const {
  const cl::Option *F = Flags[unsigned(Id)].get();
  return F && F->getNumOccurrences();
}

template <typename Flag>
static const Flag &as(const std::unique_ptr<cl::Option> &F) {
  return *static_cast<const Flag *>(F.get());
}

const std::string &TableFlags::text(OptionId Id) const {
  return as<cl::opt<std::string>>(Flags[unsigned(Id)]).getValue();
}

ArrayRef<std::string> TableFlags::items(OptionId Id) const {
  return as<cl::list<std::string>>(Flags[unsigned(Id)]);
}

double TableFlags::number(OptionId Id) const {
  return as<cl::opt<double>>(Flags[unsigned(Id)]).getValue();
}

unsigned TableFlags::count(OptionId Id) const {
  return as<cl::opt<unsigned>>(Flags[unsigned(Id)]).getValue();
}

bool TableFlags::flag(OptionId Id) const {
  return as<cl::opt<bool>>(Flags[unsigned(Id)]).getValue();
}
