//===- CheckedInput.h - Messages that cannot end the server -----*- C++ -*-===//
//
// llvm/Support/LSP's transport logs a message that is not JSON and stops
// serving at one that is JSON but not a JSON-RPC message (an array, say).
// This input reads through it and answers such messages itself, as JSON-RPC
// says: a parse error (-32700) or an invalid request (-32600), with the id
// when the message has one. The transport then sees only messages it can
// dispatch; an unknown method or bad parameters it answers itself (-32601,
// -32602).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LSP_CHECKEDINPUT_H
#define CUDA_ROOFLINE_LSP_CHECKEDINPUT_H

#include "llvm/Support/LSP/Transport.h"

#include <cstdio>
#include <mutex>

namespace roofline {

/// Taken by every write to the transport that does not go through the
/// MessageHandler (whose own lock covers its replies and notifications):
/// this input's error replies, and the analysis thread's notifications.
std::mutex &transportWriteLock();

class CheckedInput : public llvm::lsp::JSONTransportInput {
public:
  CheckedInput(std::FILE *In, llvm::lsp::JSONStreamStyle Style)
      : JSONTransportInput(Style), Inner(In, Style) {}

  /// Where the error replies go; set before the transport runs.
  void replyThrough(llvm::lsp::JSONTransport &T) { Transport = &T; }

  bool hasError() const override { return Inner.hasError(); }
  bool isEndOfInput() const override { return Inner.isEndOfInput(); }
  llvm::LogicalResult readDelimitedMessage(std::string &Json) override;
  llvm::LogicalResult readStandardMessage(std::string &Json) override;

private:
  /// True if Json is a message the transport can dispatch; else answered.
  bool admit(const std::string &Json);

  llvm::lsp::JSONTransportInputOverFile Inner;
  llvm::lsp::JSONTransport *Transport = nullptr;
};

} // namespace roofline

#endif
