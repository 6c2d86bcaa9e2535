// The coral target behind InferenceSession: without libedgetpu, with a stand-in
// libedgetpu that sees no device, and with one that sees a device but no TFLite C
// library — every case a clear BackendError, never a crash.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/session/session.h"
#include "core/backends/backend_registry.h"
#include "core/backends/coral/coral_target.h"
#include "core/backends/coral/edgetpu_library.h"

using namespace ec;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const EdgeCompilerError& e) {
    return e.what();
  }
  return "no error";
}
const std::string kTflite = std::string(EC_EDGETPU_TESTDATA) + "/mobilenet_v1_0.25_128_quant_edgetpu.tflite";
}  // namespace

TEST(CoralTarget, WithoutLibedgetpuSaysSo) {
  ASSERT_FALSE(backends::coral::libedgetpu_reason().empty()) << "this machine has libedgetpu.so.1";
  runtime::InferenceSession s;
  const auto e = error_of([&] { backends::load_on_target(s, kTflite, "coral"); });
  EXPECT_EQ(e.rfind("coral: libedgetpu.so.1 not found", 0), 0u) << e;
  EXPECT_FALSE(s.loaded());
  EXPECT_EQ(s.target(), "cpu");
}

TEST(CoralTarget, UnknownTargetsAndNonTfliteFiles) {
  runtime::InferenceSession s;
  try {
    backends::load_on_target(s, kTflite, "npu");
    FAIL();
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_EQ(std::string(e.what()), "unknown target 'npu' (known: cpu, coral)");
  }
  EXPECT_NE(error_of([&] { backends::load_on_target(s, EC_SAMPLE_MODEL, "coral"); }).find("the coral target runs a .tflite"), std::string::npos);
}

TEST(CoralTarget, StandInLibedgetpuWithoutDevice) {
  ::unsetenv("EC_FAKE_EDGETPU_DEVICES");
  std::string why;
  auto api = backends::coral::load_edgetpu(&why, EC_FAKE_EDGETPU);
  ASSERT_TRUE(api) << why;
  EXPECT_STREQ(api->version(), "fake libedgetpu for edgecompiler tests");
  auto graph = ir::freeze(frontends::open_model(kTflite));
  const auto e = error_of([&] { backends::coral::open_coral_target(kTflite, graph, {.edgetpu_library = EC_FAKE_EDGETPU}); });
  EXPECT_EQ(e, "coral: libedgetpu sees no Edge TPU (plug in a Coral; `edgecompile devices` says what it finds)");
}

TEST(CoralTarget, StandInLibedgetpuWithDeviceButNoTfliteCLibrary) {
  ::setenv("EC_FAKE_EDGETPU_DEVICES", "1", 1);
  auto graph = ir::freeze(frontends::open_model(kTflite));
  const auto e = error_of([&] {
    backends::coral::open_coral_target(kTflite, graph,
                                        {.edgetpu_library = EC_FAKE_EDGETPU, .tflite_library = "libtensorflowlite_c_missing.so"});
  });
  EXPECT_EQ(e.rfind("coral: libtensorflowlite_c_missing.so not found", 0), 0u) << e;
  ::unsetenv("EC_FAKE_EDGETPU_DEVICES");
}

TEST(CoralTarget, CpuTargetRunsAndCloseReleases) {
  runtime::InferenceSession s({1});
  backends::load_on_target(s, EC_SAMPLE_MODEL, "cpu");
  EXPECT_EQ(s.target(), "cpu");
  EXPECT_FALSE(s.run(s.random_inputs()).empty());
  s.close();
  EXPECT_FALSE(s.loaded());
  s.close();  // idempotent
  EXPECT_THROW(s.run({}), EdgeCompilerError);
}
