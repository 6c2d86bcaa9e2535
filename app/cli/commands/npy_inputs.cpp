#include "app/cli/commands/npy_inputs.h"

#include "core/errors.h"
#include "core/util/npy.h"

namespace ec::cli {

std::map<std::string, runtime::Tensor> read_npy_inputs(const std::vector<std::string>& specs) {
  std::map<std::string, runtime::Tensor> feeds;
  for (const auto& spec : specs) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw EdgeCompilerError(ErrorKind::Usage, "--input '" + spec + "': expected NAME=FILE.npy");
    const std::string name = spec.substr(0, eq), path = spec.substr(eq + 1);
    if (feeds.count(name)) throw EdgeCompilerError(ErrorKind::Usage, "--input '" + name + "' is given twice");
    const util::NpyArray a = util::read_npy(path);
    feeds[name] = runtime::Tensor::from_constant(a.dtype, a.shape, a.data);
  }
  return feeds;
}

}  // namespace ec::cli
