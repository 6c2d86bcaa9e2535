// Stage observe (stages.h): the lanes set up, and (ptq) observers on every
// activation tensor that needs params.
//
// Whole samples run at once on "lanes" (sample_lanes.h), one sample per lane on
// sessions of their own (whole runs scale better than the ops inside one run):
// a lane runs the float graph and takes each tensor's min/max; in sample order,
// each observer counts the run and says the range R to bin it at; the lane then
// bins it at that R into histograms of its own, absorbed when all are done. The
// observers end exactly as observing the samples one by one would leave them.
#include <algorithm>
#include <chrono>

#include "core/errors.h"
#include "core/quantize/sample_lanes.h"
#include "core/quantize/stages/stages.h"

namespace ec::quantize::detail {
namespace {

// Calibration and the report run whole samples on up to this many lanes at once.
// Each lane holds its sessions and one sample's exposed values (float and int8):
// lanes are also capped so that those values stay within kLaneBudget bytes in all.
constexpr int kMaxLanes = 8;
constexpr std::int64_t kLaneBudget = std::int64_t{1} << 30;

void set_up_lanes(QuantContext& c) {
  std::int64_t sample_bytes = 0;  // one sample's exposed float values (static shapes; int8 ones are 1/4 of it)
  for (const auto& t : c.act)
    if (const ir::Tensor* x = c.fg().find_tensor(t))
      sample_bytes += x->shape.num_elements().value_or(0) * static_cast<std::int64_t>(sizeof(float));
  const int max_lanes = static_cast<int>(
      std::clamp<std::int64_t>(kLaneBudget / std::max<std::int64_t>(1, 2 * sample_bytes), 1, kMaxLanes));
  const int lanes = std::clamp(c.threads, 1, std::max(1, std::min(max_lanes, static_cast<int>(c.samples.size()))));
  c.lane_threads = std::max(1, c.threads / lanes);
  for (const auto& t : c.act) c.observers[t];
  c.lanes.resize(static_cast<std::size_t>(lanes));
}

}  // namespace

// The lane bins each tensor right after its min/max, while the values are still
// in cache, at the R the observer will most likely return (the lane's own R grown
// by this run); finish keeps those bins when merge returned that R (R rarely grows
// after the first samples) and bins again at the right one otherwise.
void observe_work(QuantContext& c, Lane& ln) {
  const auto& act = c.act;
  ln.extents.assign(act.size(), Extent{});
  ln.guess.assign(act.size(), -1.f);
  ln.bins.resize(act.size());
  ln.early.resize(act.size());
  for (std::size_t k = 0; k < act.size(); ++k) {
    auto it = ln.f.find(act[k]);
    if (it == ln.f.end()) continue;
    const auto values = floats(it->second);
    const Extent e = ln.extents[k] = CalibrationObserver::extent(values);
    if (!e.finite || e.count == 0) continue;
    ln.guess[k] = CalibrationObserver::grown_range(ln.bins[k].half_range(), e);
    ln.early[k].reset();
    ln.early[k].add(values, ln.guess[k]);
  }
}

void observe_merge(QuantContext& c, Lane& ln) {
  const auto& act = c.act;
  for (std::size_t k = 0; k < act.size(); ++k)
    if (!ln.extents[k].finite)
      throw QuantizationError(act[k], "calibration produced NaN or infinite values; check the calibration data and the model");
  ln.bin_at.resize(act.size());
  for (std::size_t k = 0; k < act.size(); ++k) ln.bin_at[k] = c.observers.at(act[k]).add_extent(ln.extents[k]);
}

void observe_finish(QuantContext& c, Lane& ln) {
  const auto& act = c.act;
  for (std::size_t k = 0; k < act.size(); ++k) {
    auto it = ln.f.find(act[k]);
    if (it == ln.f.end()) continue;
    if (ln.guess[k] == ln.bin_at[k]) ln.bins[k].absorb(ln.early[k]);
    else ln.bins[k].add(floats(it->second), ln.bin_at[k]);
  }
}

void absorb_lanes(QuantContext& c) {
  for (auto& ln : c.lanes) {
    for (std::size_t k = 0; k < ln.bins.size() && k < c.act.size(); ++k) c.observers.at(c.act[k]).absorb(ln.bins[k]);
    ln.bins.clear();
  }
}

void observe(QuantContext& c) {
  c.act = activation_tensors(c);
  set_up_lanes(c);
  if (!c.strategy->calibrate) return;  // the report's runs observe (qat, dynamic)
  const auto t0 = std::chrono::steady_clock::now();
  SampleSteps steps;
  steps.work = [&](int l, std::size_t s) {
    Lane& ln = c.lanes[static_cast<std::size_t>(l)];
    ln.f = float_runner(c, l).run(c.samples[s]);
    observe_work(c, ln);
  };
  steps.merge = [&](int l, std::size_t) { observe_merge(c, c.lanes[static_cast<std::size_t>(l)]); };
  steps.finish = [&](int l, std::size_t) {
    Lane& ln = c.lanes[static_cast<std::size_t>(l)];
    observe_finish(c, ln);
    ln.f.clear();
  };
  run_in_lanes(c.samples.size(), static_cast<int>(c.lanes.size()), steps, stage_progress(c, "calibrate"));
  absorb_lanes(c);
  c.result.report.calibration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace ec::quantize::detail
