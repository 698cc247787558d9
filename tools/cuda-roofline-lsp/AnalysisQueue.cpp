//===- AnalysisQueue.cpp --------------------------------------------------===//

#include "AnalysisQueue.h"

#include "Limits.h"

using namespace roofline;

AnalysisQueue::AnalysisQueue(Work Run, bool Sync)
    : Run(std::move(Run)), Sync(Sync) {
  if (!Sync)
    Worker = std::thread([this] { loop(); });
}

AnalysisQueue::~AnalysisQueue() {
  if (Sync)
    return;
  {
    std::lock_guard<std::mutex> L(M);
    Stopping = true;
    Pending.clear();
    CancelRunning = true;
  }
  CV.notify_all();
  Worker.join();
}

void AnalysisQueue::schedule(const std::string &Key, Clock::duration Delay) {
  if (Sync) {
    std::atomic<bool> Never{false};
    CancelScope Scope(Never);
    Run(Key, Never);
    return;
  }
  {
    std::lock_guard<std::mutex> L(M);
    Pending[Key] = Clock::now() + Delay;
    if (Running == Key)
      CancelRunning = true;
  }
  CV.notify_all();
}

void AnalysisQueue::cancel(const std::string &Key) {
  {
    std::lock_guard<std::mutex> L(M);
    Pending.erase(Key);
    if (Running == Key)
      CancelRunning = true;
  }
  CV.notify_all();
}

void AnalysisQueue::waitIdle() {
  std::unique_lock<std::mutex> L(M);
  CV.wait(L, [&] { return Stopping || (Pending.empty() && Running.empty()); });
}

void AnalysisQueue::loop() {
  std::unique_lock<std::mutex> L(M);
  while (!Stopping) {
    if (Pending.empty()) {
      CV.wait(L);
      continue;
    }
    auto Next = Pending.begin();
    for (auto It = Pending.begin(); It != Pending.end(); ++It)
      if (It->second < Next->second)
        Next = It;
    if (Next->second > Clock::now()) {
      CV.wait_until(L, Next->second);
      continue;
    }
    std::string Key = Next->first;
    Running = Key;
    Pending.erase(Next);
    CancelRunning = false;
    L.unlock();
    {
      CancelScope Scope(CancelRunning);
      Run(Key, CancelRunning);
    }
    L.lock();
    Running.clear();
    CV.notify_all();
  }
}
