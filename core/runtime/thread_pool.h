// A small fork-join thread pool for the CPU kernels (std::thread, no OpenMP).
//
// An InferenceSession owns one pool of `threads - 1` workers (the calling
// thread is the last participant) and makes it current for the duration of
// run(); kernels split work with parallel_for(), which runs serially when no
// pool is current, when the pool has one thread, or when called from inside a
// parallel region. Kernels must make each task's result independent of which
// thread runs it, so outputs do not depend on the thread count.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ec::runtime {

class ThreadPool {
 public:
  /// `threads` participants in all (>= 1; 0 = std::thread::hardware_concurrency()).
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Participants, the calling thread included.
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// Calls task(i) for every i in [0, n), spread over the participants, and
  /// returns when all are done. Participant p (the caller is 0, worker j is
  /// j + 1) takes the p-th contiguous block of [0, n) first, then what is left
  /// of the others': the same thread tends to get the same part of a tensor
  /// op after op, in its own core's cache, and a late worker is covered. The first exception
  /// a task throws is rethrown here. Serial when the pool is busy (another
  /// thread's region) or when called from inside a task.
  void run(std::int64_t n, const std::function<void(std::int64_t)>& task);

 private:
  void worker_loop(int participant);
  void work(int participant);  // takes tasks until none is left

  // Participant p's block of the current region: tasks [next, end) not yet taken.
  struct alignas(64) Block {
    std::atomic<std::int64_t> next{0};
    std::int64_t end = 0;
  };

  std::vector<std::thread> workers_;
  std::mutex region_;  // one parallel region at a time
  std::mutex m_;
  std::condition_variable wake_, done_;
  std::uint64_t generation_ = 0;  // bumped per region (under m_)
  std::atomic<std::uint64_t> published_{0};
  bool stop_ = false;
  const std::function<void(std::int64_t)>* task_ = nullptr;
  std::unique_ptr<Block[]> blocks_;  // one per participant
  std::atomic<int> busy_{0};  // workers that joined the current region and are still in it
  bool open_ = false;         // workers may still join the current region (under m_)
  std::exception_ptr error_;
  std::mutex error_m_;
};

/// The pool kernels use on this thread (null = serial).
ThreadPool* current_pool();

/// Makes `pool` current on this thread for the scope's lifetime.
class PoolScope {
 public:
  explicit PoolScope(ThreadPool* pool);
  ~PoolScope();
  PoolScope(const PoolScope&) = delete;
  PoolScope& operator=(const PoolScope&) = delete;

 private:
  ThreadPool* previous_;
};

/// Participants available to a kernel right now (1 when serial).
int current_threads();

/// task(i) for i in [0, n) on the current pool (serially without one).
void parallel_for(std::int64_t n, const std::function<void(std::int64_t)>& task);
/// parallel_for when `split`, else the tasks in order on the calling thread (work too
/// small to pay for waking the pool).
void parallel_for_if(bool split, std::int64_t n, const std::function<void(std::int64_t)>& task);

/// A task's scratch buffer (a thread_local std::vector) of at least n elements, grown and
/// never shrunk: resize() to each call's size value-initialised the new elements whenever
/// a larger call followed a smaller one (int8 mobilenet_v3_large: 1.6 % of its time in
/// memset). The contents are whatever a previous call left.
template <typename T>
T* scratch(std::vector<T>& buffer, std::size_t n) {
  if (buffer.size() < n) buffer.resize(n);
  return buffer.data();
}

}  // namespace ec::runtime
