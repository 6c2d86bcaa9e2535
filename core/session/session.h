// InferenceSession: runs an IR graph on the host CPU with the reference
// kernels of kernel_registry.cpp. Shapes are resolved at run time from the
// actual inputs, so dynamic (e.g. batch) dims take whatever size is fed.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/gemm/gemm.h"
#include "core/runtime/stats.h"
#include "core/runtime/tensor.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime {

namespace quantized {
class PreparedOp;  // core/runtime/quantized/int8_kernels.h
}
namespace targets {
class TargetSession;  // core/session/target_session.h
}

struct SessionOptions {
  /// Threads for the GEMM, convolution and depthwise kernels, the calling
  /// thread included; 0 = every core (std::thread::hardware_concurrency()).
  int threads = 0;
  /// Rewrite the decomposed LayerNorm and GELU/HardSwish patterns exporters emit
  /// into single ops at load, and fold BatchNormalization into the Conv before it
  /// (passes Cleanup, FuseLayerNorm, FuseGelu, OpFusion), as ONNX Runtime's graph
  /// optimisations do. Outputs equal the unfused graph's to float rounding.
  bool fuse_patterns = true;
  /// Convert the float convolutions of an NCHW graph to channels-last at load (the
  /// LayoutTransform pass: NHWC Conv/pools/BatchNormalization and the element-wise ops
  /// between them, Transposes only at the edges), as ONNX Runtime's NCHWc transformer
  /// does, so the convolutions run on oneDNN's channels-last kernels without a reorder
  /// per op. Off when oneDNN convolutions are (EC_CONV=own).
  bool channels_last = true;
  /// With channels_last, int8 graphs (from `quantize`) too, on machines with VNNI: their
  /// Convs run on oneDNN's VNNI int8 convolutions with our TFLite-exact requantisation,
  /// the other int8 ops on their channels-last kernels (quantized::int8_runs_channels_last);
  /// the same integers as the NCHW int8 kernels, 1.0-1.5x faster (docs/PERFORMANCE.md).
  /// Graphs read from .tflite are NHWC already and take those kernels whatever this says.
  bool int8_channels_last = true;
  /// Run the model's own graph op for op, so every tensor it names is computed and can be
  /// observed (run() with a TensorObserver): no fusion at load (fuse_patterns, activations,
  /// Conv + Add, int8 tables, 1x1 + depthwise pairs) and no channels-last conversion. The
  /// same results to float rounding (int8: the same integers), slower; for `compare` and
  /// `run --dump-intermediates`.
  bool keep_intermediates = false;
  /// Simulate fp16 compute (as Core ML runs a program typed fp16 on the GPU or Neural
  /// Engine): the float constants and inputs, and every float tensor an op produces, are
  /// rounded to IEEE half and back (fp16_simulation.h); int tensors are untouched. The
  /// arithmetic inside an op stays f32 (Core ML's accumulators are wider than fp16 too).
  /// Off: no cost beyond one flag test per op. For `compare` on an fp16 .mlpackage.
  bool simulate_fp16 = false;
};

/// Called once per computed tensor, in execution order, right after the op producing it
/// (`output` its index among op.outputs). `value` shares the session's buffer, which is
/// recycled once the tensor's last reader ran: copy what must outlive the call.
using TensorObserver =
    std::function<void(const ir::Operation& op, std::size_t output, const std::string& name, const Tensor& value)>;

/// Time spent in each op of one run (in graph order), filled by run() on request.
struct RunProfile {
  struct Entry {
    std::string name, op_type;
    double ms = 0;
  };
  std::vector<Entry> ops;
};

/// A graph input or output as the model declares it.
struct TensorInfo {
  std::string name;
  ir::DType dtype = ir::DType::Undefined;
  ir::Shape shape;
};

class InferenceSession {
 public:
  explicit InferenceSession(SessionOptions options = {});

  /// Opens a model file with the frontends (ec::frontends::open_model) and loads it.
  void load(const std::string& path);
  /// Loads a graph. Throws UnsupportedOpError naming the first op the CPU runtime has no kernel for.
  void load(ir::FrozenGraph graph);
  /// Runs a compiled artefact on a target runtime a backend opened
  /// (backends::load_on_target, Backend::open_session): run() and benchmark() go to
  /// `target`; `graph` is the artefact as the frontends read it (its inputs and outputs).
  void load_target(std::shared_ptr<targets::TargetSession> target, ir::FrozenGraph graph);
  /// "cpu", or the name of the target runtime load_target() was given.
  std::string target() const;
  /// Releases the device (and the model); the session can be loaded again. Never throws.
  void close() noexcept;

  bool loaded() const { return graph_ != nullptr; }
  /// Participants of this session's thread pool.
  int threads() const { return pool_->size(); }
  /// Activations folded into the op before them at load: those the FuseActivation pass
  /// folded with the CPU runtime's rules (passes::ActivationFusion::cpu_runtime():
  /// Conv/Gemm/MatMul/FullyConnected/BatchNormalization/Add/Sub/Mul/Div followed by Relu,
  /// Clip(0, 6), Sigmoid, Tanh, HardSwish, Gelu or SiLU (x * Sigmoid(x)) as its only
  /// reader; oneDNN convolutions do them as a post-op), plus the residual Adds folded into
  /// Convs and the int8 table ops folded into the int8 op before them.
  int fused_activations() const { return fused_count_; }
  /// Ops removed by fuse_patterns at load (0 when nothing matched or changed).
  int fused_pattern_ops() const { return fused_pattern_ops_; }
  /// Ops converted to channels-last at load (SessionOptions::channels_last; 0 = none).
  int channels_last_ops() const { return channels_last_ops_; }
  /// The model's ops prepared at load for integer execution (int8 and hybrid ops; see
  /// core/runtime/quantized/int8_kernels.h); the Transposes LayoutTransform inserts are not counted.
  int quantized_ops() const { return quantized_count_; }
  /// Size of the activation arena: bytes of all buffers this session's runs have
  /// allocated for computed tensors (shared by tensors whose lifetimes do not overlap).
  std::size_t arena_bytes() const { return arena_->size_bytes(); }
  /// Bytes of weights held packed for the GEMM (filled on first use).
  std::size_t packed_weight_bytes() const { return pack_cache_ ? pack_cache_->packed_bytes() : 0; }
  const ir::Graph& graph() const { return *graph_; }
  std::vector<TensorInfo> inputs() const;
  std::vector<TensorInfo> outputs() const;

  /// Runs the graph. Every graph input must be given with the declared dtype,
  /// rank and static dims; otherwise throws EdgeCompilerError (kind Usage)
  /// naming the input and the expected type. Returns every graph output by name.
  /// With `profile`, also records the time of every op.
  std::map<std::string, Tensor> run(const std::map<std::string, Tensor>& inputs, RunProfile* profile = nullptr) const;
  /// Same, calling `observer` with every tensor an op computes. Load with
  /// SessionOptions::keep_intermediates to see every tensor the model names (otherwise
  /// tensors fused away at load are not computed, and channels-last twins are).
  std::map<std::string, Tensor> run(const std::map<std::string, Tensor>& inputs, const TensorObserver& observer) const;

  /// Times the first run on its own, then `warmup` runs (their mean is reported
  /// apart), then `iterations` runs: the steady-state statistics (the runner of
  /// benchmark.h with its defaults, per-op profile included).
  Stats benchmark(const std::map<std::string, Tensor>& inputs, int iterations, int warmup = 5) const;
  /// Same, on random_inputs().
  Stats benchmark(int iterations, int warmup = 5) const;

  /// Deterministic random inputs (fixed seed; dynamic dims = 1): floats uniform
  /// in [-1, 1), integers in [0, 10), bools random.
  std::map<std::string, Tensor> random_inputs(std::uint64_t seed = 0) const;

 private:
  struct Step {
    const ir::Operation* op;
    std::vector<int> inputs;   // slot per op input; -1 = absent
    std::vector<int> outputs;  // slot per op output; -1 = not produced
    std::vector<int> release;  // slots whose last use is this step
    std::shared_ptr<quantized::PreparedOp> int8;  // int8/hybrid kernel, else the float one
    // An expanding 1x1 Conv whose output only this depthwise Conv reads: both run
    // together band by band (kernels::conv_pair_nhwc); op's first input is not computed.
    // int8: the depthwise Conv's kernel runs both (quantized::PreparedOp::run_after).
    const ir::Operation* pre = nullptr;
    std::vector<int> pre_inputs;
    std::shared_ptr<const quantized::PreparedOp> pre_int8;
  };
  /// Folds each f32 residual Add into the channels-last Conv whose output only it reads
  /// (the Conv then runs at the Add's place, adding the other operand and applying the
  /// Add's activation piece by piece: kernels::conv_onednn's addend).
  void fuse_conv_add();
  /// Folds each int8 element-wise activation computed by table (PreparedOp::as_table) into
  /// the int8 op right before it that takes it (take_output_table) when it alone reads
  /// that op's output: mobilenet_v3's HardSwish after its Convs.
  void fuse_int8_tables();
  /// Joins each NHWC 1x1 Conv (f32, or int8 where the kernel takes the pair) to the
  /// depthwise Conv right after it that alone reads its output (Step::pre).
  void chain_expand_depthwise();
  std::map<std::string, Tensor> run_steps(const std::map<std::string, Tensor>& inputs, RunProfile* profile,
                                          const TensorObserver* observer) const;
  /// How many steps read each slot (graph outputs counted as readers).
  std::vector<int> slot_readers() const;
  void check_input(const TensorInfo& info, const Tensor& t) const;

  SessionOptions options_;
  std::shared_ptr<ThreadPool> pool_;
  std::shared_ptr<gemm::PackCache> pack_cache_;  // weights packed once for the GEMM
  std::shared_ptr<Arena> arena_ = std::make_shared<Arena>();  // buffers of computed tensors
  ir::FrozenGraph graph_;
  std::deque<ir::Operation> fused_ops_;         // Convs with a residual Add folded in (fuse_conv_add)
  int fused_count_ = 0;
  int fused_pattern_ops_ = 0;
  int channels_last_ops_ = 0;
  int quantized_count_ = 0;
  std::vector<Tensor> constants_;               // by slot (undefined for non-constants)
  std::map<std::string, int> slots_;            // tensor name -> slot
  std::vector<Step> steps_;
  std::vector<std::pair<std::string, int>> input_slots_, output_slots_;
  std::shared_ptr<targets::TargetSession> target_;  // set by load_target()
};

/// Loads a graph into a session and runs it once (convenience for tools and tests).
std::map<std::string, Tensor> run_graph(ir::FrozenGraph graph, const std::map<std::string, Tensor>& inputs);

}  // namespace ec::runtime
