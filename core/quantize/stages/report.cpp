// Stages report and sensitivity (stages.h): the float and the int8 graph run on
// every sample, and what they measure written into the QuantReport.
#include <algorithm>
#include <limits>

#include "core/quantize/sample_lanes.h"
#include "core/quantize/stages/stages.h"

namespace ec::quantize::detail {
namespace {

// The real values of a runtime tensor: f32 as is, i8 dequantised with `p`.
std::vector<float> real_values(const runtime::Tensor& t, const ir::QuantParams* p) {
  if (t.dtype() == ir::DType::Float32) {
    auto v = t.values<float>();
    return {v.begin(), v.end()};
  }
  std::vector<float> out;
  if (t.dtype() != ir::DType::Int8 || !p) return out;
  out.resize(static_cast<std::size_t>(t.numel()));
  const std::int8_t* q = t.data<std::int8_t>();
  const float s = p->scales[0];
  const auto zp = static_cast<std::int32_t>(p->zero_points[0]);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(q[i] - zp) * s;
  return out;
}

std::int64_t argmax(std::span<const float> v) {
  return v.empty() ? -1 : static_cast<std::int64_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// What the runs over the samples measured, added in sample order.
struct Measured {
  std::map<std::string, SqnrAccumulator> tensor_acc;  // by activation tensor
  std::vector<SqnrAccumulator> out_acc;               // by graph output
  std::vector<int> agree;                             // by graph output: samples whose argmax agrees
};

// The float graph and the int8 graph run on each sample in the lanes, which also
// take the sample's own SQNR sums per tensor; the sums are added in sample order
// (the same double additions as one sample at a time). Without calibration (qat,
// dynamic), these runs are also the observers'.
Measured measure(QuantContext& c) {
  const ir::Graph& fg = c.fg();
  const auto& act = c.act;
  const bool calibrated = c.strategy->calibrate;
  Measured m;
  std::vector<SqnrAccumulator> act_acc(act.size());
  std::vector<char> act_measured(act.size(), 0);
  m.out_acc.resize(fg.outputs.size());
  m.agree.assign(fg.outputs.size(), 0);
  if (!c.samples.empty()) {
    SampleSteps steps;
    steps.work = [&](int l, std::size_t s) {
      Lane& ln = c.lanes[static_cast<std::size_t>(l)];
      ln.q = q_runner(c, l).run(c.samples[s]);
      ln.f = float_runner(c, l).run(c.samples[s]);
      const auto& f = ln.f;
      const auto& q = ln.q;
      if (!calibrated) observe_work(c, ln);
      ln.act_sums.assign(act.size(), SqnrAccumulator{});
      ln.act_have.assign(act.size(), 0);
      for (std::size_t k = 0; k < act.size(); ++k) {
        auto ref = c.reference_of.find(act[k]);
        auto a = f.find(ref == c.reference_of.end() ? act[k] : ref->second), b = q.find(c.q_names[k]);
        if (a == f.end() || b == q.end()) continue;
        const auto p = c.plan.params.find(act[k]);
        const ir::QuantParams* qp = p == c.plan.params.end() ? nullptr : &p->second;
        if (b->second.dtype() == ir::DType::Int8 && qp)  // dequantised on the fly, no float copy
          ln.act_sums[k].add_dequantized(floats(a->second), b->second.values<std::int8_t>(), qp->scales[0],
                                         static_cast<std::int32_t>(qp->zero_points[0]));
        else
          ln.act_sums[k].add(floats(a->second), real_values(b->second, qp));
        ln.act_have[k] = 1;
      }
      ln.out_sums.assign(fg.outputs.size(), SqnrAccumulator{});
      ln.out_have.assign(fg.outputs.size(), 0);
      ln.agree.assign(fg.outputs.size(), 0);
      for (std::size_t o = 0; o < fg.outputs.size(); ++o) {
        auto a = f.find(fg.outputs[o]), b = q.find(fg.outputs[o]);
        if (a == f.end() || b == q.end()) continue;
        ln.out_sums[o].add(floats(a->second), floats(b->second));
        ln.out_have[o] = 1;
        ln.agree[o] = argmax(floats(a->second)) == argmax(floats(b->second));
      }
      ln.q.clear();
      if (calibrated) ln.f.clear();
    };
    steps.merge = [&](int l, std::size_t) {
      Lane& ln = c.lanes[static_cast<std::size_t>(l)];
      if (!calibrated) observe_merge(c, ln);
      for (std::size_t k = 0; k < act.size(); ++k)
        if (ln.act_have[k]) {
          act_acc[k].merge(ln.act_sums[k]);
          act_measured[k] = 1;
        }
      for (std::size_t o = 0; o < fg.outputs.size(); ++o)
        if (ln.out_have[o]) {
          m.out_acc[o].merge(ln.out_sums[o]);
          m.agree[o] += ln.agree[o];
        }
    };
    steps.finish = [&](int l, std::size_t) {
      Lane& ln = c.lanes[static_cast<std::size_t>(l)];
      if (!calibrated) observe_finish(c, ln);
      ln.f.clear();
    };
    run_in_lanes(c.samples.size(), static_cast<int>(c.lanes.size()), steps, stage_progress(c, "report"));
    if (!calibrated) absorb_lanes(c);
  }
  for (std::size_t k = 0; k < act.size(); ++k)
    if (act_measured[k]) m.tensor_acc[act[k]] = act_acc[k];
  return m;
}

// A figure that was not measured is never reported as one.
constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

void report_tensors(const QuantContext& c, const Measured& m, QuantReport& report) {
  const ir::Graph& fg = c.fg();
  for (const auto& t : c.act) {
    TensorReport r;
    r.tensor = t;
    const auto p = c.uses->producer(t);
    r.producer = p >= 0 ? op_label(fg.ops[static_cast<std::size_t>(p)], static_cast<std::size_t>(p)) : "";
    if (auto it = c.plan.params.find(t); it != c.plan.params.end()) r.params = it->second;
    const auto [lo, hi] = represented_range(r.params);
    r.range_min = lo;
    r.range_max = hi;
    if (auto it = c.observers.find(t); it != c.observers.end() && !it->second.empty()) {
      const CalibrationObserver& ob = it->second;
      r.float_min = ob.min();
      r.float_max = ob.max();
      auto ref = c.reference_of.find(t);
      const CalibrationObserver& clip_ob = ref == c.reference_of.end() ? ob : c.observers.at(ref->second);
      // Values within half a step of the ends round to them: not clipped.
      const float half = 0.5f * r.params.scales.at(0);
      r.clip_fraction = clip_ob.clip_fraction(lo - half, hi + half);
      r.hist_min = ob.min();
      r.hist_max = ob.max();
      r.histogram = ob.histogram(ob.min(), ob.max(), 64);
    }
    const auto acc = m.tensor_acc.find(t);
    r.sqnr_db = acc != m.tensor_acc.end() ? acc->second.db() : kNotMeasured;
    report.tensors.push_back(std::move(r));
  }
}

void report_layers(const QuantContext& c, const Measured& m, QuantReport& report) {
  const ir::Graph& fg = c.fg();
  for (const auto& [i, l] : c.plan.layers) {
    const ir::Operation& op = fg.ops[i];
    LayerReport r;
    r.op = op_label(op, i);
    r.op_type = op.op_type;
    r.weight = op.inputs[1];
    r.per_channel = l.weights.params.scales.size() > 1;
    r.channel_sqnr_db = l.weights.channel_sqnr_db;
    r.channel_max_abs_error = l.weights.channel_max_abs_error;
    r.weight_sqnr_db = l.weights.sqnr_db;
    r.weight_params = l.weights.params;
    r.hybrid = c.plan.hybrid_ops.count(i) > 0;
    const auto acc = m.tensor_acc.find(op.outputs[0]);
    r.output_sqnr_db = acc != m.tensor_acc.end() ? acc->second.db() : kNotMeasured;
    report.layers.push_back(std::move(r));
  }
  for (std::size_t i = 0; i < fg.ops.size(); ++i) {
    const auto it = c.plan.float_reasons.find(op_label(fg.ops[i], i));
    if (it != c.plan.float_reasons.end()) report.float_ops.push_back({it->first, fg.ops[i].op_type, it->second});
  }
}

void report_outputs(const QuantContext& c, const Measured& m, QuantReport& report) {
  const ir::Graph& fg = c.fg();
  for (std::size_t o = 0; o < fg.outputs.size(); ++o) {
    ModelReport r;
    r.output = fg.outputs[o];
    if (!c.samples.empty()) {
      r.sqnr_db = m.out_acc[o].db();
      r.max_abs_error = m.out_acc[o].max_abs_error;
      r.top1_agreement = static_cast<double>(m.agree[o]) / static_cast<double>(c.samples.size());
    }
    report.outputs.push_back(r);
  }
}

}  // namespace

void report(QuantContext& c) {
  const Measured m = measure(c);
  QuantReport& report = c.result.report;
  report.measured_samples = static_cast<int>(c.samples.size());
  report.data_source = c.options.data_source;
  report_tensors(c, m, report);
  report_layers(c, m, report);
  report_outputs(c, m, report);
}

// Each layer kept in float alone, on a few samples.
void sensitivity(QuantContext& c) {
  const ir::Graph& fg = c.fg();
  const Plan& plan = c.plan;
  if (!c.options.sensitivity || c.samples.empty() || plan.layers.empty()) return;
  const std::size_t n = std::min<std::size_t>(c.samples.size(), 8);
  std::vector<std::map<std::string, runtime::Tensor>> reference(n);  // float outputs, computed once
  for (std::size_t s = 0; s < n; ++s) {
    const auto f = float_runner(c, 0).run(c.samples[s]);
    for (const auto& o : fg.outputs) reference[s].emplace(o, f.at(o));
  }
  auto output_sqnr = [&](const ir::Graph& graph) {
    ExposedRunner r(graph, {}, c.options.threads);
    std::vector<SqnrAccumulator> acc(fg.outputs.size());
    for (std::size_t s = 0; s < n; ++s) {
      const auto& f = reference[s];
      const auto q = r.run(c.samples[s]);
      for (std::size_t o = 0; o < fg.outputs.size(); ++o)
        acc[o].add(floats(f.at(fg.outputs[o])), floats(q.at(fg.outputs[o])));
    }
    double sum = 0;
    for (const auto& a : acc) sum += a.db();
    return acc.empty() ? 0.0 : sum / static_cast<double>(acc.size());
  };
  // Each variant is the int8 graph with one more op kept in float.
  auto variant = [&](std::optional<std::size_t> keep) {
    if (!keep) return build_int8_graph(plan, false);
    Plan p = plan;
    p.int8_ops.erase(*keep);
    p.hybrid_ops.erase(*keep);
    p.layers.erase(*keep);
    return build_int8_graph(p, false);
  };
  const double base = output_sqnr(variant(std::nullopt));
  int done = 0;
  const int total = static_cast<int>(plan.layers.size());
  for (auto& lr : c.result.report.layers) {
    check_progress(c.progress, "sensitivity", done++, total);
    std::size_t idx = 0;
    for (const auto& [i, l] : plan.layers)
      if (op_label(fg.ops[i], i) == lr.op) idx = i;
    lr.sensitivity_gain_db = output_sqnr(variant(idx)) - base;
  }
  check_progress(c.progress, "sensitivity", total, total);
}

}  // namespace ec::quantize::detail
