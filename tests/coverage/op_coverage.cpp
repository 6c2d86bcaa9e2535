// op_coverage: the per-op coverage table (docs/OP_COVERAGE.md), generated from the
// op table (core/ir/ops.def through ir::all_ops(), never a hand list).
//
// For every OpKind it takes one-op graphs with the op's main attribute variants —
// the single-node cases of Debian's libonnx-testdata (data/node/test_<op>_*), one per
// distinct (attributes, input count, input dtype), every input after the first made a
// constant of the case's own data, or, for IR-only ops with no ONNX case, a small graph
// built here — and asks each of them:
//   float .tflite  prepare_for_tflite + save_tflite, the ops written (read back);
//   int8 .tflite   quantize (ptq, 3 random samples), then the same writer; an op the
//                  quantiser keeps in float is its own state ("kept float");
//   Coral          the coral backend's partition of the int8 graph (or the float one
//                  when quantising failed): status and our reason;
//   Metal          the metal backend's compile to a .mlpackage and its compute unit.
// Each variant runs in a forked child with a time limit, so a crash or a hang is a
// cell of the table, not the end of the run.
//
//   op_coverage generate OUT.md       writes the table
//   op_coverage check-rows DOC.md     fails when an OpKind has no row in DOC.md
//   op_coverage check-fresh DOC.md [--strict]
//                                     regenerates and prints how DOC.md differs;
//                                     passes with a "regenerate with" hint unless --strict
#include <onnx/onnx_pb.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/backends/backend_registry.h"
#include "core/backends/tflite/tflite_writer.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/frontends/tflite/tflite_frontend.h"
#include "core/ir/op_table.h"
#include "core/ir/shape_inference.h"
#include "core/ir/text_format.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/quantizer.h"
#include "tests/runtime/onnx_test_data.h"

namespace fs = std::filesystem;
using namespace ec;

namespace {

constexpr const char* kNodeData = "/usr/share/libonnx-testdata/data/node";
constexpr int kVariantsPerOp = 3;
constexpr int kTimeoutSeconds = 20;
constexpr int kWorkers = 2;
constexpr std::size_t kCellChars = 180;
constexpr const char* kRegenerate = "cmake --build build/ci --target op_coverage_doc";

// One graph to ask about: an ONNX conformance case or a graph built here (IR text).
struct Variant {
  std::string kind;   // OpKind name
  std::string label;  // the case name without "test_", or what was built
  std::string model;  // model.onnx path ("" = `text`)
  std::string text;   // IR text form of a built graph
};

std::string one_line(std::string s) {
  for (auto& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  if (out.size() > kCellChars) out = out.substr(0, kCellChars - 3) + "...";
  return out;
}

// --- variants from the ONNX conformance data ---------------------------------

std::string elem_name(int t) {
  return onnx::TensorProto_DataType_IsValid(t) ? onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(t))
                                                : std::to_string(t);
}

std::map<std::string, std::vector<Variant>> onnx_variants() {
  std::map<std::string, std::vector<Variant>> by_kind;
  std::map<std::string, std::set<std::string>> signatures;
  if (!fs::is_directory(kNodeData)) return by_kind;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(kNodeData))
    if (e.is_directory()) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    const std::string name = dir.filename().string();
    if (name.find("_expanded") != std::string::npos) continue;  // the function body, not the op
    std::ifstream f(dir / "model.onnx", std::ios::binary);
    onnx::ModelProto m;
    if (!f || !m.ParseFromIstream(&f) || m.graph().node_size() != 1) continue;
    const auto& node = m.graph().node(0);
    if (!node.domain().empty() && node.domain() != "ai.onnx") continue;
    const auto kind = ir::op_kind_from_name(node.op_type());
    if (!kind) continue;
    std::vector<std::string> attrs;
    for (const auto& a : node.attribute()) attrs.push_back(a.name());
    std::sort(attrs.begin(), attrs.end());
    std::string sig = std::to_string(node.input_size()) + ":";
    for (const auto& a : attrs) sig += a + ",";
    if (m.graph().input_size() > 0) sig += elem_name(m.graph().input(0).type().tensor_type().elem_type());
    auto& seen = signatures[node.op_type()];
    auto& list = by_kind[node.op_type()];
    if (static_cast<int>(list.size()) >= kVariantsPerOp || !seen.insert(sig).second) continue;
    list.push_back({node.op_type(), name.substr(5), (dir / "model.onnx").string(), {}});
  }
  return by_kind;
}

// --- variants built here, for ops with no ONNX case ------------------------------

std::string hex_floats(std::size_t n, float scale) {
  std::string h;
  char buf[9];
  for (std::size_t i = 0; i < n; ++i) {
    float v = scale * static_cast<float>(static_cast<int>((i * 37 + 11) % 17) - 8) / 8.f;
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    for (int b = 0; b < 4; ++b) {
      std::snprintf(buf, sizeof buf, "%02x", (u >> (8 * b)) & 0xff);
      h += buf;
    }
  }
  return "hex\"" + h + "\"";
}

// A one-op graph for an op with no single-node ONNX case: the IR-only ops, and ONNX ops
// the conformance data of onnx 1.12 has no such case for.
struct Built {
  std::string label, text;
};

Built built_graph(const ir::OpInfo& info) {
  const std::string n(info.name);
  const std::string head = "graph \"" + n + "\" {\n";
  const std::string x4 = "  input %x : f32[1,8,4,4]\n";
  auto one = [&](const std::string& label, const std::string& body, const std::string& call, const std::string& out) {
    return Built{label, head + body + "  %y = " + call + " : " + out + " @\"op\"\n  output %y\n}\n"};
  };
  // ops whose operands or attributes a generic graph cannot give
  if (info.kind == ir::OpKind::FullyConnected)
    return one("built: x f32[1,16], w [8,16], bias",
               "  input %x : f32[1,16]\n  const %w : f32[8,16] = " + hex_floats(128, 0.5f) + "\n  const %b : f32[8] = " +
                   hex_floats(8, 0.1f) + "\n",
               "FullyConnected(%x, %w, %b)", "f32[1,8]");
  if (info.kind == ir::OpKind::LpPool)
    return one("built: x f32[1,8,4,4], kernel 2x2, p 2", x4, "LpPool(%x) {kernel_shape = [2,2], strides = [2,2]}",
               "f32[1,8,2,2]");
  if (info.kind == ir::OpKind::MaxRoiPool)
    return one("built: x f32[1,8,4,4], 2 constant rois, pooled 2x2",
               x4 + "  const %r : f32[2,5] = " + hex_floats(10, 1.f) + "\n", "MaxRoiPool(%x, %r) {pooled_shape = [2,2]}",
               "f32[2,8,2,2]");
  if (info.kind == ir::OpKind::GroupNormalization)
    return one("built: x f32[1,8,4,4], 2 groups",
               x4 + "  const %s : f32[2] = " + hex_floats(2, 1.f) + "\n  const %b : f32[2] = " + hex_floats(2, 0.1f) + "\n",
               "GroupNormalization(%x, %s, %b) {num_groups = 2}", "f32[1,8,4,4]");
  if (info.kind == ir::OpKind::CenterCropPad)
    return one("built: x f32[1,8,4,4] to [1,8,2,6]", x4 + "  const %s : i64[4] = hex\"" +
                   std::string("0100000000000000") + "0800000000000000" + "0200000000000000" + "0600000000000000" + "\"\n",
               "CenterCropPad(%x, %s)", "f32[1,8,2,6]");
  if (info.kind == ir::OpKind::RandomNormal || info.kind == ir::OpKind::RandomUniform)
    return one("built: shape [1,8], seed 1", "", n + "() {shape = [1,8], seed = 1.0}", "f32[1,8]");
  if (info.kind == ir::OpKind::Multinomial)
    return one("built: 1x8 log-probabilities, 4 samples", "  input %x : f32[1,8]\n",
               "Multinomial(%x) {sample_size = 4, seed = 1.0}", "i32[1,4]");
  const bool bitwise = n.rfind("Bitwise", 0) == 0;
  const std::string t = bitwise ? "i32[1,8,4,4]" : "f32[1,8,4,4]";
  const bool unary_kind = info.category == ir::OpCategory::Activation || info.category == ir::OpCategory::Elementwise ||
                          info.category == ir::OpCategory::Normalization || info.category == ir::OpCategory::Pooling ||
                          info.category == ir::OpCategory::Generator;
  for (const auto& a : info.attributes)
    if (a.required) return {};
  if (info.min_inputs == 1 && unary_kind) {
    const bool global = info.category == ir::OpCategory::Pooling;
    return one("built: one " + n + " on " + t, "  input %x : " + t + "\n", n + "(%x)", global ? "f32[1,8,1,1]" : t);
  }
  if (info.min_inputs == 2 && info.category == ir::OpCategory::Elementwise)
    return one("built: one " + n + " on two " + t, "  input %a : " + t + "\n  input %b : " + t + "\n", n + "(%a, %b)", t);
  return {};
}

std::vector<Variant> all_variants() {
  auto onnx = onnx_variants();
  std::vector<Variant> out;
  for (const auto& info : ir::all_ops()) {
    const std::string n(info.name);
    auto it = onnx.find(n);
    if (it != onnx.end() && !it->second.empty()) {
      out.insert(out.end(), it->second.begin(), it->second.end());
      continue;
    }
    const Built b = built_graph(info);
    out.push_back({n, b.label, {}, b.text});
  }
  return out;
}

// --- one variant, in a child --------------------------------------------------

// A conformance case feeds every operand as a graph input; a model holds its weights,
// shapes and axes as constants. So every input after the first becomes a constant
// holding the case's own test data (test_data_set_0/input_K.pb), as in a real model.
ir::Graph open_variant(const Variant& v) {
  if (v.model.empty()) return ir::parse(v.text);
  ir::Graph g = frontends::open_model(v.model);
  const fs::path data = fs::path(v.model).parent_path() / "test_data_set_0";
  std::vector<std::string> kept;
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const fs::path pb = data / ("input_" + std::to_string(k) + ".pb");
    ir::Tensor* t = g.find_tensor(g.inputs[k]);
    if (k == 0 || !t || !fs::exists(pb)) {
      kept.push_back(g.inputs[k]);
      continue;
    }
    const runtime::Tensor value = testing::load_pb(pb);
    t->dtype = value.dtype();
    t->shape = ir::Shape::of(value.shape());
    t->data = ir::ConstantData::copy_of(value.raw(), value.nbytes());
  }
  g.inputs = kept;
  ir::infer_shapes(g);
  return g;
}

// The row of the op the variant is about (after legalisation other ops may stand around it).
const backends::PartitionRow* main_row(const backends::Partition& p, const std::string& kind) {
  for (const auto& r : p.rows)
    if (r.op_type == kind) return &r;
  for (const auto& r : p.rows)
    if (r.op_type != "QuantizeLinear" && r.op_type != "DequantizeLinear" && r.op_type != "Transpose") return &r;
  return p.rows.empty() ? nullptr : &p.rows.front();
}

std::string tflite_cell(const ir::Graph& g) {
  try {
    const ir::Graph p = backends::tflite::prepare_for_tflite(g, {});
    auto bytes = std::make_shared<const std::string>(backends::tflite::save_tflite(p, {}));
    const ir::Graph back = frontends::load_tflite(bytes, "written.tflite");
    const auto it = back.metadata.find("tflite.ops_by_type");
    return "yes: " + (it == back.metadata.end() ? std::string("?") : it->second);
  } catch (const std::exception& e) {
    return std::string("no: ") + e.what();
  }
}

// The file name of a variant's artefact in the temporary folder (the same on every run,
// so reasons that name it stay the same).
fs::path artefact_path(const Variant& v, const std::string& ext) {
  const fs::path dir = fs::temp_directory_path() / "ec_op_coverage";
  fs::create_directories(dir);
  std::string file = v.label.substr(0, 60);
  for (auto& c : file)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return dir / (file + ext);
}

// The partition's verdict on the variant's op, and whether the .tflite was written.
std::string coral_cell(const ir::Graph& g, bool quantised, const Variant& v) {
  auto coral = backends::resolve_backend("coral").backend;
  backends::CompileConfig cfg;
  cfg.output_path = artefact_path(v, ".tflite").string();
  const auto r = coral->compile(g, cfg);
  std::error_code ec;
  fs::remove(cfg.output_path, ec);
  const auto* row = main_row(r.partition, v.kind);
  if (!row) return "no rows";
  std::string cell;
  if (row->op_type != v.kind && !row->override_name.empty()) {  // an override replaced the op
    std::string ops;
    for (const auto& o : r.partition.rows)
      if (o.override_name == row->override_name) ops += (ops.empty() ? "" : ", ") + o.target_op;
    cell = "mapped by an override (" + ops + ")";
  } else {
    cell = row->placement == backends::Placement::Target ? "mapped (" + row->target_op + ")"
                                                         : "CPU: " + row->status + ": " + row->reason;
  }
  if (!quantised) cell = "(float graph) " + cell;
  if (r.output_path.empty()) {
    std::string why = r.notes.empty() ? std::string("?") : r.notes.back();
    if (why.rfind("no file written: ", 0) == 0) why = why.substr(17);
    cell += "; no .tflite written: " + why;
  }
  return cell;
}

std::string metal_cell(const ir::Graph& g, const Variant& v) {
  auto metal = backends::resolve_backend("metal").backend;
  backends::CompileConfig cfg;
  cfg.output_path = artefact_path(v, ".mlpackage").string();
  std::string cell;
  try {
    const auto r = metal->compile(g, cfg);
    const auto* row = main_row(r.partition, v.kind);
    cell = r.output_path.empty() ? "not written: " + (r.notes.empty() ? std::string("?") : r.notes.front())
                                 : std::string("yes");
    if (row) cell += ", " + (row->unit.empty() ? std::string("?") : row->unit) +
                     (row->unit == "ANE" ? std::string() : ": " + row->reason);
  } catch (const std::exception& e) {
    cell = std::string("no: ") + e.what();
  }
  std::error_code ec;
  fs::remove_all(cfg.output_path, ec);
  return cell;
}

// Writes the four cells to `fd`, each followed by '\t' as soon as it is known, so
// the parent can tell in which stage a crash happened.
void run_variant(const Variant& v, int fd) {
  auto put = [fd](const std::string& cell) {
    const std::string s = one_line(cell) + "\t";
    (void)!::write(fd, s.data(), s.size());
  };
  ir::Graph g;
  try {
    g = open_variant(v);
  } catch (const std::exception& e) {
    const std::string why = std::string("not imported: ") + e.what();
    for (int i = 0; i < 4; ++i) put(why);
    return;
  }
  put(tflite_cell(g));
  ir::Graph q;
  bool quantised = false;
  try {
    quantize::QuantizeOptions o;
    o.threads = 1;
    o.num_calibration_samples = 3;
    auto res = quantize::quantize(g, quantize::random_samples(g, 3, 1), o);
    std::string kept;
    for (const auto& f : res.report.float_ops)
      if (f.op_type == v.kind && kept.empty()) kept = f.reason;
    q = std::move(res.graph);
    quantised = true;
    const bool present = std::any_of(q.ops.begin(), q.ops.end(), [&](const ir::Operation& op) {
      return op.kind != ir::OpKind::Unknown && ir::op_info(op.kind).name == v.kind;
    });
    put(!kept.empty() ? "kept float: " + kept
                      : present ? tflite_cell(q) : "op folded or fused away by the passes; " + tflite_cell(q));
  } catch (const std::exception& e) {
    put(std::string("quantise fails: ") + e.what());
  }
  try {
    put(coral_cell(quantised ? q : g, quantised, v));
  } catch (const std::exception& e) {
    put(std::string("error: ") + e.what());
  }
  try {
    put(metal_cell(g, v));
  } catch (const std::exception& e) {
    put(std::string("error: ") + e.what());
  }
}

struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::size_t index = 0;
  std::string got;
  std::chrono::steady_clock::time_point start;
};

// Every variant's four cells, `kWorkers` children at a time.
std::vector<std::vector<std::string>> run_all(const std::vector<Variant>& variants) {
  std::vector<std::vector<std::string>> cells(variants.size());
  std::vector<Child> running;
  std::size_t next = 0;
  auto finish = [&](Child& c, const std::string& fate) {
    std::vector<std::string> row;
    std::istringstream in(c.got);
    for (std::string cell; std::getline(in, cell, '\t');) row.push_back(cell);
    if (!c.got.empty() && c.got.back() != '\t' && !row.empty()) row.pop_back();  // a cell cut short
    for (bool first = true; row.size() < 4; first = false) row.push_back(first ? fate : "(not reached)");
    cells[c.index] = row;
    ::close(c.fd);
  };
  while (next < variants.size() || !running.empty()) {
    while (running.size() < kWorkers && next < variants.size()) {
      const auto& v = variants[next];
      if (v.model.empty() && v.text.empty()) {  // nothing to ask
        const std::string none = "no one-op graph: no ONNX conformance case, none built";
        cells[next++] = {none, none, none, none};
        continue;
      }
      int p[2];
      if (::pipe(p) != 0) throw std::runtime_error("pipe failed");
      std::cout.flush();
      const pid_t pid = ::fork();
      if (pid == 0) {
        ::close(p[0]);
        ::alarm(kTimeoutSeconds);
        run_variant(v, p[1]);
        ::close(p[1]);
        ::_exit(0);
      }
      ::close(p[1]);
      running.push_back({pid, p[0], next++, {}, std::chrono::steady_clock::now()});
    }
    std::vector<pollfd> fds;
    for (const auto& c : running) fds.push_back({c.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 200);
    for (std::size_t i = 0; i < running.size();) {
      Child& c = running[i];
      char buf[4096];
      bool done = false;
      if (fds[i].revents & (POLLIN | POLLHUP)) {
        const ssize_t n = ::read(c.fd, buf, sizeof buf);
        if (n > 0) c.got.append(buf, static_cast<std::size_t>(n));
        else done = true;
      }
      if (!done) {
        ++i;
        continue;
      }
      int status = 0;
      ::waitpid(c.pid, &status, 0);
      std::string fate = "crashed";
      if (WIFSIGNALED(status))
        fate = WTERMSIG(status) == SIGALRM ? "timed out (" + std::to_string(kTimeoutSeconds) + " s)"
                                           : std::string("crashed: ") + ::strsignal(WTERMSIG(status));
      finish(c, fate);
      fds.erase(fds.begin() + static_cast<std::ptrdiff_t>(i));
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return cells;
}

// --- the document ------------------------------------------------------------

bool yes(const std::string& cell) {
  return (cell.rfind("yes", 0) == 0 || cell.rfind("mapped", 0) == 0) && cell.find("no .tflite written") == std::string::npos;
}

std::string generate() {
  const auto variants = all_variants();
  const auto cells = run_all(variants);
  std::ostringstream body;
  int counts[4] = {0, 0, 0, 0}, kept = 0;
  std::set<std::string> kinds_with_graph;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const auto& v = variants[i];
    const auto& c = cells[i];
    body << "| " << v.kind << " | " << one_line(v.label.empty() ? "-" : v.label);
    for (int k = 0; k < 4; ++k) {
      body << " | " << c[static_cast<std::size_t>(k)];
      counts[k] += yes(c[static_cast<std::size_t>(k)]);
    }
    kept += c[1].rfind("kept float", 0) == 0;
    body << " |\n";
    if (!v.label.empty()) kinds_with_graph.insert(v.kind);
  }
  std::ostringstream o;
  o << "# Per-op coverage\n\n"
    << "Generated by `tests/coverage/op_coverage.cpp` from the op table (`core/ir/ops.def`): one row per\n"
    << "IR op kind and main attribute variant — the single-node cases of Debian's libonnx-testdata\n"
    << "(`data/node/test_<op>_*`, one per distinct attributes / inputs / input dtype, at most "
    << kVariantsPerOp << "; every input after\n"
    << "the first made a constant holding the case's own data, as weights, shapes and axes are in a\n"
    << "model), or, for an op with no ONNX case, a one-op graph built by the tool. Do not edit by hand:\n"
    << "regenerate with "
    << "`" << kRegenerate << "`. The test `op_coverage_rows` fails when an op kind has\n"
    << "no row here; `op_coverage_fresh` shows how this file differs from what the code now produces.\n\n"
    << "Columns: **float .tflite** — `prepare_for_tflite` + `save_tflite` on the float graph, with the\n"
    << "TFLite ops written (read back); **int8 .tflite** — `quantize` (ptq, 3 random samples), then the\n"
    << "writer; \"kept float\" when the quantiser leaves the op in float (with its reason); **Coral** — the\n"
    << "coral backend's compile of the int8 graph (of the float one when quantising failed): mapped (or\n"
    << "mapped by an override), or the compiler's status and our reason, and why no .tflite was written\n"
    << "when none was; **Metal** — the metal backend's compile to a\n"
    << ".mlpackage, and the compute unit it predicts (with the reason when not the Neural Engine).\n\n"
    << "Op kinds: " << ir::all_ops().size() << "; with a one-op graph: " << kinds_with_graph.size()
    << "; variants: " << variants.size() << ". Variants written: float .tflite " << counts[0] << ", int8 .tflite "
    << counts[1] << " (kept float " << kept << "), mapped to the Edge TPU " << counts[2] << ", written by Metal "
    << counts[3] << ".\n\n"
    << "| op kind | variant | float .tflite | int8 .tflite | Coral | Metal / unit |\n"
    << "|---|---|---|---|---|---|\n"
    << body.str();
  return o.str();
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

int check_rows(const std::string& doc_path) {
  if (!fs::exists(doc_path)) {
    std::cerr << doc_path << " is missing: generate it with `" << kRegenerate << "`\n";
    return 1;
  }
  std::set<std::string> rows;
  std::istringstream in(read_file(doc_path));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| ", 0) != 0) continue;
    const auto end = line.find(" |", 2);
    if (end != std::string::npos) rows.insert(line.substr(2, end - 2));
  }
  int missing = 0;
  for (const auto& info : ir::all_ops())
    if (!rows.count(std::string(info.name))) {
      std::cerr << "op kind " << info.name << " has no row in " << doc_path << "\n";
      ++missing;
    }
  if (missing) {
    std::cerr << missing << " op kind(s) of core/ir/ops.def without a row: regenerate with `" << kRegenerate << "`\n";
    return 1;
  }
  std::cout << "every one of the " << ir::all_ops().size() << " op kinds has a row in " << doc_path << "\n";
  return 0;
}

int check_fresh(const std::string& doc_path, bool strict) {
  const std::string now = generate();
  const std::string then = read_file(doc_path);
  if (now == then) {
    std::cout << doc_path << " is what the code produces\n";
    return 0;
  }
  std::vector<std::string> a, b;
  std::istringstream ia(then), ib(now);
  for (std::string l; std::getline(ia, l);) a.push_back(l);
  for (std::string l; std::getline(ib, l);) b.push_back(l);
  const std::set<std::string> sa(a.begin(), a.end()), sb(b.begin(), b.end());
  std::cout << doc_path << " differs from what the code now produces (- in the file, + now):\n";
  for (const auto& l : a)
    if (!sb.count(l)) std::cout << "- " << l << "\n";
  for (const auto& l : b)
    if (!sa.count(l)) std::cout << "+ " << l << "\n";
  std::cout << "regenerate with `" << kRegenerate << "`\n";
  return strict ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 2 && args[0] == "generate") {
      const std::string doc = generate();
      const std::string tmp = args[1] + ".tmp";
      std::ofstream(tmp, std::ios::binary) << doc;
      fs::rename(tmp, args[1]);
      std::cout << "wrote " << args[1] << "\n";
      return 0;
    }
    if (args.size() == 2 && args[0] == "check-rows") return check_rows(args[1]);
    if ((args.size() == 2 || (args.size() == 3 && args[2] == "--strict")) && args[0] == "check-fresh")
      return check_fresh(args[1], args.size() == 3);
  } catch (const std::exception& e) {
    std::cerr << "op_coverage: " << e.what() << "\n";
    return 1;
  }
  std::cerr << "usage: op_coverage generate OUT.md | check-rows DOC.md | check-fresh DOC.md [--strict]\n";
  return 2;
}
