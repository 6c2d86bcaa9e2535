#include "core/runtime/thread_pool.h"

#include <chrono>

namespace ec::runtime {
namespace {

thread_local ThreadPool* t_current = nullptr;
thread_local bool t_in_region = false;  // inside a task: nested regions run serially

// Spin this long for the next region before sleeping: kernels of one run
// follow each other within microseconds, and a condition-variable wake-up
// costs more than that.
constexpr auto kSpin = std::chrono::microseconds(200);

// One wait step of a spin: a few PAUSEs, not sched_yield. A yield is a system call per
// step whose kernel work competed with the thread doing the region's serial part (on a
// 2-vCPU VM, regnet_x_400mf at 2 threads 5.0 -> 4.5 ms, squeezenet1_1 3.7 -> 3.4).
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  for (int i = 0; i < 16; ++i) __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  blocks_ = std::make_unique<Block[]>(static_cast<std::size_t>(threads));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(m_);
    stop_ = true;
    published_.store(~std::uint64_t{0});
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::work(int participant) {
  t_in_region = true;
  const int parts = size();
  for (int k = 0; k < parts; ++k) {  // its own block, then the others' leftovers
    Block& b = blocks_[static_cast<std::size_t>((participant + k) % parts)];
    for (;;) {
      const std::int64_t i = b.next.fetch_add(1, std::memory_order_relaxed);
      if (i >= b.end) break;
      try {
        (*task_)(i);
      } catch (...) {
        std::lock_guard lock(error_m_);
        if (!error_) error_ = std::current_exception();
        for (int q = 0; q < parts; ++q)  // skip the rest
          blocks_[static_cast<std::size_t>(q)].next.store(blocks_[static_cast<std::size_t>(q)].end,
                                                          std::memory_order_relaxed);
      }
    }
  }
  t_in_region = false;
}

void ThreadPool::worker_loop(int participant) {
  std::uint64_t seen = 0;
  for (;;) {
    // Wait for a new region: spin briefly, then sleep.
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (published_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until)
      relax();
    {
      std::unique_lock lock(m_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      // Join only while the caller has not closed the region: a worker the OS
      // woke late finds it over and goes back to waiting, holding nobody up.
      if (!open_) continue;
      busy_.fetch_add(1, std::memory_order_relaxed);
    }
    work(participant);
    if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard lock(m_);
      done_.notify_all();
    }
  }
}

void ThreadPool::run(std::int64_t n, const std::function<void(std::int64_t)>& task) {
  if (n <= 0) return;
  std::unique_lock region(region_, std::try_to_lock);
  if (workers_.empty() || n == 1 || t_in_region || !region.owns_lock()) {
    for (std::int64_t i = 0; i < n; ++i) task(i);
    return;
  }
  {
    std::lock_guard lock(m_);
    task_ = &task;
    const int parts = size();
    for (int p = 0; p < parts; ++p) {
      Block& b = blocks_[static_cast<std::size_t>(p)];
      b.next.store(n * p / parts, std::memory_order_relaxed);
      b.end = n * (p + 1) / parts;
    }
    busy_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    open_ = true;
    ++generation_;
    published_.store(generation_, std::memory_order_release);
  }
  wake_.notify_all();
  work(0);
  // Every task is taken: close the region to late workers, then wait for the
  // ones that joined to leave it (they hold pointers into it).
  {
    std::lock_guard lock(m_);
    open_ = false;
  }
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (busy_.load(std::memory_order_acquire) != 0 && std::chrono::steady_clock::now() < until)
    relax();
  {
    std::unique_lock lock(m_);
    done_.wait(lock, [&] { return busy_.load(std::memory_order_acquire) == 0; });
    task_ = nullptr;
  }
  if (error_) std::rethrow_exception(error_);
}

ThreadPool* current_pool() { return t_current; }

PoolScope::PoolScope(ThreadPool* pool) : previous_(t_current) { t_current = pool; }
PoolScope::~PoolScope() { t_current = previous_; }

int current_threads() { return t_current && !t_in_region ? t_current->size() : 1; }

void parallel_for(std::int64_t n, const std::function<void(std::int64_t)>& task) {
  if (t_current) {
    t_current->run(n, task);
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) task(i);
}

void parallel_for_if(bool split, std::int64_t n, const std::function<void(std::int64_t)>& task) {
  if (split) {
    parallel_for(n, task);
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) task(i);
}

}  // namespace ec::runtime
