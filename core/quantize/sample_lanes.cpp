#include "core/quantize/sample_lanes.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "core/errors.h"

namespace ec::quantize::detail {

void run_in_lanes(std::size_t n, int lanes, const SampleSteps& steps, const std::function<bool(int done)>& progress) {
  const auto cancelled = [] { return EdgeCompilerError(ErrorKind::Usage, "cancelled"); };
  const auto go_on = [&](std::size_t done) { return !progress || progress(static_cast<int>(done)); };
  lanes = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(lanes, 1)), std::max<std::size_t>(n, 1)));
  if (lanes == 1) {
    for (std::size_t s = 0; s < n; ++s) {
      if (!go_on(s)) throw cancelled();
      steps.work(0, s);
      steps.merge(0, s);
      steps.finish(0, s);
    }
    if (!go_on(n)) throw cancelled();
    return;
  }
  if (!go_on(0)) throw cancelled();

  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::mutex m;
  std::condition_variable turn;   // lanes: `merged` moved, or a sample failed
  std::condition_variable moved;  // calling thread: `merged` moved, or a lane ended
  std::size_t next = 0;           // next sample to take
  std::size_t end = n;            // no sample >= end is taken (cancel, failure)
  std::size_t merged = 0;         // samples [0, merged) are merged
  std::size_t failed_at = kNone;  // earliest sample whose step threw
  std::exception_ptr error;
  int running = lanes;

  auto lane = [&](int l) {
    for (;;) {
      std::size_t s;
      {
        std::lock_guard lock(m);
        if (next >= end) break;
        s = next++;
      }
      try {
        steps.work(l, s);
        {
          std::unique_lock lock(m);
          turn.wait(lock, [&] { return merged == s || failed_at < s; });
          if (failed_at < s) break;  // an earlier sample failed: a serial run never got here
        }
        steps.merge(l, s);  // alone: no other sample has merged == its own
        {
          std::lock_guard lock(m);
          merged = s + 1;
        }
        turn.notify_all();
        moved.notify_one();
        steps.finish(l, s);
      } catch (...) {
        {
          std::lock_guard lock(m);
          if (s < failed_at) {
            failed_at = s;
            error = std::current_exception();
          }
          end = std::min(end, s + 1);
        }
        turn.notify_all();
        break;
      }
    }
    {
      std::lock_guard lock(m);
      --running;
    }
    moved.notify_one();
  };

  std::vector<std::thread> threads;
  std::exception_ptr own_error;  // from progress, or from starting a thread
  bool stopped = false;          // progress returned false
  auto stop = [&] {
    std::lock_guard lock(m);
    end = std::min(end, next);
  };
  try {
    for (int l = 0; l < lanes; ++l) threads.emplace_back(lane, l);
  } catch (...) {
    own_error = std::current_exception();
    stop();
  }
  {
    std::unique_lock lock(m);
    running -= lanes - static_cast<int>(threads.size());  // lanes whose thread never started
    std::size_t reported = 0;
    for (;;) {
      moved.wait(lock, [&] { return running == 0 || (merged != reported && merged < n && !stopped && !own_error); });
      if (running == 0) break;
      reported = merged;
      lock.unlock();
      bool go = true;
      try {
        go = go_on(reported);
      } catch (...) {
        own_error = std::current_exception();
      }
      if (!go) stopped = true;
      if (!go || own_error) stop();
      lock.lock();
    }
  }
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  if (own_error) std::rethrow_exception(own_error);
  if (stopped || !go_on(n)) throw cancelled();
}

}  // namespace ec::quantize::detail
