// Reads a file of core/devices/test/data (the recorded inputs; data/README.md says where each comes from).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

inline std::string read_test_data(const std::string& name) {
  std::ifstream f(std::string(EC_DEVICES_TESTDATA) + "/" + name);
  std::stringstream s;
  s << f.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}
