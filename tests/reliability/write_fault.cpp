/* LD_PRELOAD shim for the writers' fault-injection test (fault_injection.py): after
 * EC_FAULT_BYTES bytes have been written to files (descriptors above 2: not stdout or
 * stderr), write() and writev() fail with ENOSPC ("disk full"), or, with
 * EC_FAULT_MODE=kill, the process is killed with SIGKILL (killed mid-write). pwrite() and
 * pwrite64() too: SQLite (the run history) writes its pages with them. */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

namespace {
long long g_written;

int is_file(int fd) {
  struct stat st;
  return fd > 2 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* How many of `n` bytes may still be written; 0 once the budget is spent. */
size_t budget(int fd, size_t n) {
  static long long limit = -2;
  if (limit == -2) {
    const char* v = std::getenv("EC_FAULT_BYTES");
    limit = v ? std::atoll(v) : -1;
  }
  if (limit < 0 || !is_file(fd)) return n;
  if (g_written >= limit) {
    const char* mode = std::getenv("EC_FAULT_MODE");
    if (mode && std::strcmp(mode, "kill") == 0) raise(SIGKILL);
    return 0;
  }
  const auto left = static_cast<size_t>(limit - g_written);
  return left < n ? left : n;
}

}  // namespace

extern "C" ssize_t write(int fd, const void* buf, size_t n) {
  using WriteFn = ssize_t (*)(int, const void*, size_t);
  static WriteFn real = reinterpret_cast<WriteFn>(dlsym(RTLD_NEXT, "write"));
  size_t allowed = budget(fd, n);
  if (n > 0 && allowed == 0) {
    errno = ENOSPC;
    return -1;
  }
  ssize_t r = real(fd, buf, allowed);
  if (r > 0 && fd > 2) g_written += r;
  return r;
}

extern "C" ssize_t writev(int fd, const struct iovec* iov, int cnt) {
  /* Written one buffer at a time through write() above (short writes are legal). */
  ssize_t total = 0;
  for (int i = 0; i < cnt; ++i) {
    if (iov[i].iov_len == 0) continue;
    ssize_t r = write(fd, iov[i].iov_base, iov[i].iov_len);
    if (r < 0) return total > 0 ? total : -1;
    total += r;
    if (static_cast<size_t>(r) < iov[i].iov_len) break;
  }
  return total;
}

/* SQLite (the run history) writes its pages with pwrite()/pwrite64(). */
namespace {
template <typename Fn, typename Off>
ssize_t positioned_write(const char* name, int fd, const void* buf, size_t n, Off offset) {
  static Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
  size_t allowed = budget(fd, n);
  if (n > 0 && allowed == 0) {
    errno = ENOSPC;
    return -1;
  }
  ssize_t r = real(fd, buf, allowed, offset);
  if (r > 0 && fd > 2) g_written += r;
  return r;
}
}  // namespace

extern "C" ssize_t pwrite(int fd, const void* buf, size_t n, off_t offset) {
  return positioned_write<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite", fd, buf, n, offset);
}

extern "C" ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t offset) {
  return positioned_write<ssize_t (*)(int, const void*, size_t, off64_t)>("pwrite64", fd, buf, n, offset);
}
