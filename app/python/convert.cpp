#include "app/python/convert.h"

#include "core/errors.h"
#include "core/ir/excerpt.h"

namespace ec::python {
namespace {

struct DTypeRow {
  ir::DType ir;
  const char* numpy;
};
// The dtypes NumPy and the IR share (core/util/npy.h reads and writes the same set).
constexpr DTypeRow kDTypes[] = {
    {ir::DType::Float32, "float32"},     {ir::DType::Float16, "float16"},
    {ir::DType::Float64, "float64"},     {ir::DType::Int8, "int8"},
    {ir::DType::Int16, "int16"},         {ir::DType::Int32, "int32"},
    {ir::DType::Int64, "int64"},         {ir::DType::UInt8, "uint8"},
    {ir::DType::UInt16, "uint16"},       {ir::DType::UInt32, "uint32"},
    {ir::DType::UInt64, "uint64"},       {ir::DType::Bool, "bool"},
    {ir::DType::Complex64, "complex64"}, {ir::DType::Complex128, "complex128"},
};

// Keeps a Python object alive from C++ storage that may be released on any thread.
std::shared_ptr<const void> hold(py::object o) {
  return std::shared_ptr<const void>(new py::object(std::move(o)), [](const void* p) {
    py::gil_scoped_acquire gil;
    delete static_cast<const py::object*>(p);
  });
}

}  // namespace

py::object numpy_dtype(ir::DType t) {
  for (const auto& r : kDTypes)
    if (r.ir == t) return py::dtype(r.numpy);
  return py::none();
}

ir::DType ir_dtype(const py::dtype& d) {
  // Read from the descriptor itself (kind, size, byte order): run() converts every input.
  const char order = d.byteorder();
  if (order == '>' || order == '!')
    return ir::DType::Undefined;  // '=' native, '|' not applicable, '<' little
  const auto size = d.itemsize();
  switch (d.kind()) {
    case 'f':
      return size == 4   ? ir::DType::Float32
             : size == 2 ? ir::DType::Float16
             : size == 8 ? ir::DType::Float64
                         : ir::DType::Undefined;
    case 'i':
      return size == 1   ? ir::DType::Int8
             : size == 2 ? ir::DType::Int16
             : size == 4 ? ir::DType::Int32
             : size == 8 ? ir::DType::Int64
                         : ir::DType::Undefined;
    case 'u':
      return size == 1   ? ir::DType::UInt8
             : size == 2 ? ir::DType::UInt16
             : size == 4 ? ir::DType::UInt32
             : size == 8 ? ir::DType::UInt64
                         : ir::DType::Undefined;
    case 'b':
      return size == 1 ? ir::DType::Bool : ir::DType::Undefined;
    case 'c':
      return size == 8    ? ir::DType::Complex64
             : size == 16 ? ir::DType::Complex128
                          : ir::DType::Undefined;
    default:
      return ir::DType::Undefined;
  }
}

util::NpyArray array_view(const py::handle& obj, const std::string& what) {
  py::array a = py::array::ensure(obj);
  if (!a) {
    PyErr_Clear();
    throw EdgeCompilerError(ErrorKind::Input,
                            what + ": expected a numpy array, got " +
                                std::string(py::str(py::type::handle_of(obj).attr("__name__"))));
  }
  util::NpyArray out;
  out.dtype = ir_dtype(a.dtype());
  if (out.dtype == ir::DType::Undefined)
    throw EdgeCompilerError(ErrorKind::Input,
                            what + ": numpy dtype " + std::string(py::str(a.dtype())) +
                                " is not a tensor type edgecompiler runs (float32, float16, "
                                "int8, uint8, int32, int64, bool, ...)");
  if (!(a.flags() & py::array::c_style) || !(a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_))
    a = py::array::ensure(
        a, py::array::c_style | py::array::forcecast);  // a C-ordered copy, same dtype
  out.shape.assign(a.shape(), a.shape() + a.ndim());
  const auto* data = static_cast<const std::byte*>(a.data());
  const auto bytes = static_cast<std::size_t>(a.nbytes());
  out.data = ir::ConstantData(hold(a), data, bytes);
  return out;
}

runtime::Tensor tensor_from_array(const py::handle& obj, const std::string& what) {
  util::NpyArray a = array_view(obj, what);
  return runtime::Tensor::from_constant(a.dtype, std::move(a.shape), a.data);
}

py::array array_from_tensor(runtime::Tensor t) {
  py::object dt = numpy_dtype(t.dtype());
  if (dt.is_none())
    throw EdgeCompilerError(ErrorKind::Input,
                            "a " + t.type_string() + " tensor has no numpy dtype");
  auto* keep = new runtime::Tensor(std::move(t));
  py::capsule owner(keep, [](void* p) { delete static_cast<runtime::Tensor*>(p); });
  std::vector<py::ssize_t> shape(keep->shape().begin(), keep->shape().end());
  py::array a(py::dtype::from_args(dt), shape, static_cast<const void*>(keep->raw()), owner);
  if (!keep->writable())
    py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

std::map<std::string, runtime::Tensor> tensors_from_dict(const py::dict& feeds) {
  std::map<std::string, runtime::Tensor> out;
  for (const auto& [k, v] : feeds) {
    if (!py::isinstance<py::str>(k))
      throw EdgeCompilerError(ErrorKind::Input,
                              "inputs are named: give a dict {name: numpy array}");
    const std::string name = k.cast<std::string>();
    out.emplace(name, tensor_from_array(v, "input '" + name + "'"));
  }
  return out;
}

py::dict dict_from_tensors(std::map<std::string, runtime::Tensor> tensors) {
  py::dict out;
  for (auto& [name, t] : tensors) out[py::str(name)] = array_from_tensor(std::move(t));
  return out;
}

py::object shape_tuple(const ir::Shape& s) {
  if (!s.rank_known) return py::none();
  py::tuple t(s.dims.size());
  for (std::size_t i = 0; i < s.dims.size(); ++i) {
    const auto& d = s.dims[i];
    t[i] = d.is_static()      ? py::object(py::int_(d.value))
           : d.symbol.empty() ? py::object(py::none())
                              : py::object(py::str(d.symbol));
  }
  return t;
}

py::object from_json(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return py::none();
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<py::ssize_t>(s.size()), "replace");
      if (!o) throw py::error_already_set();
      return py::reinterpret_steal<py::object>(o);
    }
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& e : j) l.append(from_json(e));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = from_json(v);
      return d;
    }
    default:
      return py::none();  // binary, discarded: never in the core's JSON
  }
}

namespace {

struct ErrorClasses {
  PyObject* base = nullptr;
  std::map<ErrorKind, PyObject*> by_kind;
};
ErrorClasses& error_classes() {
  static ErrorClasses c;
  return c;
}

PyObject* new_error(py::module_& m, const char* name, const char* doc,
                    std::vector<PyObject*> bases) {
  py::tuple b(bases.size());
  for (std::size_t i = 0; i < bases.size(); ++i)
    b[i] = py::reinterpret_borrow<py::object>(bases[i]);
  const std::string qualified = std::string("edgecompiler.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, b.ptr(), nullptr);
  if (!cls) throw py::error_already_set();
  m.add_object(name, py::reinterpret_borrow<py::object>(cls));
  return cls;
}

void raise(PyObject* cls, const EdgeCompilerError& e) {
  // The line `edgecompile` prints after "edgecompile: error: " (main.cpp's one_line).
  const std::string msg = bounded_message(e.what(), 200);
  py::object exc = py::reinterpret_borrow<py::object>(cls)(py::str(msg));
  exc.attr("detail") = py::str(e.detail());
  PyErr_SetObject(cls, exc.ptr());
}

}  // namespace

void register_errors(py::module_& m) {
  auto& c = error_classes();
  c.base =
      new_error(m, "Error",
                "Base of every error edgecompiler reports: str(e) is the one line the CLI prints; "
                "e.detail the longer explanation (--verbose).",
                {PyExc_Exception});
  c.by_kind[ErrorKind::Frontend] =
      new_error(m, "FrontendError",
                "A model file no frontend could open, or that a frontend refused.", {c.base});
  c.by_kind[ErrorKind::UnsupportedOp] = new_error(
      m, "UnsupportedError", "An op a frontend, the runtime or a backend cannot handle.", {c.base});
  c.by_kind[ErrorKind::Quantization] =
      new_error(m, "QuantizationError", "Quantisation was refused or failed.", {c.base});
  c.by_kind[ErrorKind::Backend] = new_error(
      m, "BackendError",
      "A backend or target runtime is not available (the reason says why) or could not compile.",
      {c.base});
  m.add_object("BackendUnavailableError",
               py::reinterpret_borrow<py::object>(c.by_kind[ErrorKind::Backend]));
  c.by_kind[ErrorKind::Graph] =
      new_error(m, "GraphError", "A graph that breaks the IR's invariants.", {c.base});
  c.by_kind[ErrorKind::Io] =
      new_error(m, "IoError", "A file that cannot be read or written.", {c.base, PyExc_OSError});
  c.by_kind[ErrorKind::Usage] =
      new_error(m, "UsageError",
                "A wrong request: an unknown target, strategy or pass, a value out of range.",
                {c.base, PyExc_ValueError});
  c.by_kind[ErrorKind::Input] = new_error(
      m, "InputError",
      "Data that does not fit the model: a wrong input name, dtype or shape, bad calibration data.",
      {c.base, PyExc_ValueError});

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const EdgeCompilerError& e) {
      raise(error_classes().by_kind.at(e.kind()), e);
    }
  });
}

}  // namespace ec::python
