// .npy round trips and refusals.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "core/util/npy.h"

namespace ec::util {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ec_npy_" + std::to_string(::getpid()) + "_" + name)).string();
}

template <typename T>
void round_trip(ir::DType dt, std::vector<std::int64_t> shape, std::vector<T> values) {
  const auto p = temp_path("rt.npy");
  write_npy(p, dt, shape, values.data());
  const NpyArray a = read_npy(p);
  EXPECT_EQ(a.dtype, dt);
  EXPECT_EQ(a.shape, shape);
  ASSERT_EQ(a.data.size(), values.size() * sizeof(T));
  EXPECT_EQ(0, std::memcmp(a.data.data(), values.data(), a.data.size()));
  std::filesystem::remove(p);
}

TEST(Npy, RoundTripsEveryType) {
  round_trip<float>(ir::DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6});
  round_trip<double>(ir::DType::Float64, {1}, {3.5});
  round_trip<std::int64_t>(ir::DType::Int64, {3}, {-1, 0, 1LL << 40});
  round_trip<std::int32_t>(ir::DType::Int32, {}, {7});
  round_trip<std::int8_t>(ir::DType::Int8, {2, 1}, {-128, 127});
  round_trip<std::uint8_t>(ir::DType::UInt8, {0, 4}, {});
  round_trip<std::uint8_t>(ir::DType::Bool, {2}, {0, 1});
  // f16 as bit patterns (1.0, -2.0); u32/u64 beyond the signed range; complex as (re, im) pairs.
  round_trip<std::uint16_t>(ir::DType::Float16, {2}, {0x3c00, 0xc000});
  round_trip<std::int16_t>(ir::DType::Int16, {1}, {-32768});
  round_trip<std::uint16_t>(ir::DType::UInt16, {1}, {65535});
  round_trip<std::uint32_t>(ir::DType::UInt32, {2}, {0xffffffffu, 1});
  round_trip<std::uint64_t>(ir::DType::UInt64, {2}, {~0ULL, 1ULL << 63});
  round_trip<float>(ir::DType::Complex64, {1}, {1.5f, -2.5f});
  round_trip<double>(ir::DType::Complex128, {1}, {1.5, -2.5});
}

TEST(Npy, ReadsNumpyWrittenFile) {
  // Header exactly as numpy 1.x writes it for np.arange(3, dtype='<i8').
  std::string dict = "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }";
  dict.append(128 - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string file = std::string("\x93NUMPY\x01\x00", 8) + char(dict.size()) + char(0) + dict;
  const std::int64_t v[3] = {0, 1, 2};
  file.append(reinterpret_cast<const char*>(v), sizeof v);
  const auto p = temp_path("np.npy");
  std::ofstream(p, std::ios::binary) << file;
  const auto a = read_npy(p);
  EXPECT_EQ(a.shape, std::vector<std::int64_t>{3});
  EXPECT_EQ(a.data.as<std::int64_t>()[2], 2);
  std::filesystem::remove(p);
}

void expect_refused(const std::string& header, const std::string& needle) {
  std::string dict = header;
  dict.append(128 - 10 - dict.size() - 1, ' ');
  dict += '\n';
  const auto p = temp_path("bad.npy");
  std::ofstream(p, std::ios::binary) << std::string("\x93NUMPY\x01\x00", 8) + char(dict.size()) + char(0) + dict +
                                            std::string(64, '\0');
  try {
    read_npy(p);
    FAIL() << "expected a refusal for " << header;
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
  std::filesystem::remove(p);
}

TEST(Npy, RefusesFortranBigEndianAndTruncated) {
  expect_refused("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", "Fortran");
  expect_refused("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", "big-endian");
  expect_refused("{'descr': '<U4', 'fortran_order': False, 'shape': (2,), }", "unsupported dtype");
  // Shapes whose element count or byte size overflow: refused, never wrapped to a small size.
  expect_refused("{'descr': '<f4', 'fortran_order': False, 'shape': (288230376151711744, 1, 28, 28), }",
                 "bad shape");
  expect_refused("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }", "bad shape");
  expect_refused("{'descr': '<f4', 'fortran_order': False, 'shape': (100,), }", "truncated");
  EXPECT_THROW(read_npy(temp_path("missing.npy")), EdgeCompilerError);
}

TEST(Npy, RefusesDirectoriesAndDevices) {
  const auto dir = temp_path("a_dir.npy");
  std::filesystem::create_directories(dir);
  for (const std::string& p : {std::string(dir), std::string("/dev/zero")}) {
    try {
      read_npy(p);
      FAIL() << "expected a refusal for " << p;
    } catch (const EdgeCompilerError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Io);
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove(dir);
}

}  // namespace
}  // namespace ec::util
