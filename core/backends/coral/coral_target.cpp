// The coral target: libedgetpu's delegate inside the TensorFlow Lite C API, both
// loaded with dlopen. The order of checks is the order a user fixes things in:
// the artefact, libedgetpu, an Edge TPU it can see, then the TFLite C library.
#include <cstring>

#include "core/errors.h"
#include "core/backends/coral/edgetpu_library.h"
#include "core/backends/coral/coral_target.h"

namespace ec::backends::coral {

using runtime::Tensor;
using runtime::targets::TargetSession;
namespace {

// The TensorFlow Lite C API (tensorflow/lite/c/c_api.h): opaque handles, status 0 = ok.
struct TfLiteApi {
  std::shared_ptr<SharedLibrary> lib;
  void* (*model_create_from_file)(const char*) = nullptr;
  void (*model_delete)(void*) = nullptr;
  void* (*options_create)() = nullptr;
  void (*options_delete)(void*) = nullptr;
  void (*options_set_num_threads)(void*, int) = nullptr;
  void (*options_add_delegate)(void*, void*) = nullptr;
  void* (*interpreter_create)(const void*, const void*) = nullptr;
  void (*interpreter_delete)(void*) = nullptr;
  int (*allocate_tensors)(void*) = nullptr;
  int (*invoke)(void*) = nullptr;
  std::int32_t (*input_count)(const void*) = nullptr;
  void* (*input_tensor)(const void*, std::int32_t) = nullptr;
  std::int32_t (*output_count)(const void*) = nullptr;
  const void* (*output_tensor)(const void*, std::int32_t) = nullptr;
  std::size_t (*byte_size)(const void*) = nullptr;
  int (*copy_from_buffer)(void*, const void*, std::size_t) = nullptr;
  int (*copy_to_buffer)(const void*, void*, std::size_t) = nullptr;
};

std::unique_ptr<TfLiteApi> load_tflite(const std::string& library, std::string* why) {
  auto lib = std::make_shared<SharedLibrary>(library);
  if (!lib->ok()) {
    *why = library + " not found: the TensorFlow Lite C library hosts the Edge TPU delegate (build it from TensorFlow, "
                     "or install a distribution's libtensorflow-lite-c)";
    return nullptr;
  }
  auto a = std::make_unique<TfLiteApi>();
  std::string missing;
  auto sym = [&](auto& fn, const char* name) { fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(lib->symbol(name, &missing)); };
  sym(a->model_create_from_file, "TfLiteModelCreateFromFile");
  sym(a->model_delete, "TfLiteModelDelete");
  sym(a->options_create, "TfLiteInterpreterOptionsCreate");
  sym(a->options_delete, "TfLiteInterpreterOptionsDelete");
  sym(a->options_set_num_threads, "TfLiteInterpreterOptionsSetNumThreads");
  sym(a->options_add_delegate, "TfLiteInterpreterOptionsAddDelegate");
  sym(a->interpreter_create, "TfLiteInterpreterCreate");
  sym(a->interpreter_delete, "TfLiteInterpreterDelete");
  sym(a->allocate_tensors, "TfLiteInterpreterAllocateTensors");
  sym(a->invoke, "TfLiteInterpreterInvoke");
  sym(a->input_count, "TfLiteInterpreterGetInputTensorCount");
  sym(a->input_tensor, "TfLiteInterpreterGetInputTensor");
  sym(a->output_count, "TfLiteInterpreterGetOutputTensorCount");
  sym(a->output_tensor, "TfLiteInterpreterGetOutputTensor");
  sym(a->byte_size, "TfLiteTensorByteSize");
  sym(a->copy_from_buffer, "TfLiteTensorCopyFromBuffer");
  sym(a->copy_to_buffer, "TfLiteTensorCopyToBuffer");
  if (!missing.empty()) {
    *why = library + " lacks " + missing + " (not the TensorFlow Lite C API?)";
    return nullptr;
  }
  a->lib = std::move(lib);
  return a;
}

class CoralTarget final : public TargetSession {
 public:
  CoralTarget(std::unique_ptr<EdgeTpuApi> tpu, std::unique_ptr<TfLiteApi> tfl, ir::FrozenGraph graph)
      : tpu_(std::move(tpu)), tfl_(std::move(tfl)), graph_(std::move(graph)) {}
  ~CoralTarget() override { close(); }
  std::string name() const override { return "coral"; }

  void open(const std::string& path, const EdgeTpuDevice& device, int threads) {
    model_ = tfl_->model_create_from_file(path.c_str());
    if (!model_) throw BackendError("coral", path + ": TensorFlow Lite cannot read this file");
    delegate_ = tpu_->create_delegate(device.type, device.path, nullptr, 0);
    if (!delegate_)
      throw BackendError("coral", std::string("libedgetpu cannot open the Edge TPU at ") + (device.path ? device.path : "?") +
                                      " (device busy, or no permission: run `edgecompile devices`)");
    options_ = tfl_->options_create();
    tfl_->options_set_num_threads(options_, threads);
    tfl_->options_add_delegate(options_, delegate_);
    interpreter_ = tfl_->interpreter_create(model_, options_);
    if (!interpreter_ || tfl_->allocate_tensors(interpreter_) != 0)
      throw BackendError("coral", path + ": TensorFlow Lite with the Edge TPU delegate cannot prepare this model");
  }

  std::map<std::string, Tensor> run(const std::map<std::string, Tensor>& inputs) override {
    if (!interpreter_) throw EdgeCompilerError(ErrorKind::Usage, "coral target: the session is closed");
    for (std::size_t i = 0; i < graph_->inputs.size(); ++i) {
      const auto& name = graph_->inputs[i];
      auto it = inputs.find(name);
      if (it == inputs.end()) throw EdgeCompilerError(ErrorKind::Input, "input '" + name + "': missing");
      void* t = tfl_->input_tensor(interpreter_, static_cast<std::int32_t>(i));
      if (!t || tfl_->byte_size(t) != it->second.nbytes())
        throw EdgeCompilerError(ErrorKind::Input, "input '" + name + "': " + std::to_string(it->second.nbytes()) +
                                                      " bytes given, the Edge TPU model takes " + std::to_string(t ? tfl_->byte_size(t) : 0));
      if (tfl_->copy_from_buffer(t, it->second.raw(), it->second.nbytes()) != 0)
        throw BackendError("coral", "input '" + name + "': TensorFlow Lite refused the data");
    }
    if (tfl_->invoke(interpreter_) != 0) throw BackendError("coral", "TfLiteInterpreterInvoke failed on the Edge TPU");
    std::map<std::string, Tensor> out;
    for (std::size_t i = 0; i < graph_->outputs.size(); ++i) {
      const ir::Tensor* decl = graph_->find_tensor(graph_->outputs[i]);
      const void* t = tfl_->output_tensor(interpreter_, static_cast<std::int32_t>(i));
      std::vector<std::int64_t> shape;
      if (decl)
        for (const auto& d : decl->shape.dims) shape.push_back(d.is_static() ? d.value : 1);
      Tensor result(decl ? decl->dtype : ir::DType::UInt8, shape);
      if (!t || tfl_->byte_size(t) != result.nbytes() || tfl_->copy_to_buffer(t, result.mutable_raw(), result.nbytes()) != 0)
        throw BackendError("coral", "output '" + graph_->outputs[i] + "': size differs from the model's declaration");
      out[graph_->outputs[i]] = std::move(result);
    }
    return out;
  }

  void close() noexcept override {
    if (interpreter_) tfl_->interpreter_delete(interpreter_);
    if (options_) tfl_->options_delete(options_);
    if (delegate_) tpu_->free_delegate(delegate_);  // releases the Edge TPU
    if (model_) tfl_->model_delete(model_);
    interpreter_ = options_ = delegate_ = model_ = nullptr;
  }

 private:
  std::unique_ptr<EdgeTpuApi> tpu_;
  std::unique_ptr<TfLiteApi> tfl_;
  ir::FrozenGraph graph_;
  void* model_ = nullptr;
  void* options_ = nullptr;
  void* delegate_ = nullptr;
  void* interpreter_ = nullptr;
};

}  // namespace

std::unique_ptr<runtime::targets::TargetSession> open_coral_target(const std::string& path, ir::FrozenGraph graph,
                                                 const CoralTargetOptions& options) {
  if (path.size() < 7 || path.compare(path.size() - 7, 7, ".tflite") != 0)
    throw BackendError("coral", path + ": the coral target runs a .tflite compiled for the Edge TPU "
                                       "(make one with `edgecompile compile MODEL --target coral --output M.tflite`)");
  std::string why;
  auto tpu = load_edgetpu(&why, options.edgetpu_library);
  if (!tpu) throw BackendError("coral", why);
  std::size_t n = 0;
  EdgeTpuDevice* list = tpu->list_devices(&n);
  if (!list || n == 0) {
    if (list) tpu->free_devices(list);
    throw BackendError("coral", "libedgetpu sees no Edge TPU (plug in a Coral; `edgecompile devices` says what it finds)");
  }
  const EdgeTpuDevice first = list[0];
  std::string device_path = first.path ? first.path : "";
  tpu->free_devices(list);
  auto tfl = load_tflite(options.tflite_library, &why);
  if (!tfl) throw BackendError("coral", why);
  auto target = std::make_unique<CoralTarget>(std::move(tpu), std::move(tfl), std::move(graph));
  const EdgeTpuDevice device{first.type, device_path.c_str()};
  target->open(path, device, options.threads);
  return target;
}

}  // namespace ec::backends::coral
