//===- Expansions.cpp -----------------------------------------------------===//

#include "Expansions.h"
#include "BuiltinExpansions.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/JSON.h"

using namespace roofline;
namespace json = llvm::json;

static llvm::Error bad(llvm::StringRef Source, const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Source + ": " + What);
}

llvm::Expected<ExpansionTable>
ExpansionTable::parse(llvm::StringRef JsonText, llvm::StringRef SourceName) {
  llvm::Expected<json::Value> Root = json::parse(JsonText);
  if (!Root)
    return bad(SourceName, llvm::toString(Root.takeError()));
  const json::Object *Top = Root->getAsObject();
  if (!Top || Top->getInteger("schema_version") != 1)
    return bad(SourceName, "expected an object with 'schema_version': 1");
  ExpansionTable T;
  if (auto On = Top->getString("measured_on"))
    T.MeasuredOn = On->str();
  const json::Array *List = Top->getArray("expansions");
  if (!List)
    return bad(SourceName, "missing 'expansions'");
  for (const json::Value &V : *List) {
    const json::Object *O = V.getAsObject();
    auto Op = O ? O->getString("op") : std::nullopt;
    if (!Op)
      return bad(SourceName, "an expansion without 'op'");
    Expansion E;
    E.Op = Op->str();
    const json::Object *Flops = O->getObject("flops");
    auto Xu = O->getInteger("xu");
    const json::Array *Sources = O->getArray("sources");
    if (!Flops || !Xu || *Xu < 0 || !Sources || Sources->empty())
      return bad(SourceName,
                 "'" + E.Op + "' needs 'flops', 'xu' (>= 0) and 'sources'");
    for (const auto &[Prec, N] : *Flops) {
      auto Count = N.getAsInteger();
      if (!Count || *Count < 0)
        return bad(SourceName,
                   "'" + E.Op + "': flops." + Prec.str() + " is not a count");
      E.Flops[Prec.str()] = *Count;
    }
    E.Xu = *Xu;
    for (const json::Value &S : *Sources)
      if (auto Str = S.getAsString())
        E.Sources.push_back(Str->str());
    if (!T.Entries.emplace(E.Op, E).second)
      return bad(SourceName, "'" + E.Op + "' twice");
  }
  return std::move(T);
}

const ExpansionTable &ExpansionTable::builtin() {
  static const ExpansionTable Builtin = [] {
    auto T = parse(builtinExpansionJson(),
                   "builtin analysis/machine/data/expansions.json");
    if (!T)
      llvm::report_fatal_error(llvm::Twine("embedded expansion table: ") +
                               llvm::toString(T.takeError()));
    return std::move(*T);
  }();
  return Builtin;
}

const Expansion *ExpansionTable::find(llvm::StringRef Op) const {
  auto It = Entries.find(Op);
  return It == Entries.end() ? nullptr : &It->second;
}
