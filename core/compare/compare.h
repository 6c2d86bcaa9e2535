// Layer-by-layer compare of two models (issue 42): both run on the CPU runtime on the
// same inputs with every intermediate tensor observed (SessionOptions::keep_intermediates),
// their tensors matched — by name, then by origin (a name a compiled model derived from the
// source's: `x.nhwc`, a Quantize's `x_int8`...), then by graph position (same op type on
// matched inputs) — and each matched pair measured after int8 tensors are dequantised with
// their own scale and NHWC tensors put back to NCHW. The CLI's `compare`, the Python
// `ec.compare` and the workbench's Compare With… read the same CompareResult.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/ir/graph.h"
#include "core/passes/pass.h"
#include "core/runtime/tensor.h"

namespace ec::compare {

/// One set of named inputs (model A's names and layout).
using Sample = std::map<std::string, runtime::Tensor>;

struct CompareOptions {
  /// A tensor diverges when its SQNR falls at least `jump_db` below the worst of the
  /// matched tensors it is computed from...
  double jump_db = 6;
  /// ...and lies below `noise_floor_db` (float rounding stays far above it: a relative
  /// error of 1e-5 is about 100 dB).
  double noise_floor_db = 80;
  /// Threads of each session (0 = every core).
  int threads = 0;
  /// Run A / B with fp16 compute simulated (runtime::SessionOptions::simulate_fp16);
  /// unset: decided from the model (computes_in_fp16: a Core ML package typed fp16).
  std::optional<bool> fp16_a, fp16_b;
  /// The noise floor when either side computes in fp16: fp16 rounding alone (a relative
  /// error near 1e-3) sits around 55-75 dB, so only a tensor below this is a divergence.
  double fp16_noise_floor_db = 40;
};

/// Whether a model computes in fp16 on its device: a Core ML program whose ops are typed
/// fp16 (the frontend records `coreml.compute_precision`; the Metal backend's default).
bool computes_in_fp16(const ir::Graph& g);

/// How a tensor of B was paired with one of A.
enum class MatchedBy { Name, Origin, Position };
// Name: the same tensor name. Origin: a name one side derived from the other's (`x.nhwc`,
// `x_int8`, Core ML's identifier form `a_b_c` of `/a/b.c`, `OPNAME_conv` of op OPNAME).
// Position: the same op type on matched inputs. Origin and position pairs respect fusion:
// where one side folded a chain (Conv + BatchNormalization, + Relu, MatMul + Add bias...)
// the fused op's output pairs with the chain's LAST tensor on the other side.
const char* to_string(MatchedBy m);

/// One matched pair of tensors and what differs between them (over every sample).
struct TensorComparison {
  std::string a, b;              // tensor names in A and in B
  std::string a_op, b_op;        // the ops computing them ("" for a graph input)
  std::string op_type;           // A's op type ("input" for a graph input)
  std::string b_op_type;
  int a_order = -1;              // index of A's op in A's topological order (-1: graph input)
  int b_order = -1;              // index of B's op in B's op order (-1: graph input)
  MatchedBy matched_by = MatchedBy::Name;
  bool transposed = false;       // B's tensor was NHWC (or NCHW) and put into A's layout
  bool dequantised_a = false, dequantised_b = false;
  std::vector<std::int64_t> shape;  // A's (first sample)
  std::int64_t elements = 0;     // per sample
  bool compared = false;         // false: `skipped` says why (shapes that do not correspond)
  std::string skipped;
  double max_abs_error = 0;
  double max_rel_error = 0;      // max |a - b| / max |a|
  double sqnr_db = 0;            // 10 log10(sum a^2 / sum (a - b)^2); 200 when exact
  double cosine = 1;             // sum ab / sqrt(sum a^2 sum b^2)
  double drop_db = 0;            // worst SQNR of the matched tensors it is computed from, minus its own
  std::int64_t nonfinite_a = 0, nonfinite_b = 0;  // NaN or Inf elements (left out of the sums)
  bool exact = true;             // every element equal (after dequantisation and layout)
  /// Attributes the two producing ops (of the same op type) set differently, by key:
  /// the op is "changed" (e.g. another pad, stride or fused activation).
  std::vector<std::string> changed_attributes;
};

/// An op whose outputs have no match on the other side.
struct UnmatchedOp {
  char side = 'a';      // 'a' or 'b'
  int order = -1;       // index into that side's Graph::ops
  std::string op, op_type;
  /// A: "fused" (what it computed is part of a matched tensor further on: `into` names
  /// B's op) or "removed"; B: "added".
  std::string status;
  std::string into;
};

/// Where a NaN or Inf first appears in one model (its own op order).
struct NonFinite {
  std::string tensor, op, op_type;
  std::int64_t nan = 0, inf = 0;
};

struct CompareResult {
  std::string model_a, model_b;
  int samples = 0;
  std::vector<TensorComparison> tensors;  // graph inputs, then A's op order
  std::vector<UnmatchedOp> unmatched;
  std::optional<std::size_t> first_divergence;  // into `tensors`
  std::string divergence_rule;                  // how first_divergence was chosen, one line
  std::optional<NonFinite> first_nonfinite_a, first_nonfinite_b;
  std::vector<std::string> notes;
  bool fp16_a = false, fp16_b = false;  // ran with fp16 compute simulated
  double noise_floor_db = 80;           // the divergence rule's (fp16_noise_floor_db when a side is fp16)

  /// Compared pairs sorted by error (lowest SQNR first, then largest relative error).
  std::vector<std::size_t> by_error() const;
  const TensorComparison* find_a(const std::string& tensor) const;
  const TensorComparison* find_b(const std::string& tensor) const;
};

/// Progress: (done, total, what). Returning false cancels (EdgeCompilerError, kind Cancelled... Usage).
using ProgressFn = std::function<bool(int done, int total, const std::string& what)>;

/// The pairing of A's and B's tensors, decided from the graphs alone.
struct TensorMatch {
  std::string a, b;
  MatchedBy by = MatchedBy::Name;
};
std::vector<TensorMatch> match_tensors(const ir::Graph& a, const ir::Graph& b);

/// Refuses models whose inputs differ in names or shapes (NHWC of the same NCHW shape is
/// the same input): EdgeCompilerError (Input) with one line saying which.
void check_inputs(const ir::Graph& a, const ir::Graph& b);

/// `n` deterministic random samples for A's inputs (quantize::random_samples, seed 0).
std::vector<Sample> random_samples(const ir::Graph& a, int n, std::uint64_t seed = 0);

/// Runs A and B on every sample and compares every matched tensor. Throws
/// EdgeCompilerError (Input) when the inputs differ or nothing matched.
CompareResult compare_models(const ir::FrozenGraph& a, const ir::FrozenGraph& b, const std::vector<Sample>& samples,
                             const CompareOptions& options = {}, const ProgressFn& progress = {});

/// One pass of a pipeline and how it changed the numbers (its graph after vs before).
struct PassNumerics {
  std::string pass;
  std::size_t ops_before = 0, ops_after = 0;
  bool changed_graph = false;
  CompareResult result;            // after vs before (empty when the graph did not change)
  double worst_sqnr_db = 200;      // over matched tensors
  double worst_rel_error = 0;
  bool beyond_noise = false;       // worst relative error above PassesOptions::noise_rel
};

struct PassesResult {
  std::string model;
  std::vector<PassNumerics> stages;
  std::optional<std::size_t> first_beyond_noise;  // into `stages`
  double noise_rel = 1e-4;
  std::vector<ir::FrozenGraph> graphs;            // the graph before the first pass, then after each
};

/// Runs `pipeline` (pass names) on `g` stage by stage and compares each stage's graph with
/// the one before it; names the first pass whose relative error exceeds `noise_rel`.
PassesResult compare_passes(const ir::Graph& g, const std::vector<std::string>& pipeline, const std::vector<Sample>& samples,
                            const CompareOptions& options = {}, double noise_rel = 1e-4,
                            const ProgressFn& progress = {});
/// Same with the passes themselves (a pipeline of passes not in the registry: tests).
PassesResult compare_passes(const ir::Graph& g, std::vector<std::unique_ptr<passes::Pass>> pipeline,
                            const std::vector<Sample>& samples, const CompareOptions& options = {},
                            double noise_rel = 1e-4, const ProgressFn& progress = {});

nlohmann::json to_json(const CompareResult& r);
nlohmann::json to_json(const PassesResult& r);
/// The table `edgecompile compare` prints (every matched tensor in A's order).
std::string to_text(const CompareResult& r);
std::string to_text(const PassesResult& r);
/// A self-contained HTML page of the table (no scripts, no outside resources).
std::string to_html(const CompareResult& r);

/// Samples for A from the command line's forms: NAME=FILE.npy specs (one sample), or
/// one FILE.npy / DIR of NAME.npy with N samples on axis 0 (as --calibration-data reads
/// them; at most `max_samples`), or none: `max_samples` random samples (seed 0).
std::vector<Sample> samples_for(const ir::Graph& a, const std::vector<std::string>& specs, int max_samples,
                                const std::map<std::string, runtime::Tensor>& named = {});

}  // namespace ec::compare
