// edgecompiler._core: the Python face of the core library (app/python/README.md).
// A thin binding: every function calls the flow the CLI runs (core/flows, the
// runtime's InferenceSession and benchmark runner, core/history); what it adds is
// conversion (numpy, dicts), the GIL released while the core works, and Ctrl-C
// turned into KeyboardInterrupt through the core's progress callbacks.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "app/python/convert.h"
#include "core/backends/backend_registry.h"
#include "core/compare/compare.h"
#include "core/errors.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"
#include "core/history/compare.h"
#include "core/history/run_json.h"
#include "core/history/run_store.h"
#include "core/ir/algorithms.h"
#include "core/ir/text_format.h"
#include "core/passes/graph_diff.h"
#include "core/session/benchmark.h"
#include "core/session/session.h"
#include "core/runtime/stats.h"

namespace py = pybind11;

namespace ec::python {
namespace {

// ---- Ctrl-C -------------------------------------------------------------------------

// Polls for Ctrl-C from the core's progress callbacks, which run without the GIL and
// possibly on worker threads: at most every 50 ms it takes the GIL and asks Python
// whether a signal arrived. A KeyboardInterrupt (or whatever a handler raised) is kept
// and the callback answers false, so the core stops ("cancelled"); interruptible()
// then raises the kept exception instead.
class Interrupt {
 public:
  bool keep_going() {
    if (fired_.load()) return false;
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    auto last = last_.load();
    if (now - last < std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::milliseconds(50))
                         .count() ||
        !last_.compare_exchange_strong(last, now))
      return true;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() == 0) return true;
    PyErr_Fetch(&type_, &value_, &traceback_);
    fired_ = true;
    return false;
  }
  quantize::ProgressFn stage_progress() {
    return [this](const std::string&, int, int) { return keep_going(); };
  }
  std::function<bool(int, int)> run_progress() {
    return [this](int, int) { return keep_going(); };
  }
  // Runs `f` without the GIL; re-raises a kept signal's exception (GIL held again).
  template <class F>
  auto run(F&& f) {
    try {
      py::gil_scoped_release nogil;
      return f();
    } catch (const EdgeCompilerError&) {
      if (!fired_) throw;
      PyErr_Restore(type_, value_, traceback_);
      throw py::error_already_set();
    }
  }

 private:
  std::atomic<bool> fired_{false};
  std::atomic<std::chrono::steady_clock::rep> last_{0};
  PyObject *type_ = nullptr, *value_ = nullptr, *traceback_ = nullptr;
};

// ---- values -------------------------------------------------------------------------

// A graph input or output as the model declares it.
struct TensorSpec {
  std::string name;
  ir::DType dtype = ir::DType::Undefined;
  ir::Shape shape;
};

py::object spec_dtype(ir::DType t) {
  py::object d = numpy_dtype(t);
  return d.is_none() ? py::object(py::str(std::string(ir::dtype_name(t)))) : d;
}

std::vector<TensorSpec> specs(const ir::Graph& g, const std::vector<std::string>& names) {
  std::vector<TensorSpec> out;
  for (const auto& n : names) {
    const ir::Tensor* t = g.find_tensor(n);
    out.push_back(
        {n, t ? t->dtype : ir::DType::Undefined, t ? t->shape : ir::Shape::unknown_rank()});
  }
  return out;
}

std::vector<TensorSpec> specs(const std::vector<runtime::TensorInfo>& infos) {
  std::vector<TensorSpec> out;
  for (const auto& i : infos) out.push_back({i.name, i.dtype, i.shape});
  return out;
}

// A model opened by the frontends (or made by optimize/quantize/compile): an immutable graph.
struct Model {
  ir::FrozenGraph graph;
  std::string path;    // what reports call it
  std::string format;  // what the frontend registry read it as ("" for a graph made here)
};

Model load_model(const std::string& path, const frontends::OpenOptions& options = {}) {
  Model m;
  m.path = path;
  m.graph = std::make_shared<const ir::Graph>(frontends::open_model(path, options, &m.format));
  return m;
}

// A model argument: a Model, or a path (str or os.PathLike).
std::string path_of(const py::object& o) {
  return py::str(py::module_::import("os").attr("fspath")(o));
}

flows::ModelRef model_ref(const py::object& arg) {
  if (py::isinstance<Model>(arg)) {
    const Model& m = arg.cast<const Model&>();
    return {m.path, m.graph.get()};
  }
  return {path_of(arg), nullptr};
}

// calibration_data: None, a path, one ndarray (a single-input model) or {input: ndarray}.
flows::CalibrationSource calibration_source(const py::object& data) {
  flows::CalibrationSource src;
  if (data.is_none()) return src;
  if (py::isinstance<py::str>(data) || py::hasattr(data, "__fspath__")) {
    src.path = path_of(data);
    return src;
  }
  if (py::isinstance<py::dict>(data)) {
    for (const auto& [k, v] : data.cast<py::dict>()) {
      const std::string name = py::str(k);
      const std::string what = "calibration_data['" + name + "']";
      src.arrays.push_back({name, what, array_view(v, what)});
    }
    if (src.arrays.empty())
      throw EdgeCompilerError(
          ErrorKind::Input,
          "calibration_data: an empty dict; give {input name: array of (N, ...) samples}");
    return src;
  }
  src.arrays.push_back({"", "calibration_data", array_view(data, "calibration_data")});
  return src;
}

std::string optional_str(const std::optional<std::string>& s) { return s.value_or(""); }

// ---- compile ------------------------------------------------------------------------

struct CompileResult {
  report::CompileReport report;
  nlohmann::json json;
  std::string strategy;
  Model model;  // the graph the backend compiled
};

CompileResult compile(const py::object& model, const std::string& target,
                      const std::optional<std::string>& quantize,
                      const py::object& calibration_data, int num_calibration_samples,
                      double calibration_percentile, int num_segments,
                      const std::optional<std::string>& output,
                      const std::optional<std::string>& precision,
                      const std::optional<std::string>& compute_units,
                      const std::optional<std::string>& deployment_target) {
  flows::CompileOptions o;
  o.target = target;
  o.quantize = optional_str(quantize);
  o.calibration = calibration_source(calibration_data);
  o.num_calibration_samples = num_calibration_samples;
  o.calibration_percentile = calibration_percentile;
  o.num_segments = num_segments;
  o.output = optional_str(output);
  o.precision = optional_str(precision);
  o.compute_units = optional_str(compute_units);
  o.deployment_target = optional_str(deployment_target);
  const auto ref = model_ref(model);
  Interrupt interrupt;
  auto out = interrupt.run([&] { return flows::compile(ref, o, interrupt.stage_progress()); });
  flows::check_artefact_written(o, out.run.report);
  CompileResult r;
  r.model = {std::make_shared<const ir::Graph>(std::move(out.run.graph)), ref.path, ""};
  r.report = std::move(out.run.report);
  r.json = std::move(out.report);
  r.strategy = std::move(out.strategy);
  return r;
}

// ---- runtime ------------------------------------------------------------------------

struct Session {
  explicit Session(int threads) {
    if (threads < 0)
      throw EdgeCompilerError(ErrorKind::Usage, "threads must be 0 (every core) or more");
    options.threads = threads;
    session = std::make_unique<runtime::InferenceSession>(options);
  }
  runtime::SessionOptions options;
  std::unique_ptr<runtime::InferenceSession> session;
  std::mutex busy;  // one call at a time per session (the GIL is not held while it runs)
  double init_ms = 0;

  runtime::InferenceSession& loaded() {
    if (!session->loaded())
      throw EdgeCompilerError(ErrorKind::Usage, "no model loaded (the session was closed)");
    return *session;
  }
  void load(const py::object& model, const std::string& target) {
    ir::FrozenGraph graph;
    std::string path;
    if (py::isinstance<Model>(model)) {
      graph = model.cast<const Model&>().graph;
      if (target != "cpu")
        throw EdgeCompilerError(
            ErrorKind::Usage,
            "target '" + target +
                "' runs a compiled artefact: give its path (a Model runs on target 'cpu')");
    } else {
      path = path_of(model);
    }
    py::gil_scoped_release nogil;
    std::lock_guard lock(busy);
    const auto start = std::chrono::steady_clock::now();
    if (graph)
      session->load(graph);
    else
      backends::load_on_target(*session, path, target);
    init_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
};

py::dict run(Session& s, const py::object& feeds) {
  if (!py::isinstance<py::dict>(feeds))
    throw EdgeCompilerError(ErrorKind::Input, "run() takes a dict {input name: numpy array}");
  auto inputs = tensors_from_dict(feeds.cast<py::dict>());
  std::map<std::string, runtime::Tensor> outputs;
  {
    py::gil_scoped_release nogil;
    std::lock_guard lock(s.busy);
    outputs = s.loaded().run(inputs);
  }
  return dict_from_tensors(std::move(outputs));
}

runtime::Stats benchmark(Session& s, int iterations, int warmup, const py::object& feeds,
                         bool profile) {
  std::map<std::string, runtime::Tensor> inputs;
  if (!feeds.is_none()) {
    if (!py::isinstance<py::dict>(feeds))
      throw EdgeCompilerError(ErrorKind::Input,
                              "benchmark(inputs=...) takes a dict {input name: numpy array}");
    inputs = tensors_from_dict(feeds.cast<py::dict>());
  }
  Interrupt interrupt;
  runtime::BenchmarkOptions bo;
  bo.iterations = iterations;
  bo.warmup = warmup;
  bo.profile = profile;
  bo.progress = interrupt.run_progress();
  auto stats = interrupt.run([&] {
    std::lock_guard lock(s.busy);
    auto& session = s.loaded();
    if (inputs.empty())
      inputs = session.random_inputs(0);  // as `edgecompile bench` without --input
    return runtime::run_benchmark(session, inputs, bo);
  });
  stats.init_ms = s.init_ms;
  return stats;
}

// ---- run history --------------------------------------------------------------------

history::RunStore open_history(const std::optional<std::string>& db) {
  return history::RunStore(history::db_path_or_default(optional_str(db)),
                           history::RunStore::Access::ReadOnly);
}

// ---- docstrings ---------------------------------------------------------------------

constexpr const char* kCompileDoc =
    R"(Compile a model for a target: the flow `edgecompile compile` runs.

Passes, quantisation (when the target needs it or `quantize` asks), partition,
fallback, artefact and estimate, exactly as the CLI and the workbench do it.

Args:
    model: a path (any format ec.load reads) or a Model.
    target: a backend of this build ({targets}) or "auto" (the attached device's
        backend, else the backend writing the `output` file type, else cpu).
    quantize: "ptq", "qat", "dynamic", a mode of the target's own ("weights-int8" for
        Core ML) or "none"; None = the target's default (ptq for a float model on a
        target that needs 8-bit tensors, else none).
    calibration_data: calibration samples for ptq: a .npy path (N samples on axis 0),
        a directory of NAME.npy, one ndarray of shape (N, ...) for a single-input
        model, or {input name: ndarray}. Arrays must have the input's dtype.
    num_calibration_samples: use at most this many samples (default 100).
    calibration_percentile: activation range percentile (100 = min/max).
    num_segments: Edge TPU segments allowed (default 1).
    output: write the artefact here (the target's file type: .tflite, .mlpackage, ...);
        None = partition and estimate only.
    precision, compute_units, deployment_target: for the targets that take them (see
        `edgecompile compile --help`).

Returns:
    CompileResult: output_path, backend, ops_on_target, ops_fallback, partition, ops,
    backend_timeline, estimate, report (the CompileReport as `--json` prints it), model.

Raises:
    UsageError (unknown target or strategy), InputError (calibration data that does
    not fit), FrontendError (a model file refused), QuantizationError, BackendError.
    Ctrl-C raises KeyboardInterrupt; nothing half-written is left.)";

// kCompileDoc with {targets} replaced by the backend table's names (a new target needs
// no line here); kept for the module's lifetime, as pybind11 keeps the pointer.
const std::string& compile_doc() {
  static const std::string doc = [] {
    std::string names;
    for (const auto& e : backends::backend_table()) names += (names.empty() ? "\"" : ", \"") + std::string(e.name) + "\"";
    std::string d = kCompileDoc;
    d.replace(d.find("{targets}"), 9, names);
    return d;
  }();
  return doc;
}

constexpr const char* kSessionDoc =
    R"(Runs a model: the CPU runtime of `edgecompile run`, or a target's runtime.

    with ec.InferenceSession("model.onnx", threads=1) as s:
        y = s.run({"input": x})            # {name: ndarray}, dtypes kept
        stats = s.benchmark(iterations=100)

`target` is "cpu" (any model) or a target whose backend runs its artefacts on a device
(an *_edgetpu.tflite through libedgetpu on an Edge TPU); a target that is not
available raises BackendError with the reason. The GIL is
released while the session works, so sessions in different threads run in parallel.)";

}  // namespace
}  // namespace ec::python

PYBIND11_MODULE(_core, m) {
  using namespace ec;
  using namespace ec::python;
  m.doc() =
      "edgecompiler's core library: load, optimize, quantize and compile models, run and benchmark "
      "them.";
  register_errors(m);

  py::class_<TensorSpec>(m, "TensorSpec",
                         "A graph input or output: name, dtype (numpy dtype), shape (ints; a named "
                         "dynamic dim as its name, an unknown one as None).")
      .def_readonly("name", &TensorSpec::name)
      .def_property_readonly("dtype", [](const TensorSpec& t) { return spec_dtype(t.dtype); })
      .def_property_readonly("shape", [](const TensorSpec& t) { return shape_tuple(t.shape); })
      .def("__repr__", [](const TensorSpec& t) {
        return "TensorSpec('" + t.name + "', " + std::string(ir::dtype_name(t.dtype)) +
               t.shape.to_string() + ")";
      });

  py::class_<Model>(m, "Model",
                    "A model as the IR holds it (immutable). Made by ec.load, ec.optimize, "
                    "ec.quantize, ec.compile.")
      .def_readonly("path", &Model::path, "What reports call the model (its path).")
      .def_readonly("format", &Model::format,
                    "The format the frontend read (\"\" for a graph made in this process).")
      .def_property_readonly("name", [](const Model& mo) { return mo.graph->name; })
      .def_property_readonly(
          "inputs", [](const Model& mo) { return specs(*mo.graph, mo.graph->inputs); },
          "The graph inputs (list of TensorSpec).")
      .def_property_readonly(
          "outputs", [](const Model& mo) { return specs(*mo.graph, mo.graph->outputs); },
          "The graph outputs (list of TensorSpec).")
      .def_property_readonly(
          "ops",
          [](const Model& mo) {
            py::list ops;
            for (const auto& op : mo.graph->ops) {
              py::dict attrs;
              for (const auto& [k, v] : op.attributes)
                attrs[py::str(k)] = from_json(passes::to_json(v));
              py::dict d;
              d["name"] = op.name;
              d["type"] = op.op_type;
              d["attributes"] = attrs;
              d["inputs"] = op.inputs;
              d["outputs"] = op.outputs;
              d["scope"] = ir::name_scope(op.name);
              ops.append(d);
            }
            return ops;
          },
          "Every op in topological order: dicts with name, type, attributes, inputs, outputs, "
          "scope.")
      .def(
          "summary",
          [](const Model& mo) {
            return from_json(flows::inspect_json(*mo.graph, mo.path, mo.format));
          },
          "The model summary as `edgecompile inspect --json` gives it (a dict).")
      .def(
          "to_text",
          [](const Model& mo, bool full) {
            ir::PrintOptions p;
            if (!full) p.elide_constants_above = 64;
            return ir::print(*mo.graph, p);
          },
          py::arg("full") = true,
          "The IR text form (full: constants included, parses back; else elided as `inspect "
          "--dump`).")
      .def(
          "save",
          [](const Model& mo, const std::string& path) {
            flows::write_ir(*mo.graph, path, "save");
          },
          py::arg("path"),
          "Write the graph to PATH atomically: the IR text form (*.eir) or ONNX (*.onnx, QDQ for int8 "
          "graphs); ec.load reads either back.")
      .def("__repr__", [](const Model& mo) {
        return "<edgecompiler.Model '" + mo.path + "': " + std::to_string(mo.graph->ops.size()) +
               " ops>";
      });

  m.def(
      "load",
      [](const py::object& path,
         const std::map<std::string, std::vector<std::int64_t>>& input_shapes,
         const py::dict& input_dtypes, const std::string& signature) {
        const std::string p = path_of(path);
        frontends::OpenOptions
            options;  // what the CLI's --input-shape NAME=DIMS:DTYPE and --signature set
        options.input_shapes = input_shapes;
        for (const auto& [k, v] : input_dtypes) {
          const std::string name = py::str(k);
          const ir::DType t = ir_dtype(py::dtype::from_args(py::reinterpret_borrow<py::object>(v)));
          if (t == ir::DType::Undefined)
            throw EdgeCompilerError(ErrorKind::Usage,
                                    "input_dtypes['" + name + "']: not a dtype edgecompiler knows");
          options.input_dtypes[name] = std::string(ir::dtype_name(t));
        }
        options.signature = signature;
        py::gil_scoped_release nogil;
        return load_model(p, options);
      },
      py::arg("path"), py::arg("input_shapes") = std::map<std::string, std::vector<std::int64_t>>{},
      py::arg("input_dtypes") = py::dict(), py::arg("signature") = "",
      R"(Open a model file (.onnx, .tflite, .eir, .pt, .keras, .h5, SavedModel and .mlpackage folders, ...)
with the frontend registry, as every edgecompile command does.

Args:
    path: the model file or folder.
    input_shapes: {input name: dims} for inputs the file does not record (TorchScript, Keras);
        the name "" means the first input (the CLI's --input-shape NAME=1,3,224,224).
    input_dtypes: {input name: numpy dtype} for such inputs (--input-shape ...:int64).
    signature: a SavedModel's signature ("" = serving_default).

Raises:
    FrontendError naming what each frontend said.)");

  m.def(
      "optimize",
      [](const py::object& model, const std::optional<std::vector<std::string>>& passes) {
        const auto ref = model_ref(model);
        auto out = [&] {
          py::gil_scoped_release nogil;
          return flows::optimize(ref, passes, true);
        }();
        py::object diffs = from_json(out.json["passes"]);
        Model result{std::make_shared<const ir::Graph>(std::move(out.graph)), ref.path, ""};
        return py::make_tuple(result, diffs);
      },
      py::arg("model"), py::arg("passes") = py::none(),
      R"(Run optimisation passes: `edgecompile optimize --json --diff`.

Args:
    model: a path or a Model.
    passes: pass names in order (see `edgecompile optimize --list`); None = the default pipeline.

Returns:
    (Model, list of per-pass dicts: pass, time, statistics, diagnostics, diff).)");

  m.def(
      "quantize",
      [](const py::object& model, const std::string& strategy, const py::object& calibration_data,
         int num_calibration_samples, double calibration_percentile, bool per_channel,
         const std::vector<std::string>& keep_float, bool int8_io, bool sensitivity, int threads) {
        flows::QuantizeOptions o;
        o.calibration = calibration_source(calibration_data);
        auto& q = o.options;
        q.strategy = strategy;
        q.num_calibration_samples = num_calibration_samples;
        q.calibration_percentile = calibration_percentile;
        q.per_channel = per_channel;
        q.keep_float = keep_float;
        q.int8_io = int8_io;
        q.sensitivity = sensitivity;
        q.threads = threads;
        const auto ref = model_ref(model);
        Interrupt interrupt;
        auto out =
            interrupt.run([&] { return flows::quantize(ref, o, interrupt.stage_progress()); });
        Model result{std::make_shared<const ir::Graph>(std::move(out.result.graph)), ref.path, ""};
        return py::make_tuple(result, from_json(out.report));
      },
      py::arg("model"), py::arg("strategy") = "ptq", py::arg("calibration_data") = py::none(),
      py::arg("num_calibration_samples") = 100, py::arg("calibration_percentile") = 100.0,
      py::arg("per_channel") = true, py::arg("keep_float") = std::vector<std::string>{},
      py::arg("int8_io") = false, py::arg("sensitivity") = false, py::arg("threads") = 0,
      R"(Quantise a model to int8: `edgecompile quantize --json`.

Args:
    model: a path or a Model.
    strategy: "ptq" (calibrate; needs calibration_data), "qat" (the model's QDQ scales) or "dynamic".
    calibration_data: a .npy path, a directory of NAME.npy, an ndarray (N, ...) for a
        single-input model, or {input name: ndarray}; the input's dtype.
    keep_float: op names or op types left in float.

Returns:
    (Model, report dict: per-tensor SQNR, per-layer errors, ops left in float; docs/quantize-json.md).)");

  py::class_<CompileResult>(
      m, "CompileResult",
      "What ec.compile did: the CompileReport every face of edgecompiler reads.")
      .def_property_readonly("output_path",
                             [](const CompileResult& r) {
                               return r.report.output.empty()
                                          ? py::object(py::none())
                                          : py::object(py::str(r.report.output));
                             })
      .def_property_readonly("backend", [](const CompileResult& r) { return r.report.backend; })
      .def_property_readonly("ops_on_target",
                             [](const CompileResult& r) { return r.report.result.ops_on_target; })
      .def_property_readonly("ops_fallback",
                             [](const CompileResult& r) { return r.report.result.ops_fallback; })
      .def_readonly("strategy", &CompileResult::strategy,
                    "The quantisation applied (\"none\" when none).")
      .def_property_readonly(
          "partition", [](const CompileResult& r) { return from_json(r.json.at("partition")); })
      .def_property_readonly(
          "ops", [](const CompileResult& r) { return from_json(r.json.at("ops")); },
          "Every op: placement (target/cpu), status, reason, segment.")
      .def_property_readonly(
          "backend_timeline",
          [](const CompileResult& r) { return from_json(r.json.at("backend_timeline")); })
      .def_property_readonly(
          "estimate", [](const CompileResult& r) { return from_json(r.json.at("estimate")); })
      .def_property_readonly(
          "report", [](const CompileResult& r) { return from_json(r.json); },
          "The CompileReport as `edgecompile compile --json` prints it (docs/compile-json.md).")
      .def_readonly("model", &CompileResult::model,
                    "The graph the backend compiled (after passes and quantisation).")
      .def("__repr__", [](const CompileResult& r) {
        return "<edgecompiler.CompileResult " + r.report.backend + ": " +
               std::to_string(r.report.result.ops_on_target) + " ops on target, " +
               std::to_string(r.report.result.ops_fallback) + " on CPU>";
      });

  m.def("compile", &compile, py::arg("model"), py::arg("target") = "auto",
        py::arg("quantize") = py::none(), py::arg("calibration_data") = py::none(),
        py::arg("num_calibration_samples") = 100, py::arg("calibration_percentile") = 100.0,
        py::arg("num_segments") = 1, py::arg("output") = py::none(),
        py::arg("precision") = py::none(), py::arg("compute_units") = py::none(),
        py::arg("deployment_target") = py::none(), compile_doc().c_str());

  py::class_<runtime::Stats>(
      m, "Stats", "A benchmark's statistics (the record `edgecompile bench --json` prints), in ms.")
      .def_readonly("init_ms", &runtime::Stats::init_ms, "Loading the session (load + prepare).")
      .def_readonly("first_ms", &runtime::Stats::first_ms, "The first run, timed on its own.")
      .def_readonly("warmup", &runtime::Stats::warmup)
      .def_readonly("warmup_mean_ms", &runtime::Stats::warmup_mean_ms)
      .def_readonly("iterations", &runtime::Stats::iterations)
      .def_readonly("mean_ms", &runtime::Stats::mean_ms)
      .def_readonly("stdev_ms", &runtime::Stats::stdev_ms, "Sample standard deviation (n - 1).")
      .def_readonly("min_ms", &runtime::Stats::min_ms)
      .def_readonly("max_ms", &runtime::Stats::max_ms)
      .def_readonly("p50_ms", &runtime::Stats::p50_ms,
                    "Nearest-rank percentiles: always a measured value.")
      .def_readonly("p90_ms", &runtime::Stats::p90_ms)
      .def_readonly("p95_ms", &runtime::Stats::p95_ms)
      .def_readonly("p99_ms", &runtime::Stats::p99_ms)
      .def_readonly("throughput_fps", &runtime::Stats::throughput,
                    "Inferences per second (1000 / mean_ms).")
      .def_readonly("peak_rss_bytes", &runtime::Stats::peak_rss_bytes)
      .def_readonly("arena_bytes", &runtime::Stats::arena_bytes)
      .def_readonly("threads", &runtime::Stats::threads)
      .def_readonly("latencies_ms", &runtime::Stats::latencies_ms,
                    "Every timed run's latency, in order.")
      .def_property_readonly(
          "op_profile",
          [](const runtime::Stats& s) { return from_json(runtime::to_json(s).at("op_profile")); },
          "Mean ms of each op over the timed runs, in graph order.")
      .def(
          "as_dict", [](const runtime::Stats& s) { return from_json(runtime::to_json(s)); },
          "Every field as `edgecompile bench --json` names it (docs/bench-json.md).")
      .def("__repr__", [](const runtime::Stats& s) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "<edgecompiler.Stats mean %.3f ms, p95 %.3f ms, %.1f/s over %d runs>",
                      s.mean_ms, s.p95_ms, s.throughput, s.iterations);
        return std::string(buf);
      });

  py::class_<Session>(m, "InferenceSession", kSessionDoc)
      .def(py::init([](const py::object& model, const std::string& target, int threads) {
             auto s = std::make_unique<Session>(threads);
             if (!model.is_none()) s->load(model, target);
             return s;
           }),
           py::arg("model") = py::none(), py::arg("target") = "cpu", py::arg("threads") = 0,
           "Open MODEL (a path or a Model) on TARGET; threads = kernel threads (0 = every core).")
      .def("load", &Session::load, py::arg("model"), py::arg("target") = "cpu",
           "Load MODEL (a path or a Model) on TARGET, replacing what the session held.")
      .def_property_readonly("target", [](Session& s) { return s.loaded().target(); })
      .def_property_readonly("threads", [](Session& s) { return s.session->threads(); })
      .def_property_readonly("inputs", [](Session& s) { return specs(s.loaded().inputs()); })
      .def_property_readonly("outputs", [](Session& s) { return specs(s.loaded().outputs()); })
      .def("run", &run, py::arg("inputs"),
           "Run once: {input name: ndarray} -> {output name: ndarray}. Every input with the "
           "model's dtype and shape "
           "(InputError otherwise); C-contiguous arrays are read in place.")
      .def(
          "random_inputs",
          [](Session& s, std::uint64_t seed) {
            return dict_from_tensors(s.loaded().random_inputs(seed));
          },
          py::arg("seed") = 0,
          "The deterministic random inputs `edgecompile run` feeds without --input (seed 0, "
          "dynamic dims = 1).")
      .def("benchmark", &benchmark, py::arg("iterations") = 100, py::arg("warmup") = 5,
           py::arg("inputs") = py::none(), py::arg("profile") = true,
           "Time the first run, WARMUP runs, then ITERATIONS timed runs (the runner of "
           "`edgecompile bench`) on INPUTS "
           "(None = random_inputs(0)). Returns Stats. Ctrl-C raises KeyboardInterrupt.")
      .def(
          "close",
          [](Session& s) {
            py::gil_scoped_release nogil;
            std::lock_guard lock(s.busy);
            s.session->close();
          },
          "Release the model and the device. The session can be loaded again.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](Session& s, py::args) {
        py::gil_scoped_release nogil;
        std::lock_guard lock(s.busy);
        s.session->close();
      });

  m.def(
      "devices",
      [] {
        const auto list = [] {
          py::gil_scoped_release nogil;
          return flows::list_devices();
        }();
        return from_json(flows::to_json(list));
      },
      "Every device edgecompile knows (host CPU, the accelerators each backend discovers, backends' virtual devices, "
      "devices.json) with its "
      "availability: the dict `edgecompile devices --json` prints.");

  m.def(
      "compare",
      [](const py::object& a, const py::object& b, const py::object& inputs, int samples, int threads,
         const py::object& fp16) {
        // A model argument as a frozen graph: a Model's own, else the file opened.
        const auto graph_of = [](const py::object& arg) {
          if (py::isinstance<Model>(arg)) return arg.cast<const Model&>().graph;
          frontends::OpenOptions open;
          open.allow_unknown_ops = true;
          const std::string p = path_of(arg);
          py::gil_scoped_release nogil;
          return ir::freeze(frontends::open_model(p, open));
        };
        const ir::FrozenGraph ga = graph_of(a), gb = graph_of(b);
        std::vector<compare::Sample> feeds;
        if (py::isinstance<py::dict>(inputs)) {
          feeds.push_back(tensors_from_dict(inputs.cast<py::dict>()));
        } else if (!inputs.is_none()) {
          feeds = compare::samples_for(*ga, {path_of(inputs)}, samples);
        } else {
          feeds = compare::random_samples(*ga, samples);
        }
        compare::CompareOptions o;
        o.threads = threads;
        if (!fp16.is_none()) {
          const std::string f = fp16.cast<std::string>();
          if (f != "a" && f != "b" && f != "both" && f != "none")
            throw EdgeCompilerError(ErrorKind::Usage, "fp16='" + f + "': valid: 'a', 'b', 'both', 'none' (None: from the models)");
          o.fp16_a = f == "a" || f == "both";
          o.fp16_b = f == "b" || f == "both";
        }
        Interrupt interrupt;
        auto r = interrupt.run([&] {
          return compare::compare_models(ga, gb, feeds, o,
                                         [&](int, int, const std::string&) { return interrupt.keep_going(); });
        });
        r.model_a = model_ref(a).path;
        r.model_b = model_ref(b).path;
        return from_json(compare::to_json(r));
      },
      py::arg("a"), py::arg("b"), py::arg("inputs") = py::none(), py::arg("samples") = 0, py::arg("threads") = 0,
      py::arg("fp16") = py::none(),
      R"(Layer-by-layer compare: `edgecompile compare A B --json`.

Runs both models on the same inputs with every intermediate tensor kept and compares the
matched pairs (by name, origin, graph position; int8 dequantised, NHWC put back to NCHW).

Args:
    a, b: paths or Models (a is the reference).
    inputs: {input name: ndarray} (one sample), a .npy / folder of NAME.npy with N samples on
        axis 0, or None for `samples` random samples (seed 0).
    samples: how many samples (0: one random sample, or every sample of a file).
    fp16: 'a', 'b', 'both' or 'none': which side runs with fp16 compute simulated (`--fp16`);
        None: a Core ML package typed fp16 does.

Returns:
    dict: tensors (a, b, op_type, matched_by, max_abs_error, max_rel_error, sqnr_db, cosine...),
    first_divergence, first_nonfinite_a / _b, unmatched_ops.

Raises:
    InputError when the models' inputs differ or nothing matched.)");

  auto runs = m.def_submodule(
      "runs", "The run history every `edgecompile compile` and `bench` records (core/history).");
  runs.def(
      "list",
      [](int limit, const std::optional<std::string>& db) {
        return from_json(history::runs_list_json(open_history(db), limit));
      },
      py::arg("limit") = 0, py::arg("db") = py::none(),
      "Recorded runs, newest first (at most LIMIT; 0 = all): the dict `edgecompile runs list "
      "--json` prints. "
      "DB: the database (default $EC_RUNS_DB, else $XDG_DATA_HOME/edgecompiler/runs.db).");
  runs.def(
      "show",
      [](std::int64_t id, const std::optional<std::string>& db) {
        const auto store = open_history(db);
        return from_json(history::run_show_json(store, history::must_get(store, id)));
      },
      py::arg("id"), py::arg("db") = py::none(),
      "One run with its report and every latency: `edgecompile runs show ID --json`.");
  runs.def(
      "compare",
      [](std::int64_t a, std::int64_t b, const std::optional<std::string>& db) {
        const auto store = open_history(db);
        return from_json(history::to_json(
            history::compare_runs(history::must_get(store, a), history::must_get(store, b))));
      },
      py::arg("a"), py::arg("b"), py::arg("db") = py::none(),
      "Two runs side by side, each change judged against noise: `edgecompile runs compare A B "
      "--json`.");
}
