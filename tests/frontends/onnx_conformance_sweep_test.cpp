// Conformance sweep: import every model of Debian's libonnx-testdata (node and
// pytorch-converted) with allow_unknown_ops=false. Each model must import
// cleanly or be refused for a clear reason (unsupported op, opset that cannot
// be upgraded, unsupported type, control flow). Anything else — a crash, a
// validation error after import, a parse failure — fails the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/ir/validate.h"

namespace ec::frontends {
namespace {

namespace fs = std::filesystem;

const char* const kSweepDirs[] = {
    "/usr/share/libonnx-testdata/data/node",
    "/usr/share/libonnx-testdata/data/pytorch-converted",
};

enum class Outcome { Imported, UnsupportedOp, ControlFlow, Opset, Type, Failure };

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Imported: return "imported cleanly";
    case Outcome::UnsupportedOp: return "refused: unsupported op";
    case Outcome::ControlFlow: return "refused: control flow";
    case Outcome::Opset: return "refused: opset cannot be upgraded";
    case Outcome::Type: return "refused: unsupported type";
    case Outcome::Failure: return "FAILURE";
  }
  return "?";
}

TEST(OnnxConformanceSweep, EveryModelImportsOrIsRefusedClearly) {
  std::vector<fs::path> models;
  for (const char* dir : kSweepDirs) {
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir))
      if (fs::is_regular_file(entry.path() / "model.onnx")) models.push_back(entry.path() / "model.onnx");
  }
  if (models.empty()) GTEST_SKIP() << "libonnx-testdata is not installed";
  std::sort(models.begin(), models.end());

  OpenOptions opts;
  opts.allow_unknown_ops = false;
  std::map<Outcome, int> counts;
  std::map<std::string, int> refused_ops;    // op type -> models refused for it
  std::map<std::string, int> refused_other;  // first words of opset/type refusals
  std::map<std::string, int> warnings;       // validation warning -> occurrences
  std::vector<std::string> failures;
  for (const auto& path : models) {
    const std::string case_name = path.parent_path().filename().string();
    Outcome outcome = Outcome::Imported;
    try {
      ir::Graph g = open_model(path.string(), opts);
      // Warnings do not fail the sweep, but a schema gap shows up here.
      for (const auto& issue : ir::validate(g))
        if (issue.severity == ir::ValidationIssue::Severity::Warning) ++warnings[issue.message];
    } catch (const UnsupportedOpError& e) {
      if (e.suggestion().rfind("control flow", 0) == 0) {
        outcome = Outcome::ControlFlow;
        ++refused_ops[e.op_type() + " (control flow)"];
      } else {
        outcome = Outcome::UnsupportedOp;
        ++refused_ops[e.op_type()];
      }
    } catch (const FrontendError& e) {
      const std::string& r = e.reason();
      if (r.rfind("opset ", 0) == 0 && r.find("cannot be upgraded") != std::string::npos) {
        outcome = Outcome::Opset;
        ++refused_other[r.substr(0, r.find(':'))];
      } else if (r.rfind("unsupported type: ", 0) == 0) {
        outcome = Outcome::Type;
        ++refused_other[r.substr(0, r.find(" (", 18))];
      } else {
        outcome = Outcome::Failure;
        failures.push_back(case_name + ": " + e.what());
      }
    } catch (const std::exception& e) {
      outcome = Outcome::Failure;
      failures.push_back(case_name + ": unexpected exception: " + e.what());
    } catch (...) {
      outcome = Outcome::Failure;
      failures.push_back(case_name + ": unexpected non-standard exception");
    }
    ++counts[outcome];
  }

  std::cout << "\nONNX conformance sweep: " << models.size() << " models\n";
  for (const auto& [o, n] : counts) std::cout << "  " << std::left << std::setw(36) << outcome_name(o) << n << "\n";
  if (!refused_ops.empty()) {
    std::cout << "  refused op types (models):\n";
    for (const auto& [op, n] : refused_ops) std::cout << "    " << std::left << std::setw(34) << op << n << "\n";
  }
  if (!refused_other.empty()) {
    std::cout << "  other refusals (models):\n";
    for (const auto& [r, n] : refused_other) std::cout << "    " << std::left << std::setw(34) << r << n << "\n";
  }
  if (!warnings.empty()) {
    std::cout << "  validation warnings on imported graphs (occurrences):\n";
    for (const auto& [w, n] : warnings) std::cout << "    " << w << ": " << n << "\n";
  }
  for (const auto& f : failures) ADD_FAILURE() << f;
  EXPECT_TRUE(failures.empty()) << failures.size() << " models failed without a clear refusal";
}

}  // namespace
}  // namespace ec::frontends
