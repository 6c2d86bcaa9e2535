// open_model(): path checks and the "nobody could read it" error.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "onnx_test_models.h"

namespace ec::frontends {
namespace {

using ec::testing::TempDir;

std::string error_of(const std::string& path) {
  try {
    open_model(path);
  } catch (const FrontendError& e) {
    EXPECT_EQ(e.path(), path);
    return e.what();
  }
  return "(no FrontendError)";
}

TEST(FrontendRegistry, TableListsOnnx) {
  auto table = frontend_table();
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(table[0].name, "onnx");
  EXPECT_FALSE(table[0].summary.empty());
  EXPECT_EQ(table[0].make()->name(), "onnx");
}

TEST(FrontendRegistry, MissingPath) {
  TempDir dir;
  EXPECT_EQ(error_of(dir.file("nope.onnx")), dir.file("nope.onnx") + ": no such file; check the path");
}

TEST(FrontendRegistry, Directory) {
  TempDir dir;
  EXPECT_EQ(error_of(dir.path().string()),
            dir.path().string() + ": is a directory; pass a model file such as model.onnx (or an .mlpackage or SavedModel folder)");
}

TEST(FrontendRegistry, EmptyFile) {
  TempDir dir;
  ec::testing::write_bytes(dir.file("e.onnx"), "");
  EXPECT_EQ(error_of(dir.file("e.onnx")), dir.file("e.onnx") + ": file is empty (0 bytes); it is not a model");
}

TEST(FrontendRegistry, RandomBytesListWhatWasTried) {
  TempDir dir;
  std::string random;
  std::uint32_t s = 99;
  for (int i = 0; i < 10000; ++i) {
    s = s * 1664525u + 1013904223u;
    random.push_back(static_cast<char>(s >> 24));
  }
  ec::testing::write_bytes(dir.file("r.onnx"), random);
  EXPECT_EQ(error_of(dir.file("r.onnx")),
            dir.file("r.onnx") +
                ": not a model file this tool can read (onnx: no ONNX protobuf header found; "
                "tflite: no 'TFL3' file identifier; eir: text does not start with 'graph \"'; "
                "coreml: no Manifest.json folder (.mlpackage) nor Model protobuf (.mlmodel); "
                "torchscript: no TorchScript zip archive (code/ and constants.pkl); "
                "keras: no .keras zip (config.json) nor HDF5 signature; savedmodel: no saved_model.pb); "
                "supported: .onnx, .tflite, .eir, .mlpackage, .mlmodel, .pt, .pth, .torchscript, .keras, .h5, "
                ".hdf5, SavedModel folders (saved_model.pb)");
  ec::testing::write_bytes(dir.file("notes.txt"), "just some text\n");
  EXPECT_NE(error_of(dir.file("notes.txt")).find("not a model file this tool can read"), std::string::npos);
}

TEST(FrontendRegistry, InputShapeHints) {
  ModelHints h;
  parse_input_shape("x=1,3,224,224", h);
  parse_input_shape("2,5", h);
  EXPECT_EQ(h.input_shapes.at("x"), (std::vector<std::int64_t>{1, 3, 224, 224}));
  EXPECT_EQ(h.input_shapes.at(""), (std::vector<std::int64_t>{2, 5}));
  for (const char* bad : {"x=", "x=1,,2", "x=1,-2", "x=a", "x=0", "x=1,2,3,4,5,6,7,8,9"}) {
    ModelHints g;
    EXPECT_THROW(parse_input_shape(bad, g), EdgeCompilerError) << bad;
  }
  EXPECT_THROW(parse_input_shape("x=3", h), EdgeCompilerError);  // twice for x
  parse_input_shape("ids=1,12:int64", h);
  EXPECT_EQ(h.input_shapes.at("ids"), (std::vector<std::int64_t>{1, 12}));
  EXPECT_EQ(h.input_dtypes.at("ids"), "i64");
  ModelHints g;
  EXPECT_THROW(parse_input_shape("ids=1,12:int7", g), EdgeCompilerError);
}

TEST(FrontendRegistry, PatternsComeFromTheTable) {
  const std::string p = model_file_patterns();
  for (const auto& e : frontend_table()) {
    EXPECT_NE(p.find(std::string(e.patterns)), std::string::npos) << e.name;
    EXPECT_FALSE(e.no_match.empty()) << e.name;
  }
}

}  // namespace
}  // namespace ec::frontends
