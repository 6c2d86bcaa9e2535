// The Core ML writer: weight.bin byte layout, the writer's own check of an ML
// Program, deployment targets, ops with no MIL form, and the package written so
// that nothing half-written is ever left.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/backends/metal/deployment.h"
#include "core/backends/metal/lower.h"
#include "core/backends/metal/metal_backend.h"
#include "core/backends/metal/mlpackage_writer.h"
#include "core/errors.h"
#include "core/frontends/coreml/weight_file.h"
#include "core/frontends/frontend.h"
#include "metal_test_graphs.h"

using namespace ec;
using namespace ec::backends::metal;
using namespace metal_test;
namespace fs = std::filesystem;

namespace {

std::uint32_t u32(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
std::uint64_t u64(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

fs::path temp_dir(const std::string& tag) {
  auto d = fs::temp_directory_path() / ("metal_test_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

bool leftovers(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto n = e.path().filename().string();
    if (n.find(".tmp-") != std::string::npos || n.find(".old-") != std::string::npos) return true;
  }
  return false;
}

MilOp const_op(const std::string& name, ir::DType t, std::vector<std::int64_t> shape, std::size_t bytes) {
  MilOp op;
  op.type = "const";
  op.name = name;
  MilValue v;
  v.type = {t, shape};
  v.bytes.assign(bytes, 0);
  op.outputs.push_back({name, v.type});
  op.attributes["val"] = v;
  return op;
}

// x -> relu -> y, fp32, CoreML6 / spec 7.
MilProgram relu_program() {
  MilProgram p;
  p.inputs.push_back({"x", {ir::DType::Float32, {1, 4}}});
  MilOp relu;
  relu.type = "relu";
  relu.name = "y";
  relu.inputs = {{"x", {"x"}}};
  relu.outputs.push_back({"y", {ir::DType::Float32, {1, 4}}});
  p.ops.push_back(relu);
  p.outputs = {"y"};
  return p;
}

void expect_check_fails(const MilProgram& p, const std::string& what) {
  try {
    check_program(p);
    FAIL() << "no error; expected: " << what;
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

}  // namespace

// The byte layout coremltools' StorageWriter produces for the same data
// (the Core ML research notes section 3: a 432-byte blob at data offset 128; the next
// blob's metadata at 576, its data at 640).
TEST(MetalWeights, LayoutMatchesCoreML) {
  coreml::WeightFileWriter w;
  std::vector<std::uint8_t> a(432, 0x11), b(16, 0x22);
  EXPECT_EQ(w.append(ir::DType::Float32, a), 64u);
  EXPECT_EQ(w.append(ir::DType::Float16, b), 576u);
  const auto& f = w.bytes();
  EXPECT_EQ(u32(f, 0), 2u);  // count
  EXPECT_EQ(u32(f, 4), 2u);  // version
  for (std::size_t k = 8; k < 64; k += 8) EXPECT_EQ(u64(f, k), 0u);
  EXPECT_EQ(u32(f, 64), 0xDEADBEEFu);
  EXPECT_EQ(u32(f, 68), 2u);  // Float32
  EXPECT_EQ(u64(f, 72), 432u);
  EXPECT_EQ(u64(f, 80), 128u);
  EXPECT_EQ(u32(f, 576), 0xDEADBEEFu);
  EXPECT_EQ(u32(f, 580), 1u);  // Float16
  EXPECT_EQ(u64(f, 592), 640u);
  EXPECT_EQ(f[128], 0x11);
  EXPECT_EQ(f[560], 0);  // padding is zeros
  EXPECT_EQ(f[640], 0x22);
  const auto all = coreml::read_all_blobs(f);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].data_offset, 640u);
  EXPECT_EQ(all[1].size, 16u);
}

TEST(MetalWeights, ReaderRejectsDamage) {
  coreml::WeightFileWriter w;
  std::vector<std::uint8_t> a(40, 1);
  w.append(ir::DType::Float32, a);
  auto f = w.bytes();
  EXPECT_THROW(coreml::read_blob(f, 65), std::runtime_error);   // not aligned
  EXPECT_THROW(coreml::read_blob(f, 640), std::runtime_error);  // past the end
  auto bad = f;
  bad[64] = 0;  // sentinel
  EXPECT_THROW(coreml::read_blob(bad, 64), std::runtime_error);
  bad = f;
  bad[72] = 0xff;  // size beyond the file
  EXPECT_THROW(coreml::read_blob(bad, 64), std::runtime_error);
  bad = f;
  bad[100] = 1;  // reserved
  EXPECT_THROW(coreml::read_blob(bad, 64), std::runtime_error);
}

TEST(MetalProgram, CheckAcceptsAWellFormedProgram) { EXPECT_NO_THROW(check_program(relu_program())); }

TEST(MetalProgram, CheckFindsUndefinedNames) {
  auto p = relu_program();
  p.ops[0].inputs = {{"x", {"nowhere"}}};
  expect_check_fails(p, "'nowhere', which is not defined");
}

TEST(MetalProgram, CheckFindsMissingBlockOutputs) {
  auto p = relu_program();
  p.outputs = {"z"};
  expect_check_fails(p, "block output 'z'");
}

TEST(MetalProgram, CheckFindsOpsetSpecMismatch) {
  auto p = relu_program();
  p.opset = "CoreML7";  // spec 7 reads CoreML6
  expect_check_fails(p, "does not agree with specification version 7");
}

TEST(MetalProgram, CheckFindsInputsOfALaterOpset) {
  auto p = relu_program();
  MilOp idx = const_op("idx", ir::DType::Int32, {1}, 4);
  MilOp axis = const_op("axis", ir::DType::Int32, {}, 4);
  MilOp flag = const_op("flag", ir::DType::Bool, {}, 1);
  MilOp g;
  g.type = "gather";
  g.name = "g";
  g.inputs = {{"x", {"y"}}, {"indices", {"idx"}}, {"axis", {"axis"}}, {"validate_indices", {"flag"}}};
  g.outputs.push_back({"g", {ir::DType::Float32, {1, 1}}});
  p.ops.insert(p.ops.end(), {idx, axis, flag, g});
  expect_check_fails(p, "input 'validate_indices' exists only from iOS17");
  p.opset = "CoreML7";
  p.spec_version = 8;
  EXPECT_NO_THROW(check_program(p));
}

TEST(MetalProgram, CheckFindsMissingRequiredInputsAndBadNames) {
  auto p = relu_program();
  p.ops[0].inputs.clear();
  expect_check_fails(p, "required input 'x' missing");
  p = relu_program();
  p.ops[0].name = p.ops[0].outputs[0].first = "1y";
  p.outputs = {"1y"};
  expect_check_fails(p, "not a MIL identifier");
}

TEST(MetalProgram, ConstantsOfTenOrMoreElementsGoToWeightBin) {
  auto p = relu_program();
  p.ops.insert(p.ops.begin(), {const_op("small", ir::DType::Float16, {9}, 18), const_op("big", ir::DType::Float16, {10}, 20)});
  const auto s = serialize_program(p);
  EXPECT_EQ(s.blobs, 1);
  EXPECT_EQ(coreml::read_all_blobs(s.weights).at(0).size, 20u);
}

TEST(MetalDeployment, UnknownTargetListsTheKnownOnes) {
  try {
    (void)find_deployment_target("iOS12");
    FAIL();
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    for (const auto& t : deployment_targets()) EXPECT_NE(std::string(e.what()).find(t.name), std::string::npos);
  }
  EXPECT_EQ(find_deployment_target("iOS18").spec_version, 9);
  EXPECT_EQ(find_deployment_target("macOS14").opset, "CoreML7");
}

TEST(MetalLowering, OpWithNoMilFormNamesItAndItsType) {
  auto g = unary("Hardmax", "f32[1,10]");
  try {
    (void)mil_form(g, g.ops[0]);
    FAIL();
  } catch (const UnsupportedOpError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'op'"), std::string::npos) << m;
    EXPECT_NE(m.find("Hardmax"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  const auto dir = temp_dir("nomil");
  MetalBackend b;
  backends::CompileConfig c;
  c.output_path = (dir / "m.mlpackage").string();
  EXPECT_THROW(b.compile(g, c), UnsupportedOpError);
  EXPECT_FALSE(fs::exists(c.output_path));
  EXPECT_FALSE(leftovers(dir));
  fs::remove_all(dir);
}

TEST(MetalLowering, IdentifiersAreMilSafe) {
  EXPECT_EQ(mil_identifier("/features/0/Conv_output_0"), "features_0_Conv_output_0");
  EXPECT_TRUE(is_mil_identifier(mil_identifier("0abc")));
  EXPECT_TRUE(is_mil_identifier(mil_identifier("onnx::Conv_1")));
}

TEST(MetalPackage, UnwritableFolderLeavesNothing) {
  const auto dir = temp_dir("unwritable");
  { std::ofstream(dir / "file") << "x"; }
  const auto lp = lower_graph(unary("Relu", "f32[1,4]"));
  try {
    write_mlpackage(lp.program, (dir / "file" / "m.mlpackage").string());
    FAIL();
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(std::string(e.what()).find("m.mlpackage"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(leftovers(dir));
  fs::remove_all(dir);
}

TEST(MetalPackage, ReplacesAnExistingPackageWhole) {
  const auto dir = temp_dir("replace");
  const auto path = (dir / "m.mlpackage").string();
  write_mlpackage(lower_graph(unary("Relu", "f32[1,4]")).program, path);
  write_mlpackage(lower_graph(unary("Sigmoid", "f32[1,4]")).program, path);
  EXPECT_FALSE(leftovers(dir));
  const auto g = frontends::open_model(path);
  ASSERT_FALSE(g.ops.empty());
  bool sigmoid = false;
  for (const auto& op : g.ops) sigmoid |= op.op_type == "Sigmoid";
  EXPECT_TRUE(sigmoid);
  for (const char* f : {"Manifest.json", "Data/com.apple.CoreML/model.mlmodel", "Data/com.apple.CoreML/weights/weight.bin"})
    EXPECT_TRUE(fs::exists(fs::path(path) / f)) << f;
  fs::remove_all(dir);
}

// ---- issue 35: conv_transpose, 3-D conv / pool, lstm, gru ----------------------------------

namespace {

std::string z32(std::size_t n) { return zeros(4 * n); }  // n f32 zeros

// The MIL form of op "op" and the lowered program, which must pass the writer's own check.
std::string lowered(const ir::Graph& g, const std::string& target = "macOS13", bool fp16 = true) {
  LowerOptions o;
  o.fp16 = fp16;
  o.target = &find_deployment_target(target);
  const auto lp = lower_graph(g, o);
  EXPECT_NO_THROW(check_program(lp.program)) << target;
  std::string s;
  for (const auto& m : lp.mil_ops_of.at("op")) s += (s.empty() ? "" : " + ") + m;
  return s;
}

ir::Graph conv_transpose(const std::string& attrs, const std::string& out) {
  return graph("  input %x : f32[1,2,4,4]\n  const %w : f32[2,3,3,3] = " + z32(54) + "\n  const %b : f32[3] = " + z32(3) +
               "\n  %y = ConvTranspose(%x, %w, %b) {" + attrs + "} : " + out + " @\"op\"\n  output %y");
}

// LSTM / GRU over x [S=5, N=1, I=3], hidden 4, `dirs` directions.
ir::Graph recurrent(const std::string& type, int dirs, const std::string& attrs) {
  const int gates = type == "LSTM" ? 4 : 3, H = 4, I = 3;
  const std::string d = std::to_string(dirs), gh = std::to_string(gates * H);
  std::string outs = "%y, %yh" + std::string(type == "LSTM" ? ", %yc" : "");
  std::string types = "f32[5," + d + ",1,4], f32[" + d + ",1,4]" + std::string(type == "LSTM" ? ", f32[" + d + ",1,4]" : "");
  return graph("  input %x : f32[5,1,3]\n  const %W : f32[" + d + "," + gh + ",3] = " + z32(static_cast<std::size_t>(dirs * gates * H * I)) +
               "\n  const %R : f32[" + d + "," + gh + ",4] = " + z32(static_cast<std::size_t>(dirs * gates * H * H)) +
               "\n  const %B : f32[" + d + "," + std::to_string(2 * gates * H) + "] = " + z32(static_cast<std::size_t>(dirs * 2 * gates * H)) +
               "\n  " + outs + " = " + type + "(%x, %W, %R, %B) {hidden_size = 4" + attrs + "} : " + types +
               " @\"op\"\n  output %y\n  output %yh");
}

}  // namespace

// stride 2, pads 1, output_padding 1 (PyTorch's 3x3 upsampler): one conv_transpose, end pad 1 - 1.
TEST(MetalLowering, ConvTransposeOutputPaddingIsAnEndPad) {
  EXPECT_EQ(lowered(conv_transpose("strides = [2,2], pads = [1,1,1,1], output_padding = [1,1]", "f32[1,3,8,8]")), "conv_transpose");
  EXPECT_EQ(lowered(conv_transpose("strides = [2,2], pads = [1,1,1,1], output_padding = [1,1]", "f32[1,3,8,8]"), "iOS18", false),
            "conv_transpose");
}

// output_padding above the end pad: rows beyond the full output hold the bias alone.
TEST(MetalLowering, ConvTransposeOutputPaddingBeyondThePad) {
  EXPECT_EQ(lowered(conv_transpose("strides = [2,2], output_padding = [1,1]", "f32[1,3,10,10]")), "conv_transpose + pad + add");
}

// auto_pad and output_shape: the runtime's geometry gives the pads (an output_shape past the full
// output leaves a row of bias alone at the end).
TEST(MetalLowering, ConvTransposeAutoPadAndOutputShape) {
  EXPECT_EQ(lowered(conv_transpose("strides = [2,2], auto_pad = \"SAME_LOWER\"", "f32[1,3,8,8]")), "conv_transpose");
  EXPECT_EQ(lowered(conv_transpose("strides = [2,2], output_shape = [10,10]", "f32[1,3,10,10]")), "conv_transpose + pad + add");
}

TEST(MetalLowering, ConvTransposeGroupedDilated1d) {
  auto g = graph("  input %x : f32[1,4,6]\n  const %w : f32[4,2,3] = " + z32(24) +
                 "\n  %y = ConvTranspose(%x, %w) {group = 2, dilations = [2], pads = [2,2]} : f32[1,4,6] @\"op\"\n  output %y");
  EXPECT_EQ(lowered(g), "conv_transpose");
}

TEST(MetalLowering, Conv3dAndPool3d) {
  auto g = graph("  input %x : f32[1,2,4,6,6]\n  const %w : f32[3,2,3,3,3] = " + z32(162) +
                 "\n  %y = Conv(%x, %w) {pads = [1,1,1,1,1,1]} : f32[1,3,4,6,6] @\"op\"\n  output %y");
  EXPECT_EQ(lowered(g), "conv");
  auto p = graph("  input %x : f32[1,2,4,6,6]\n  %y = MaxPool(%x) {kernel_shape = [2,2,2], strides = [2,2,2]} : f32[1,2,2,3,3] @\"op\"\n"
                 "  %z = GlobalAveragePool(%y) : f32[1,2,1,1,1] @\"gap\"\n  output %z");
  EXPECT_EQ(lowered(p), "max_pool");
  auto a = graph("  input %x : f32[1,2,4,6,6]\n  %y = AveragePool(%x) {kernel_shape = [3,3,3], pads = [1,1,1,1,1,1], count_include_pad = 1} : "
                 "f32[1,2,4,6,6] @\"op\"\n  output %y");
  EXPECT_EQ(lowered(a), "avg_pool");
}

// lstm computes in fp32 before iOS17: an fp16 program casts around it there, not from iOS17 on.
TEST(MetalLowering, LstmBidirectionalCastsBeforeIos17) {
  const auto g = recurrent("LSTM", 2, ", direction = \"bidirectional\"");
  const std::string before = lowered(g, "macOS13"), after = lowered(g, "iOS17");
  EXPECT_NE(before.find("cast + lstm + cast"), std::string::npos) << before;
  EXPECT_NE(after.find("lstm"), std::string::npos) << after;
  EXPECT_EQ(after.find("cast"), std::string::npos) << after;
}

TEST(MetalLowering, LstmReverseRunsForwardOnTheReversedSequence) {
  EXPECT_NE(lowered(recurrent("LSTM", 1, ", direction = \"reverse\""), "iOS17").find("reverse + lstm + reverse"), std::string::npos);
}

// GRU: linear_before_reset = 0 is MIL's gru (bidirectional: a reversed second pass);
// linear_before_reset = 1 (PyTorch's) is unrolled into plain ops.
TEST(MetalLowering, GruForms) {
  const std::string lbr0 = lowered(recurrent("GRU", 2, ", direction = \"bidirectional\""), "iOS17");
  EXPECT_NE(lbr0.find("gru + reverse"), std::string::npos) << lbr0;
  EXPECT_NE(lbr0.find("concat"), std::string::npos) << lbr0;
  const std::string lbr1 = lowered(recurrent("GRU", 1, ", linear_before_reset = 1"));
  EXPECT_EQ(lbr1.find("gru"), std::string::npos) << lbr1;
  EXPECT_NE(lbr1.find("linear"), std::string::npos) << lbr1;
}

// RNN: MIL rnn per direction, like gru.
TEST(MetalLowering, RnnBidirectional) {
  auto g = graph("  input %x : f32[5,1,3]\n  const %W : f32[2,4,3] = " + z32(24) + "\n  const %R : f32[2,4,4] = " + z32(32) +
                 "\n  %y, %h = RNN(%x, %W, %R) {hidden_size = 4, direction = \"bidirectional\"} : f32[5,2,1,4], f32[2,1,4] @\"op\"\n"
                 "  output %y\n  output %h");
  const std::string f = lowered(g, "iOS17");
  EXPECT_NE(f.find("rnn + reverse + rnn + reverse + concat"), std::string::npos) << f;
}

TEST(MetalLowering, RecurrentRefusalsNameTheReason) {
  for (const std::string& attrs : {std::string(", clip = 3.0"), std::string(", input_forget = 1")}) {
    auto g = recurrent("LSTM", 1, attrs);
    try {
      (void)mil_form(g, g.ops[0]);
      FAIL() << attrs;
    } catch (const UnsupportedOpError& e) {
      EXPECT_NE(std::string(e.what()).find(attrs.substr(2, attrs.find(' ', 2) - 2)), std::string::npos) << e.what();
    }
  }
}

TEST(MetalProgram, CheckRefusesFp16LstmBeforeIos17) {
  MilProgram p;
  p.inputs.push_back({"x", {ir::DType::Float16, {2, 1, 3}}});
  p.ops.push_back(const_op("h", ir::DType::Float16, {1, 4}, 8));
  p.ops.push_back(const_op("wi", ir::DType::Float16, {16, 3}, 96));
  p.ops.push_back(const_op("wh", ir::DType::Float16, {16, 4}, 128));
  MilOp l;
  l.type = "lstm";
  l.name = "y";
  l.inputs = {{"x", {"x"}}, {"initial_h", {"h"}}, {"initial_c", {"h"}}, {"weight_ih", {"wi"}}, {"weight_hh", {"wh"}}};
  l.outputs = {{"y", {ir::DType::Float16, {2, 1, 4}}}, {"y_h", {ir::DType::Float16, {1, 4}}}, {"y_c", {ir::DType::Float16, {1, 4}}}};
  p.ops.push_back(l);
  p.outputs = {"y"};
  expect_check_fails(p, "fp32 only before iOS17");
  p.spec_version = 8;
  p.opset = "CoreML7";
  EXPECT_NO_THROW(check_program(p));
}

// Resize: nearest half_pixel at an integer scale samples like upsample_nearest_neighbor; linear
// asymmetric is resize_bilinear "DEFAULT"; nearest asymmetric with rounding has no MIL form.
TEST(MetalLowering, ResizeModes) {
  auto resize = [](const std::string& attrs, const std::string& out) {
    return graph("  input %x : f32[1,2,4,4]\n  const %s : i64[4] = hex\"" + std::string(64, '0') + "\"\n" +
                 "  %y = Resize(%x, %\"\", %\"\", %s) {" + attrs + "} : " + out + " @\"op\"\n  output %y");
  };
  EXPECT_EQ(lowered(resize("mode = \"nearest\", coordinate_transformation_mode = \"half_pixel\"", "f32[1,2,8,8]")),
            "upsample_nearest_neighbor");
  EXPECT_EQ(lowered(resize("mode = \"linear\", coordinate_transformation_mode = \"asymmetric\"", "f32[1,2,6,6]")), "resize_bilinear");
  auto g = resize("mode = \"nearest\", coordinate_transformation_mode = \"asymmetric\"", "f32[1,2,8,8]");
  EXPECT_THROW((void)mil_form(g, g.ops[0]), UnsupportedOpError);
  auto frac = resize("mode = \"nearest\", coordinate_transformation_mode = \"half_pixel\"", "f32[1,2,6,6]");
  EXPECT_THROW((void)mil_form(frac, frac.ops[0]), UnsupportedOpError);
}
