#include "core/session/session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/ir/activation.h"
#include "core/passes/fuse_activation.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/session/benchmark.h"
#include "core/runtime/dispatch.h"
#include "core/runtime/fp16_simulation.h"
#include "core/runtime/kernel_registry.h"
#include "core/runtime/kernels/conv_onednn.h"
#include "core/runtime/kernels/nhwc.h"
#include "core/runtime/quantized/int8_kernels.h"
#include "core/session/target_session.h"

namespace ec::runtime {
namespace {

// Ops the CPU kernels run channels-last: every float op LayoutTransform converts; the
// quantised ones the int8 kernels take channels-last (int8_runs_channels_last: no hybrid
// or u8 Conv, no pool that requantises); the rest stay NCHW between Transposes.
bool cpu_runs_channels_last(const ir::Operation& op, const ir::Graph& g) {
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !x->quant) {
    if (op.kind != ir::OpKind::Conv) return true;
    const ir::Tensor* w = op.inputs.size() > 1 ? g.find_tensor(op.inputs[1]) : nullptr;
    return x && x->dtype == ir::DType::Float32 && w && w->dtype == ir::DType::Float32;
  }
  return quantized::int8_runs_channels_last(op, g);
}

bool quantized_graph(const ir::Graph& g) {
  return std::any_of(g.tensors.begin(), g.tensors.end(), [](const auto& t) { return t.second.quant.has_value(); });
}

// A graph with a rank-4 NCHW Conv on constant weights the CPU runs channels-last on
// oneDNN: f32 (nothing quantised), or with `int8` int8 on a machine where oneDNN's int8
// convolutions are exact (VNNI): worth converting to channels-last
// (SessionOptions::channels_last, int8_channels_last).
bool wants_channels_last(const ir::Graph& g, bool int8) {
  const bool quantized = quantized_graph(g);
  if (quantized && (!int8 || !kernels::onednn_int8_conv_available())) return false;
  return std::any_of(g.ops.begin(), g.ops.end(), [&](const ir::Operation& op) {
    if (op.kind != ir::OpKind::Conv || op.inputs.size() < 2 || op.attr_string("layout", "NCHW") != "NCHW") return false;
    const ir::Tensor* x = g.find_tensor(op.inputs[0]);
    const ir::Tensor* w = g.find_tensor(op.inputs[1]);
    if (!x || !w || !w->is_constant() || !x->shape.rank_known || x->shape.dims.size() != 4) return false;
    return quantized ? quantized::int8_runs_channels_last(op, g) : x->dtype == ir::DType::Float32;
  });
}

std::string expected_type(const TensorInfo& info) {
  return std::string(ir::dtype_name(info.dtype)) + info.shape.to_string();
}

std::string op_label(const ir::Operation& op) {
  return "op '" + (op.name.empty() ? op.op_type : op.name) + "' (" + op.op_type + ")";
}

}  // namespace

InferenceSession::InferenceSession(SessionOptions options)
    : options_(options), pool_(std::make_shared<ThreadPool>(options.threads)) {}

void InferenceSession::load(const std::string& path) {
  frontends::OpenOptions open;
  open.allow_unknown_ops = true;  // refused below with the CPU runtime's own message
  load(ir::freeze(frontends::open_model(path, open)));
}

void InferenceSession::load_target(std::shared_ptr<targets::TargetSession> target, ir::FrozenGraph graph) {
  if (!target || !graph) throw EdgeCompilerError(ErrorKind::Usage, "no target runtime or graph to load");
  close();
  target_ = std::move(target);
  graph_ = std::move(graph);
}

std::string InferenceSession::target() const { return target_ ? target_->name() : "cpu"; }

void InferenceSession::close() noexcept {
  if (target_) target_->close();
  target_.reset();
  graph_.reset();
  steps_.clear();
  constants_.clear();
}

void InferenceSession::load(ir::FrozenGraph graph) {
  if (!graph) throw EdgeCompilerError(ErrorKind::Usage, "no graph to load");
  target_.reset();
  // The load-time passes run through the pass manager without its diffs, validation and
  // shape inference: the graph is the model's, already checked by its frontend, and a
  // load must not cost more than the passes themselves.
  passes::PassManagerOptions quiet;
  quiet.record_diffs = false;
  quiet.validate_each = false;
  quiet.infer_shapes = false;
  const auto run_passes = [&](ir::Graph& g, std::vector<std::unique_ptr<passes::Pass>> list) {
    passes::PassManager pm(quiet);
    for (auto& p : list) pm.add(std::move(p));
    return pm.run(g);
  };
  const auto statistic = [](const passes::PipelineReport& r, std::string_view key) {
    std::int64_t n = 0;
    for (const auto& rec : r.passes)
      for (const auto& s : rec.statistics)
        if (s.key == key) n += s.value;
    return n;
  };
  fused_pattern_ops_ = 0;
  if (options_.fuse_patterns && !options_.keep_intermediates) {
    // A copy only when a pattern's first op is there (constants are shared, not copied).
    const bool candidates = std::any_of(graph->ops.begin(), graph->ops.end(), [](const ir::Operation& op) {
      return op.kind == ir::OpKind::ReduceMean || op.kind == ir::OpKind::Erf || op.kind == ir::OpKind::HardSigmoid ||
             op.kind == ir::OpKind::BatchNormalization;
    });
    if (candidates) {
      ir::Graph g = *graph;
      // Cleanup first: the exporters' Identity ops on constants hide the patterns.
      std::vector<std::unique_ptr<passes::Pass>> list;
      for (auto make : {&passes::make_cleanup_pass, &passes::make_fuse_layer_norm_pass, &passes::make_fuse_gelu_pass,
                        &passes::make_op_fusion_pass})
        list.push_back(make());
      run_passes(g, std::move(list));
      const auto removed = static_cast<std::int64_t>(graph->ops.size()) - static_cast<std::int64_t>(g.ops.size());
      if (removed > 0) {
        fused_pattern_ops_ = static_cast<int>(removed);
        graph = ir::freeze(std::move(g));
      }
    }
  }
  channels_last_ops_ = 0;
  ir::FrozenGraph nchw;  // the graph before LayoutTransform, when it converted something
  if (options_.channels_last && !options_.keep_intermediates && kernels::onednn_conv_enabled() && wants_channels_last(*graph, options_.int8_channels_last)) {
    ir::Graph g = *graph;
    std::vector<std::unique_ptr<passes::Pass>> list;
    list.push_back(passes::make_layout_transform_pass(cpu_runs_channels_last, true));
    const passes::PipelineReport r = run_passes(g, std::move(list));
    const std::int64_t converted = statistic(r, "ops_converted"), transposes = statistic(r, "transposes_inserted");
    // An int8 graph whose NHWC regions are cut up (a channel shuffle computed from Shape,
    // say: more than one Transpose per 4 converted ops) runs faster on the NCHW int8
    // kernels (shufflenet_v2: 37 Transposes for 64 ops, 4.6 vs 3.5 ms); float graphs
    // have no NCHW kernel as fast as oneDNN's.
    const bool cut_up = quantized_graph(*graph) && transposes > 2 && transposes * 4 > converted;
    if (converted > 0 && !cut_up) {
      channels_last_ops_ = static_cast<int>(converted);
      nchw = graph;
      graph = ir::freeze(std::move(g));
    }
  }
  // Refuse up front: an op without a kernel would fail only mid-run otherwise.
  for (const auto& op : graph->ops)
    if (!op.is_known() || !find_kernel(op.kind))
      throw UnsupportedOpError(op.op_type, "the CPU runtime",
                               "no CPU kernel for this op yet; replace it in the model or open an issue",
                               op.name.empty() ? std::string() : "op '" + op.name + "'");
  // Activations into the op before them (the kernels apply them in their epilogue or on
  // each piece while it is in cache): the FuseActivation pass with the CPU runtime's rules.
  int activations_fused = 0;
  if (!options_.keep_intermediates) {
    ir::Graph g = *graph;
    std::vector<std::unique_ptr<passes::Pass>> list;
    list.push_back(passes::make_fuse_activation_pass(passes::ActivationFusion::cpu_runtime()));
    activations_fused = static_cast<int>(statistic(run_passes(g, std::move(list)), "activations_fused"));
    if (activations_fused > 0) graph = ir::freeze(std::move(g));
  }
  graph_ = std::move(graph);
  pack_cache_ = std::make_shared<gemm::PackCache>();
  fused_ops_.clear();
  fused_count_ = activations_fused;
  quantized_count_ = 0;
  slots_.clear();
  constants_.clear();
  steps_.clear();
  input_slots_.clear();
  output_slots_.clear();
  auto slot_of = [&](const std::string& name) {
    auto [it, added] = slots_.emplace(name, static_cast<int>(slots_.size()));
    if (added) constants_.emplace_back();
    return it->second;
  };
  for (const auto& [name, t] : graph_->tensors)
    if (t.is_constant()) {
      const int s = slot_of(name);
      if (!t.shape.is_static())
        throw EdgeCompilerError(ErrorKind::Graph, "constant '" + name + "' has a dynamic shape");
      if (ir::dtype_size(t.dtype) == 0) continue;  // strings: only an op needing it would fail
      constants_[static_cast<std::size_t>(s)] = Tensor::from_constant(t.dtype, t.shape.sizes(), *t.data);
      if (options_.simulate_fp16)  // fp16 weights (a read-back .mlpackage's are already: unchanged)
        constants_[static_cast<std::size_t>(s)] = rounded_to_half(constants_[static_cast<std::size_t>(s)]);
      const Tensor& c = constants_[static_cast<std::size_t>(s)];
      if (c.dtype() == ir::DType::Float32 || c.dtype() == ir::DType::Int8)  // weights cached per session
        pack_cache_->add_constant_range(c.raw(), c.nbytes());
    }
  for (const auto& name : graph_->inputs) input_slots_.emplace_back(name, slot_of(name));
  for (const ir::Operation& opr : graph_->ops) {
    Step st{&opr, {}, {}, {}, {}, nullptr, {}, nullptr};
    // Integer execution: an op reading an i8 tensor with quant params (or a
    // hybrid op) gets its prepared int8 kernel; a bad param or an op without
    // one refuses the whole graph here (the session is left unloaded).
    try {
      st.int8 = quantized::prepare_quantized(opr, *graph_);
    } catch (...) {
      graph_.reset();
      steps_.clear();
      fused_ops_.clear();
      if (!nchw || !quantized_graph(*nchw)) throw;
      // The channels-last copy of an int8 graph refused: load the model's own graph, whose
      // error names the model's tensors (not their NHWC twins), or which runs NCHW.
      const SessionOptions keep = options_;
      options_.int8_channels_last = false;
      try {
        load(nchw);
      } catch (...) {
        options_ = keep;
        throw;
      }
      options_ = keep;
      return;
    }
    // The model's ops that run in int8 (not the Transposes LayoutTransform put between them).
    if (st.int8 && opr.name.rfind("LayoutTransform/", 0) != 0) ++quantized_count_;
    for (const auto& n : opr.inputs) st.inputs.push_back(n.empty() ? -1 : slot_of(n));
    for (const auto& n : opr.outputs) st.outputs.push_back(n.empty() ? -1 : slot_of(n));
    steps_.push_back(std::move(st));
  }
  for (const auto& name : graph_->outputs) output_slots_.emplace_back(name, slot_of(name));
  if (!options_.keep_intermediates) {  // each hides a tensor the model names
    fuse_conv_add();
    fuse_int8_tables();
    chain_expand_depthwise();
  }
  // Liveness: release a computed tensor after its last reader (never graph outputs or constants).
  std::vector<int> last_use(slots_.size(), -1);
  for (std::size_t i = 0; i < steps_.size(); ++i)
    for (const auto* v : {&steps_[i].pre_inputs, &steps_[i].inputs})
      for (int s : *v)
        if (s >= 0) last_use[static_cast<std::size_t>(s)] = static_cast<int>(i);
  for (const auto& [name, s] : output_slots_) last_use[static_cast<std::size_t>(s)] = -1;
  for (std::size_t s = 0; s < last_use.size(); ++s)
    if (last_use[s] >= 0 && !constants_[s].defined())
      steps_[static_cast<std::size_t>(last_use[s])].release.push_back(static_cast<int>(s));
}

std::vector<int> InferenceSession::slot_readers() const {
  std::vector<int> readers(slots_.size(), 0);
  for (const Step& st : steps_)
    for (int s : st.inputs)
      if (s >= 0) ++readers[static_cast<std::size_t>(s)];
  for (const auto& [name, s] : output_slots_) ++readers[static_cast<std::size_t>(s)];
  return readers;
}

void InferenceSession::fuse_conv_add() {
  const std::vector<int> readers = slot_readers();
  std::vector<int> producer(slots_.size(), -1);
  for (std::size_t i = 0; i < steps_.size(); ++i)
    for (int s : steps_[i].outputs)
      if (s >= 0) producer[static_cast<std::size_t>(s)] = static_cast<int>(i);
  // Rank-4 f32 tensors of the same dims (named dynamic ones included): no broadcast.
  const auto same_f32 = [&](const std::string& a, const std::string& b) {
    const ir::Tensor* x = graph_->find_tensor(a);
    const ir::Tensor* y = graph_->find_tensor(b);
    return x && y && x->dtype == ir::DType::Float32 && y->dtype == ir::DType::Float32 && x->shape.rank_known &&
           y->shape.rank_known && x->shape.rank() == 4 && x->shape.dims == y->shape.dims;
  };
  std::vector<bool> moved(steps_.size(), false);
  for (std::size_t j = 0; j < steps_.size(); ++j) {
    Step& add = steps_[j];
    const ir::Operation& aop = *add.op;
    if (aop.kind != ir::OpKind::Add || add.int8 || add.pre || add.inputs.size() != 2 || add.outputs.size() != 1)
      continue;
    for (std::size_t k = 0; k < 2; ++k) {
      const int cs = add.inputs[k], ss = add.inputs[1 - k];
      if (cs < 0 || ss < 0 || cs == ss || readers[static_cast<std::size_t>(cs)] != 1) continue;
      const int i = producer[static_cast<std::size_t>(cs)];
      if (i < 0 || static_cast<std::size_t>(i) >= j || moved[static_cast<std::size_t>(i)]) continue;
      const Step& conv = steps_[static_cast<std::size_t>(i)];
      const ir::Operation& cop = *conv.op;
      if (cop.kind != ir::OpKind::Conv || conv.int8 || conv.pre || conv.outputs.size() != 1 ||
          cop.inputs.size() < 2 || cop.inputs.size() > 3 || cop.attr_string("layout", "NCHW") != "NHWC" ||
          ir::fused_activation(cop) != ir::Activation::None || cop.attr("sum_input") ||
          !same_f32(cop.outputs[0], aop.inputs[1 - k]) || !same_f32(cop.outputs[0], aop.outputs[0]))
        continue;
      ir::Operation copy = cop;
      copy.inputs.resize(3);  // x, w, bias ("" when none)
      copy.inputs.push_back(aop.inputs[1 - k]);
      copy.attributes["sum_input"] = std::int64_t{3};
      ir::set_fused_activation(copy, ir::fused_activation(aop));
      copy.outputs = aop.outputs;
      fused_ops_.push_back(std::move(copy));
      Step st = conv;
      st.op = &fused_ops_.back();
      st.inputs.resize(3, -1);
      st.inputs.push_back(ss);
      st.outputs = add.outputs;
      add = std::move(st);  // the Conv runs at the Add's place (its inputs are all computed by then)
      moved[static_cast<std::size_t>(i)] = true;
      ++fused_count_;
      break;
    }
  }
  std::vector<Step> kept;
  for (std::size_t i = 0; i < steps_.size(); ++i)
    if (!moved[i]) kept.push_back(std::move(steps_[i]));
  steps_ = std::move(kept);
}

void InferenceSession::fuse_int8_tables() {
  const std::vector<int> readers = slot_readers();
  std::vector<Step> kept;
  for (Step& st : steps_) {
    if (!kept.empty()) {
      Step& prev = kept.back();
      const std::int8_t* table = st.int8 ? st.int8->as_table() : nullptr;
      if (table && prev.int8 && !prev.pre && prev.outputs.size() == 1 && prev.outputs[0] >= 0 &&
          readers[static_cast<std::size_t>(prev.outputs[0])] == 1 && !st.inputs.empty() &&
          st.inputs[0] == prev.outputs[0] && st.outputs.size() == 1 && prev.int8->take_output_table(table)) {
        prev.outputs = st.outputs;  // prev now writes the activation's output
        ++fused_count_;
        continue;
      }
    }
    kept.push_back(std::move(st));
  }
  steps_ = std::move(kept);
}

void InferenceSession::chain_expand_depthwise() {
  const std::vector<int> readers = slot_readers();
  // An NHWC f32 Conv with a rank-4 weight whose dims `unit_dims` are 1 (the kernel takes
  // the pair only when its weights are session constants, Identity copies included).
  const auto conv_with = [&](const Step& st, std::initializer_list<int> unit_dims) {
    const ir::Operation& op = *st.op;
    if (op.kind != ir::OpKind::Conv || st.int8 || st.pre || op.inputs.size() < 2 ||
        st.outputs.size() != 1 || op.attr_string("layout", "NCHW") != "NHWC" || op.attr("sum_input"))
      return false;
    const ir::Tensor* w = graph_->find_tensor(op.inputs[1]);
    if (!w || w->dtype != ir::DType::Float32 || !w->shape.is_static() || w->shape.rank() != 4)
      return false;
    const auto dims = w->shape.sizes();
    return std::all_of(unit_dims.begin(), unit_dims.end(),
                       [&](int d) { return dims[static_cast<std::size_t>(d)] == 1; });
  };
  std::vector<Step> kept;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    Step& st = steps_[i];
    // st's single output read by the next step alone, as its first input.
    Step* next = i + 1 < steps_.size() ? &steps_[i + 1] : nullptr;
    if (next && !st.pre && st.outputs.size() == 1 && st.outputs[0] >= 0 &&
        readers[static_cast<std::size_t>(st.outputs[0])] == 1 && !next->inputs.empty() &&
        next->inputs[0] == st.outputs[0]) {
      // int8: the depthwise Conv's kernel says whether it takes the 1x1 Conv before it.
      const bool int8_pair = st.int8 && next->int8 && next->int8->runs_after(*st.int8);
      // f32 depthwise: OHWI [M, kH, kW, 1] with M groups (the exact geometry is checked per run).
      const bool f32_pair = conv_with(st, {1, 2}) && conv_with(*next, {3}) &&
                            next->op->attr_int("group", 1) ==
                                graph_->find_tensor(next->op->inputs[1])->shape.sizes()[0] &&
                            st.op->attr_int("group", 1) == 1;
      if (int8_pair || f32_pair) {
        next->pre = st.op;
        next->pre_inputs = st.inputs;
        if (int8_pair) next->pre_int8 = st.int8;
        continue;
      }
    }
    kept.push_back(std::move(st));
  }
  steps_ = std::move(kept);
}

std::vector<TensorInfo> InferenceSession::inputs() const {
  std::vector<TensorInfo> v;
  for (const auto& name : graph_->inputs) {
    const ir::Tensor* t = graph_->find_tensor(name);
    v.push_back({name, t ? t->dtype : ir::DType::Undefined, t ? t->shape : ir::Shape::unknown_rank()});
  }
  return v;
}

std::vector<TensorInfo> InferenceSession::outputs() const {
  std::vector<TensorInfo> v;
  for (const auto& name : graph_->outputs) {
    const ir::Tensor* t = graph_->find_tensor(name);
    v.push_back({name, t ? t->dtype : ir::DType::Undefined, t ? t->shape : ir::Shape::unknown_rank()});
  }
  return v;
}

void InferenceSession::check_input(const TensorInfo& info, const Tensor& t) const {
  auto mismatch = [&] {
    throw EdgeCompilerError(ErrorKind::Input, "input '" + info.name + "': expected " + expected_type(info) +
                                                  ", got " + t.type_string());
  };
  if (info.dtype != ir::DType::Undefined && t.dtype() != info.dtype) mismatch();
  if (!info.shape.rank_known) return;
  if (t.rank() != info.shape.rank()) mismatch();
  for (std::size_t d = 0; d < t.rank(); ++d)
    if (info.shape.dims[d].is_static() && info.shape.dims[d].value != t.dim(d)) mismatch();
}

std::map<std::string, Tensor> InferenceSession::run(const std::map<std::string, Tensor>& inputs,
                                                    RunProfile* profile) const {
  return run_steps(inputs, profile, nullptr);
}

std::map<std::string, Tensor> InferenceSession::run(const std::map<std::string, Tensor>& inputs,
                                                    const TensorObserver& observer) const {
  if (target_) throw EdgeCompilerError(ErrorKind::Usage, "intermediate tensors are seen only on the CPU runtime");
  return run_steps(inputs, nullptr, observer ? &observer : nullptr);
}

std::map<std::string, Tensor> InferenceSession::run_steps(const std::map<std::string, Tensor>& inputs,
                                                          RunProfile* profile, const TensorObserver* observer) const {
  if (!graph_) throw EdgeCompilerError(ErrorKind::Usage, "no model loaded");
  if (target_) return target_->run(inputs);
  PoolScope pool_scope(pool_.get());
  gemm::PackCacheScope pack_scope(pack_cache_.get());
  ArenaScope arena_scope(arena_.get());
  std::vector<Tensor> env = constants_;
  const auto infos = this->inputs();
  for (const auto& [name, t] : inputs)
    if (std::none_of(infos.begin(), infos.end(), [&](const TensorInfo& i) { return i.name == name; })) {
      std::string known;
      for (const auto& i : infos) known += (known.empty() ? "" : ", ") + i.name;
      throw EdgeCompilerError(ErrorKind::Input, "input '" + name + "': the model has no such input (its inputs: " + known + ")");
    }
  for (std::size_t i = 0; i < infos.size(); ++i) {
    auto it = inputs.find(infos[i].name);
    if (it == inputs.end() || !it->second.defined())
      throw EdgeCompilerError(ErrorKind::Input, "input '" + infos[i].name + "': missing (expected " +
                                                    expected_type(infos[i]) + ")");
    check_input(infos[i], it->second);
    // fp16 simulation: an f32 input is cast to fp16 at the boundary (a copy: the caller's stays)
    env[static_cast<std::size_t>(input_slots_[i].second)] =
        options_.simulate_fp16 ? rounded_to_half(it->second) : it->second;
  }
  std::vector<Tensor> args, pre_args;
  // The op's inputs from their slots; `skip_first`: its first is computed inside the step.
  const auto gather = [&](const ir::Operation& op, const std::vector<int>& slots,
                          std::vector<Tensor>& to, bool skip_first) {
    to.clear();
    for (int s : slots) {
      if (skip_first && to.empty()) {
        to.emplace_back();
        continue;
      }
      if (s >= 0 && !env[static_cast<std::size_t>(s)].defined() && !constants_[static_cast<std::size_t>(s)].defined()) {
        const auto& name = op.inputs[to.size()];
        const ir::Tensor* t = graph_->find_tensor(name);
        if (t && t->is_constant())
          throw UnsupportedOpError(op.op_type + " on a " + std::string(ir::dtype_name(t->dtype)) + " constant",
                                   "the CPU runtime", "", op_label(op));
        throw EdgeCompilerError(ErrorKind::Graph, op_label(op) + ": input '" + name + "' is not computed before it");
      }
      to.push_back(s >= 0 ? env[static_cast<std::size_t>(s)] : Tensor());
    }
  };
  for (const Step& st : steps_) {
    const ir::Operation& op = *st.op;
    if (st.pre) gather(*st.pre, st.pre_inputs, pre_args, false);
    gather(op, st.inputs, args, st.pre != nullptr);
    std::vector<Tensor> results;
    const auto t0 = profile ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    try {
      results = st.pre_int8 ? st.int8->run_after(*st.pre_int8, pre_args, args)
                : st.pre    ? kernels::conv_pair_nhwc(*st.pre, pre_args, op, args)
                : st.int8   ? st.int8->run(args)
                          : find_kernel(op.kind)->run(op, args);
    } catch (const UnsupportedOpError& e) {
      if (e.op_type() == op.op_type) throw;
      // A kernel refusing some inputs ("kernel on f16 tensors"): name the op as the unsupported one.
      throw UnsupportedOpError(op.op_type, e.backend(),
                               e.op_type() + (e.suggestion().empty() ? "" : "; " + e.suggestion()), op_label(op));
    } catch (const EdgeCompilerError& e) {
      throw EdgeCompilerError(e.kind(), op_label(op) + ": " + e.what(), e.detail());
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      throw EdgeCompilerError(ErrorKind::Graph, op_label(op) + ": " + e.what());
    }
    if (options_.simulate_fp16) round_outputs_to_half(results, args);
    if (profile)
      profile->ops.push_back(
          {st.pre ? st.pre->name + " + " + op.name : op.name, op.op_type,
           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
               .count()});
    for (std::size_t i = 0; i < st.outputs.size(); ++i) {
      if (st.outputs[i] < 0) continue;
      if (i >= results.size() || !results[i].defined())
        throw EdgeCompilerError(ErrorKind::Graph, op_label(op) + ": output " + std::to_string(i) + " was not produced");
      env[static_cast<std::size_t>(st.outputs[i])] = std::move(results[i]);
      if (observer) (*observer)(op, i, op.outputs[i], env[static_cast<std::size_t>(st.outputs[i])]);
    }
    for (int s : st.release) env[static_cast<std::size_t>(s)] = Tensor();
  }
  std::map<std::string, Tensor> out;
  for (const auto& [name, s] : output_slots_) {
    const Tensor& t = env[static_cast<std::size_t>(s)];
    if (!t.defined()) throw EdgeCompilerError(ErrorKind::Graph, "output '" + name + "' was not computed");
    out[name] = t;
  }
  return out;
}

Stats InferenceSession::benchmark(const std::map<std::string, Tensor>& inputs, int iterations, int warmup) const {
  BenchmarkOptions o;
  o.iterations = iterations;
  o.warmup = warmup;
  return run_benchmark(*this, inputs, o);
}

Stats InferenceSession::benchmark(int iterations, int warmup) const {
  return benchmark(random_inputs(), iterations, warmup);
}

std::map<std::string, Tensor> InferenceSession::random_inputs(std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  std::map<std::string, Tensor> out;
  for (const auto& info : inputs()) {
    std::vector<std::int64_t> shape;
    if (info.shape.rank_known)
      for (const auto& d : info.shape.dims) shape.push_back(d.is_static() ? d.value : 1);
    const ir::DType dt = info.dtype == ir::DType::Undefined ? ir::DType::Float32 : info.dtype;
    // A declared dim can be anything a model file says (2^32, 2^62): refuse to invent
    // more data than any real input needs instead of spending minutes or wrapping.
    constexpr std::size_t kMaxRandomBytes = std::size_t{1} << 30;
    std::size_t bytes = SIZE_MAX;
    try {
      bytes = shape_bytes(shape, dt);
    } catch (const EdgeCompilerError&) {  // beyond 64-bit sizes: refused below like any huge input
    }
    if (bytes > kMaxRandomBytes)
      throw EdgeCompilerError(ErrorKind::Io, "input '" + info.name + "' is " + std::string(ir::dtype_name(dt)) +
                                                 shape_string(shape) +
                                                 ", more than the 1 GiB of random data edgecompile generates; "
                                                 "give it with --input " + info.name + "=FILE.npy");
    Tensor t(dt, shape);
    dispatch_all(dt, [&]<typename T>() {
      T* p = t.mutable_data<T>();
      for (std::int64_t i = 0; i < t.numel(); ++i) {
        if constexpr (std::is_same_v<T, bool>) p[i] = (rng() & 1) != 0;
        else if constexpr (std::is_floating_point_v<T>)
          p[i] = static_cast<T>(std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
        else p[i] = static_cast<T>(rng() % 10);
      }
    }, "random inputs");
    out.emplace(info.name, std::move(t));
  }
  return out;
}

std::map<std::string, Tensor> run_graph(ir::FrozenGraph graph, const std::map<std::string, Tensor>& inputs) {
  InferenceSession s;
  s.load(std::move(graph));
  return s.run(inputs);
}

}  // namespace ec::runtime
