// Conversions between Python objects and the core's values: NumPy arrays <->
// runtime tensors (dtypes kept; zero-copy for C-contiguous inputs and for outputs),
// nlohmann::json -> dict/list, and the core's errors -> Python exceptions.
// Conversions only: what a value means is decided by the core.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/ir/dtype.h"
#include "core/ir/shape.h"
#include "core/runtime/tensor.h"
#include "core/util/npy.h"

namespace ec::python {

namespace py = pybind11;

/// The NumPy dtype of an IR dtype; None for one NumPy has no type for (bf16, int4, string).
py::object numpy_dtype(ir::DType t);
/// The IR dtype of a NumPy dtype (native byte order); Undefined for one the IR has not.
ir::DType ir_dtype(const py::dtype& d);

/// An array's bytes as an NpyArray: a view when `a` is C-contiguous in native byte order
/// (kept alive by a reference to it), else a C-ordered copy; its dtype kept. Throws
/// EdgeCompilerError (Input) naming `what` for a dtype the IR has not.
util::NpyArray array_view(const py::handle& a, const std::string& what);
/// The same as a runtime tensor.
runtime::Tensor tensor_from_array(const py::handle& a, const std::string& what);
/// A NumPy array over `t`'s bytes (no copy; read-only when `t` is).
py::array array_from_tensor(runtime::Tensor t);
/// {name: ndarray} -> {name: Tensor}.
std::map<std::string, runtime::Tensor> tensors_from_dict(const py::dict& feeds);
/// {name: Tensor} -> {name: ndarray}.
py::dict dict_from_tensors(std::map<std::string, runtime::Tensor> tensors);

/// A shape as a tuple: static dims as ints, named dynamic dims as their names, unknown
/// dims as None; None for an unknown rank.
py::object shape_tuple(const ir::Shape& s);

/// JSON as Python values (dict, list, str, int, float, bool, None).
py::object from_json(const nlohmann::json& j);

/// Registers ec.Error and its subclasses on `m` and translates the core's exceptions
/// into them: the message is the line the CLI prints after "edgecompile: error: ".
void register_errors(py::module_& m);

}  // namespace ec::python
