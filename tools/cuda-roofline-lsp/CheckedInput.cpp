//===- CheckedInput.cpp ---------------------------------------------------===//

#include "CheckedInput.h"

#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"

using namespace roofline;
namespace lsp = llvm::lsp;
namespace json = llvm::json;

std::mutex &roofline::transportWriteLock() {
  static std::mutex M;
  return M;
}

bool CheckedInput::admit(const std::string &Json) {
  auto reply = [&](json::Value Id, lsp::ErrorCode Code, std::string Why) {
    lsp::Logger::error("{0}", Why);
    std::lock_guard<std::mutex> L(transportWriteLock());
    if (Transport)
      Transport->reply(std::move(Id),
                       llvm::make_error<lsp::LSPError>(std::move(Why), Code));
  };
  auto Doc = json::parse(Json);
  if (!Doc) {
    reply(nullptr, lsp::ErrorCode::ParseError,
          "parse error: " + llvm::toString(Doc.takeError()));
    return false;
  }
  const json::Object *O = Doc->getAsObject();
  if (!O) {
    reply(nullptr, lsp::ErrorCode::InvalidRequest,
          "invalid request: a message is a JSON object");
    return false;
  }
  const json::Value *Id = O->get("id");
  if (O->getString("method"))
    return true;
  // A reply to one of the server's own requests.
  if (Id && (O->get("result") || O->get("error")))
    return true;
  reply(Id ? *Id : json::Value(nullptr), lsp::ErrorCode::InvalidRequest,
        "invalid request: no method");
  return false;
}

llvm::LogicalResult CheckedInput::readDelimitedMessage(std::string &Json) {
  while (llvm::succeeded(Inner.readDelimitedMessage(Json)))
    if (admit(Json))
      return llvm::success();
  return llvm::failure();
}

llvm::LogicalResult CheckedInput::readStandardMessage(std::string &Json) {
  while (llvm::succeeded(Inner.readStandardMessage(Json)))
    if (admit(Json))
      return llvm::success();
  return llvm::failure();
}
