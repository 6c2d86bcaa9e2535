// HDF5 through libhdf5 in a child process (see keras_hdf5.h).
//
// The stream the child writes, records of a tag byte and length-prefixed fields:
//   'G' path                         a group
//   'D' path rank dims...            a dataset's shape, then
//       'V' count f32...             its values, or
//       'U' reason                   why they were not read
//   'A' path name count str...       a string attribute (scalar or list)
//   'Z'                              the walk finished
//   'E' message                      the walk failed (the file is damaged)
#include "core/frontends/keras/keras_hdf5.h"

#include <hdf5.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>

#include "core/errors.h"
#include "core/ir/excerpt.h"
#include "core/util/safe_file.h"

namespace ec::frontends::keras {
namespace {

constexpr std::uint64_t kMaxString = std::uint64_t{64} << 20;  // one attribute (a model config)
constexpr std::size_t kMaxRank = 8;

// ------------------------------------------------------------ child side

struct Writer {
  int fd;
  bool ok = true;
  void bytes(const void* p, std::size_t n) {
    const char* c = static_cast<const char*>(p);
    while (ok && n) {
      const ssize_t w = ::write(fd, c, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        ok = false;
        return;
      }
      c += w;
      n -= static_cast<std::size_t>(w);
    }
  }
  void tag(char t) { bytes(&t, 1); }
  void u64(std::uint64_t v) { bytes(&v, sizeof v); }
  void str(const std::string& s) {
    u64(s.size());
    bytes(s.data(), s.size());
  }
};

struct Walk {
  Writer out;
  std::uint64_t size;  // the image's bytes: the bound of every read
  std::uint64_t total = 0;
};

struct VisitData {
  Walk walk;
  std::string path;  // the object being visited
};

// Every string attribute of `obj` (fixed or variable length).
herr_t on_attribute(hid_t obj, const char* name, const H5A_info_t*, void* data) {
  auto& vd = *static_cast<VisitData*>(data);
  Walk& w = vd.walk;
  const std::string& path = vd.path;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  if (a < 0) return 0;
  hid_t type = H5Aget_type(a), space = H5Aget_space(a), mem = -1;
  const int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  hsize_t n = 1;
  const std::size_t each = type >= 0 ? H5Tget_size(type) : 0;
  const htri_t vlen = type >= 0 ? H5Tis_variable_str(type) : -1;
  if (type >= 0 && H5Tget_class(type) == H5T_STRING && vlen >= 0 && (rank == 0 || rank == 1) &&
      (rank == 0 || H5Sget_simple_extent_dims(space, &n, nullptr) == 1) && n <= w.size) {
    // h5py stores a bytes or str scalar (model_config) as a variable-length string, an
    // array of bytes (layer_names) as fixed-length ones.
    std::vector<std::string> v;
    mem = H5Tcopy(H5T_C_S1);
    if (vlen && mem >= 0 && H5Tset_size(mem, H5T_VARIABLE) >= 0) {
      std::vector<char*> ptrs(static_cast<std::size_t>(n), nullptr);
      if (H5Aread(a, mem, ptrs.data()) >= 0) {
        for (char* p : ptrs) v.emplace_back(p ? std::string(p, strnlen(p, kMaxString)) : std::string());
        H5Dvlen_reclaim(mem, space, H5P_DEFAULT, ptrs.data());
      }
    } else if (!vlen && each > 0 && each <= kMaxString && n * each <= w.size * 2 + 1024 && mem >= 0 &&
               H5Tset_size(mem, each) >= 0 && H5Tset_strpad(mem, H5T_STR_NULLPAD) >= 0) {
      std::string buf(static_cast<std::size_t>(n * each), '\0');
      if (H5Aread(a, mem, buf.data()) >= 0)
        for (hsize_t i = 0; i < n; ++i) {
          std::string s = buf.substr(static_cast<std::size_t>(i * each), each);
          s.resize(strnlen(s.data(), s.size()));
          v.push_back(std::move(s));
        }
    }
    if (v.size() == n) {
      w.out.tag('A');
      w.out.str(path);
      w.out.str(name);
      w.out.u64(n);
      for (const auto& s : v) w.out.str(s);
    }
  }
  if (mem >= 0) H5Tclose(mem);
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  H5Aclose(a);
  return w.out.ok ? 0 : -1;
}

void dataset(Walk& w, hid_t d, const std::string& path) {
  hid_t type = H5Dget_type(d), space = H5Dget_space(d), dcpl = H5Dget_create_plist(d);
  auto done = [&] {
    if (type >= 0) H5Tclose(type);
    if (space >= 0) H5Sclose(space);
    if (dcpl >= 0) H5Pclose(dcpl);
  };
  const int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  std::vector<hsize_t> dims(rank > 0 && static_cast<std::size_t>(rank) <= kMaxRank ? static_cast<std::size_t>(rank) : 0);
  if (rank < 0 || static_cast<std::size_t>(rank) > kMaxRank || (rank > 0 && H5Sget_simple_extent_dims(space, dims.data(), nullptr) < 0)) {
    w.out.tag('D');
    w.out.str(path);
    w.out.u64(0);
    w.out.tag('U');
    w.out.str("has a damaged or unsupported dataspace (rank " + std::to_string(rank) + ")");
    return done();
  }
  w.out.tag('D');
  w.out.str(path);
  w.out.u64(dims.size());
  for (auto v : dims) w.out.u64(v);
  const H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  const std::size_t es = type >= 0 ? H5Tget_size(type) : 0;
  // Stored bytes cannot exceed the file, except through a compression filter (1024:1).
  const int filters = dcpl >= 0 ? H5Pget_nfilters(dcpl) : 0;
  const std::uint64_t limit = std::min<std::uint64_t>(filters > 0 ? w.size * 1024 : w.size, util::kMaxReadBytes);
  std::uint64_t numel = 1;
  bool fits = true;
  for (auto v : dims) {
    if (v != 0 && numel > limit / v) fits = false;
    numel = fits ? numel * v : 0;
  }
  std::string why;
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) why = "holds neither floats nor integers (bfloat16 and opaque types are not read)";
  else if (es == 0 || es > 8) why = "has an element size of " + std::to_string(es) + " bytes";
  else if (!fits || numel * es > limit || w.total + numel * sizeof(float) > util::kMaxReadBytes)
    why = "declares more bytes than the file can hold";
  std::vector<float> v;
  if (why.empty()) {
    v.resize(static_cast<std::size_t>(numel));
    if (numel && H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
      why = "cannot be read (truncated or damaged)";
  }
  if (!why.empty()) {
    w.out.tag('U');
    w.out.str(why);
  } else {
    w.total += numel * sizeof(float);
    w.out.tag('V');
    w.out.u64(numel);
    w.out.bytes(v.data(), v.size() * sizeof(float));
  }
  done();
}

herr_t on_object(hid_t root, const char* name, const H5O_info_t* info, void* data) {
  auto& vd = *static_cast<VisitData*>(data);
  vd.path = std::strcmp(name, ".") == 0 ? "/" : name;
  hid_t obj = H5Oopen(root, name, H5P_DEFAULT);
  if (obj < 0) return 0;
  if (info->type == H5O_TYPE_GROUP) {
    vd.walk.out.tag('G');
    vd.walk.out.str(vd.path);
  } else if (info->type == H5O_TYPE_DATASET) {
    dataset(vd.walk, obj, vd.path);
  }
  hsize_t idx = 0;
  H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, &on_attribute, &vd);
  H5Oclose(obj);
  return vd.walk.out.ok ? 0 : -1;
}

[[noreturn]] void child(int fd, const std::string& bytes) {
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  VisitData vd{{Writer{fd}, bytes.size()}, {}};
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  hid_t file = -1;
  if (fapl >= 0 && H5Pset_fapl_core(fapl, 1 << 16, 0) >= 0 &&
      H5Pset_file_image(fapl, const_cast<char*>(bytes.data()), bytes.size()) >= 0)
    file = H5Fopen("edgecompiler-keras-weights", H5F_ACC_RDONLY, fapl);
  if (file < 0) {
    vd.walk.out.tag('E');
    vd.walk.out.str("is damaged or truncated (libhdf5 cannot open it)");
    ::_exit(1);
  }
  if (H5Ovisit(file, H5_INDEX_NAME, H5_ITER_INC, &on_object, &vd) < 0) {
    vd.walk.out.tag('E');
    vd.walk.out.str("is damaged (libhdf5 failed walking its groups)");
    ::_exit(1);
  }
  vd.walk.out.tag('Z');
  ::_exit(vd.walk.out.ok ? 0 : 1);
}

// ------------------------------------------------------------ parent side

class Reader {
 public:
  Reader(const std::string& data, const std::string& path, const std::string& what)
      : d_(data), path_(path), what_(what) {}
  [[noreturn]] void fail(const std::string& why) const { throw FrontendError(path_, what_ + " " + why, "keras"); }
  bool more() const { return pos_ < d_.size(); }
  char tag() {
    need(1);
    return d_[pos_++];
  }
  std::uint64_t u64() {
    need(8);
    std::uint64_t v;
    std::memcpy(&v, d_.data() + pos_, 8);
    pos_ += 8;
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    need(n);
    std::string s = d_.substr(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return s;
  }
  void floats(std::vector<float>& v, std::uint64_t n) {
    if (n > (d_.size() - pos_) / sizeof(float)) fail("stream from the reader process is cut short");
    v.resize(static_cast<std::size_t>(n));
    if (n) std::memcpy(v.data(), d_.data() + pos_, static_cast<std::size_t>(n) * sizeof(float));
    pos_ += static_cast<std::size_t>(n) * sizeof(float);
  }

 private:
  void need(std::uint64_t n) const {
    if (n > d_.size() - pos_) fail("stream from the reader process is cut short");
  }
  const std::string& d_;
  const std::string &path_, &what_;
  std::size_t pos_ = 0;
};

}  // namespace

Hdf5Snapshot snapshot_hdf5(const std::string& path, const std::string& what, const std::string& bytes) {
  auto fail = [&](const std::string& why) -> void { throw FrontendError(path, what + " " + why, "keras"); };
  if (bytes.size() < 8 || std::memcmp(bytes.data(), "\x89HDF\r\n\x1a\n", 8) != 0) fail("is not an HDF5 file (no HDF5 signature)");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail(std::string("cannot be read: pipe failed (") + std::strerror(errno) + ")");
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    fail(std::string("cannot be read: fork failed (") + std::strerror(errno) + ")");
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1], bytes);
  }
  ::close(fds[1]);
  // The child's output: groups, attributes and the values as f32 (4 bytes per element of
  // at most 1024x the file); a deadline that grows with the file (3 s + 20 MB/s).
  const std::uint64_t cap = std::min<std::uint64_t>(util::kMaxReadBytes + bytes.size() * 4 + (1 << 20),
                                                    std::uint64_t{3} << 31);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(3000 + bytes.size() / 20000);
  std::string data;
  std::string problem;
  char buf[1 << 16];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      problem = "took too long to read (libhdf5 does not finish on it; the file is damaged)";
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (data.size() + static_cast<std::size_t>(n) > cap) {
      problem = "holds more data than the file's size allows";
      break;
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (!problem.empty()) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!problem.empty()) fail(problem);

  bool finished = false;
  Hdf5Snapshot snap = decode_hdf5_stream(path, what, data, finished);
  if (!finished || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (WIFSIGNALED(status))
      fail("is damaged: libhdf5 crashed reading it (signal " + std::to_string(WTERMSIG(status)) + ")");
    fail("is damaged: libhdf5 failed reading it");
  }
  return snap;
}

Hdf5Snapshot decode_hdf5_stream(const std::string& path, const std::string& what, const std::string& data,
                                bool& finished) {
  Hdf5Snapshot snap;
  Reader in(data, path, what);
  finished = false;
  while (in.more() && !finished) {
    switch (in.tag()) {
      case 'G': snap[in.str()].group = true; break;
      case 'D': {
        const std::string p = in.str();
        Hdf5Object& o = snap[p];
        const std::uint64_t rank = in.u64();
        if (rank > kMaxRank) in.fail("stream from the reader process is damaged");
        // A dataset named twice is the last one; its values are exactly its dims' product
        // (the layers index them by the dims).
        o.shape.clear();
        o.values.clear();
        o.unreadable.clear();
        std::uint64_t numel = 1;
        bool fits = true;
        for (std::uint64_t i = 0; i < rank; ++i) {
          const std::uint64_t dim = in.u64();
          if (dim > static_cast<std::uint64_t>(INT64_MAX)) in.fail("stream from the reader process is damaged");
          if (dim != 0 && numel > UINT64_MAX / dim) fits = false;
          numel *= dim;
          o.shape.push_back(static_cast<std::int64_t>(dim));
        }
        const char t = in.tag();
        if (t == 'V') {
          const std::uint64_t n = in.u64();
          if (!fits || n != numel) in.fail("stream from the reader process is damaged");
          in.floats(o.values, n);
        } else if (t == 'U') {
          o.unreadable = in.str();
        } else {
          in.fail("stream from the reader process is damaged");
        }
        break;
      }
      case 'A': {
        const std::string p = in.str(), name = in.str();
        const std::uint64_t n = in.u64();
        std::vector<std::string> v;
        for (std::uint64_t i = 0; i < n; ++i) v.push_back(in.str());
        snap[p].attrs[name] = std::move(v);
        break;
      }
      case 'E': in.fail(in.str());
      case 'Z': finished = true; break;
      default: in.fail("stream from the reader process is damaged");
    }
  }
  return snap;
}

}  // namespace ec::frontends::keras
