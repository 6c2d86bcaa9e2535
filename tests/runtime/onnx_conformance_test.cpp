// ONNX conformance: every case of Debian's libonnx-testdata is imported, run on
// the CPU runtime and compared with the expected outputs (rtol 1e-3, atol 1e-5).
//
// Each case runs in a forked child with a time limit, so a crash or a hang in
// a kernel is reported as a FAILURE of that case instead of killing the run.
// Skipped = the frontend refused the model, the runtime has no kernel for an
// op (or a dtype), or the case is on the explicit out-of-scope list below.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/runtime/dispatch.h"
#include "core/runtime/kernel_registry.h"
#include "core/session/session.h"
#include "tests/runtime/onnx_test_data.h"

namespace ec::runtime {
namespace {

namespace fs = std::filesystem;

const char* const kDataRoot = "/usr/share/libonnx-testdata/data";
constexpr double kRtol = 1e-3, kAtol = 1e-5;
constexpr int kCaseTimeoutSeconds = 60;

// Cases out of scope for an inference runtime, each with its reason.
const std::map<std::string, std::string> kOutOfScope = {
    {"test_dropout_default_mask", "training-mode Dropout draws random masks"},
    // onnx 1.12 made this data by truncating f32 to bf16; the runtime rounds to nearest even
    // (as ONNX >= 1.14's data, PyTorch and TensorFlow do).
    {"test_cast_FLOAT_to_BFLOAT16", "expected data truncates instead of rounding"},
    // The data feeds 'like' as [1] while the model declares [3,4]; inputs must match declared dims.
    {"test_castlike_BFLOAT16_to_FLOAT", "test data contradicts the declared input shape"},
    {"test_castlike_BFLOAT16_to_FLOAT_expanded", "test data contradicts the declared input shape"},
    {"test_castlike_FLOAT_to_BFLOAT16", "test data contradicts the declared input shape"},
    {"test_castlike_FLOAT_to_BFLOAT16_expanded", "test data contradicts the declared input shape"},
    // The data addresses the inferred 4x4 layout and pads it to output_shape 5x5; ONNX Runtime
    // (which fails this case) and PyTorch's max_unpool address output_shape's own layout, the
    // form that brings MaxPool's indices back when the input size was not invertible.
    {"test_maxunpool_export_with_output_shape", "indices address the inferred shape, not output_shape (ONNX Runtime fails it too)"},
};

using Skip = testing::UnsupportedTestData;
using testing::load_pb;

// 16-bit floats compared as f32 (through the runtime's own Cast).
Tensor widen(const Tensor& t) {
  if (t.dtype() != ir::DType::Float16 && t.dtype() != ir::DType::BFloat16) return t;
  ir::Operation cast;
  cast.kind = ir::OpKind::Cast;
  cast.op_type = "Cast";
  cast.inputs = {"x"};
  cast.outputs = {"y"};
  cast.attributes["to"] = std::string("f32");
  std::vector<Tensor> in{t};
  return run_kernel(cast, in)[0];
}

// "" when equal within tolerance, else a description of the first mismatch.
std::string compare(const Tensor& got_in, const Tensor& want_in) {
  Tensor want = want_in;
  if (got_in.dtype() == ir::DType::BFloat16 && want.dtype() == ir::DType::UInt16)  // old bf16 test data
    want = Tensor::from_constant(ir::DType::BFloat16, want.shape(), ir::ConstantData::copy_of(want.raw(), want.nbytes()));
  if (got_in.dtype() != want.dtype()) return "dtype " + got_in.type_string() + " vs expected " + want.type_string();
  const Tensor got = widen(got_in);
  want = widen(want);
  if (got.dtype() != want.dtype()) return "dtype " + got.type_string() + " vs expected " + want.type_string();
  if (got.shape() != want.shape()) return "shape " + got.type_string() + " vs expected " + want.type_string();
  for (std::int64_t i = 0; i < got.numel(); ++i) {
    const double a = got.get_double(i), b = want.get_double(i);
    if (std::isnan(a) && std::isnan(b)) continue;
    if (std::isinf(a) || std::isinf(b)) {
      if (a == b) continue;
    } else if (std::abs(a - b) <= kAtol + kRtol * std::abs(b)) {
      continue;
    }
    return "element " + std::to_string(i) + ": got " + std::to_string(a) + ", expected " + std::to_string(b);
  }
  return "";
}

// Runs one case in-process: "PASS", "SKIP <what>" or "FAIL <why>".
std::string run_case(const fs::path& dir) {
  const std::string name = dir.filename().string();
  if (auto it = kOutOfScope.find(name); it != kOutOfScope.end()) return "SKIP out of scope: " + it->second;
  try {
    frontends::OpenOptions open;
    open.allow_unknown_ops = true;
    ir::Graph g;
    try {
      g = frontends::open_model((dir / "model.onnx").string(), open);
    } catch (const UnsupportedOpError& e) {
      return "SKIP " + e.op_type();
    } catch (const FrontendError& e) {
      return "SKIP import refused: " + e.reason().substr(0, 60);
    }
    InferenceSession s;
    try {
      s.load(ir::freeze(std::move(g)));
    } catch (const UnsupportedOpError& e) {
      return "SKIP " + e.op_type();
    }
    for (const auto& info : s.inputs())
      if (info.dtype == ir::DType::String) return "SKIP string model inputs";
    const fs::path data = dir / "test_data_set_0";
    const std::map<std::string, Tensor> inputs = testing::load_test_inputs(data, s.inputs());
    std::map<std::string, Tensor> out;
    try {
      out = s.run(inputs);
    } catch (const UnsupportedOpError& e) {
      // "kernel on f16 tensors; ..." -> "Add (f16 tensors)"
      const std::string why = e.suggestion();
      const auto on = why.find(" on "), tensors = why.find(" tensors");
      return "SKIP " + e.op_type() +
             (on != std::string::npos && tensors != std::string::npos && tensors > on
                  ? " (" + why.substr(on + 4, tensors - on - 4) + " tensors)" : std::string());
    }
    const auto outs = s.outputs();
    for (std::size_t i = 0; i < outs.size(); ++i) {
      const fs::path p = data / ("output_" + std::to_string(i) + ".pb");
      if (!fs::exists(p)) return "FAIL missing " + p.string();
      const Tensor want = load_pb(p);
      const std::string diff = compare(out.at(outs[i].name), want);
      if (!diff.empty()) return "FAIL output '" + outs[i].name + "': " + diff;
    }
    return "PASS";
  } catch (const Skip& s) {
    return "SKIP " + s.reason;
  } catch (const std::exception& e) {
    return std::string("FAIL ") + e.what();
  }
}

// Forks, runs the case in the child with a time limit, returns its verdict.
std::string run_case_isolated(const fs::path& dir) {
  int fds[2];
  if (pipe(fds) != 0) return "FAIL pipe";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    alarm(kCaseTimeoutSeconds);
    std::string r = run_case(dir);
    for (char& c : r) if (c == '\n') c = ' ';
    const ssize_t w = write(fds[1], r.data(), r.size());
    (void)w;
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string result;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) result.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status))
    return WTERMSIG(status) == SIGALRM ? "FAIL timeout after " + std::to_string(kCaseTimeoutSeconds) + " s"
                                       : "FAIL crashed with signal " + std::to_string(WTERMSIG(status));
  if (result.empty()) return "FAIL no verdict";
  return result;
}

TEST(OnnxConformance, EveryTestdataCase) {
  if (!fs::exists(kDataRoot)) GTEST_SKIP() << "libonnx-testdata is not installed";
  const char* filter = std::getenv("EC_CONFORMANCE_FILTER");  // substring of case names, for debugging
  std::vector<fs::path> cases;
  for (const char* suite : {"node", "pytorch-converted", "pytorch-operator", "simple"})
    for (const auto& e : fs::directory_iterator(fs::path(kDataRoot) / suite))
      if (fs::exists(e.path() / "model.onnx") && (!filter || e.path().string().find(filter) != std::string::npos))
        cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  int passed = 0, failed = 0, skipped = 0;
  std::map<std::string, int> skip_reasons;
  std::vector<std::string> failures;
  for (const auto& c : cases) {
    const std::string r = run_case_isolated(c);
    if (r == "PASS") ++passed;
    else if (r.rfind("SKIP ", 0) == 0) { ++skipped; ++skip_reasons[r.substr(5)]; }
    else { ++failed; failures.push_back(c.parent_path().filename().string() + "/" + c.filename().string() + ": " + r); }
  }
  for (const auto& f : failures) std::cout << "  FAILED " << f << '\n';
  std::cout << "skipped (unsupported), by op type or reason:\n";
  for (const auto& [why, n] : skip_reasons) std::cout << "  " << why << ": " << n << '\n';
  std::cout << passed << " passed, " << failed << " failed, " << skipped << " skipped(unsupported)\n";
  EXPECT_EQ(failed, 0);
}

}  // namespace
}  // namespace ec::runtime
