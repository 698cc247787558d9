//===- AnalysisQueue.h - Analyses off the protocol's thread -----*- C++ -*-===//
//
// The server answers requests on the thread that reads them and analyzes on
// this queue's own thread, so that a hover or a newer edit never waits for a
// compile. A file is analyzed once per due time: a change asks again after
// the debounce delay, replacing what was pending for that file, and cancels
// the analysis of that file in progress (its result would be stale). The
// work runs under a CancelScope (analysis/core/Limits.h), so a cancelled
// analysis stops at its next limit check.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LSP_ANALYSISQUEUE_H
#define CUDA_ROOFLINE_LSP_ANALYSISQUEUE_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace roofline {

class AnalysisQueue {
public:
  using Clock = std::chrono::steady_clock;
  /// Analyzes Key; Cancelled is set when the result would be stale.
  using Work =
      std::function<void(const std::string &Key, const std::atomic<bool> &)>;

  /// Sync: no thread; schedule() analyzes at once on the caller's thread
  /// (the transcript tests' deterministic order, as clangd's -sync).
  AnalysisQueue(Work Run, bool Sync);
  /// Cancels what runs, drops what is pending, and joins the thread.
  ~AnalysisQueue();

  /// Analyzes Key after Delay (replacing a pending request for it), and
  /// cancels Key's analysis in progress.
  void schedule(const std::string &Key, Clock::duration Delay);
  /// Drops Key's pending analysis and cancels the one in progress.
  void cancel(const std::string &Key);
  /// Waits until nothing is pending or running (the pending delays run
  /// their course).
  void waitIdle();

private:
  void loop();

  Work Run;
  std::mutex M;
  std::condition_variable CV;
  std::map<std::string, Clock::time_point> Pending;
  std::string Running;
  std::atomic<bool> CancelRunning{false};
  bool Stopping = false;
  bool Sync;
  std::thread Worker;
};

} // namespace roofline

#endif
