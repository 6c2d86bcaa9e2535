#include "core/report/compile_report.h"

#include <cstdio>
#include <map>
#include <sstream>

#include "core/backends/backend_registry.h"

namespace ec::report {
namespace {

std::string ms_str(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f ms", ms);
  return buf;
}

}  // namespace

std::vector<StatusRow> CompileReport::status_table() const {
  std::vector<StatusRow> rows;
  std::map<std::pair<std::string, std::string>, std::size_t> at;
  for (const auto& r : result.partition.rows) {
    const auto key = std::make_pair(r.target_op, r.status);
    auto it = at.find(key);
    if (it == at.end()) {
      at.emplace(key, rows.size());
      rows.push_back({r.target_op, 1, r.status});
    } else {
      ++rows[it->second].count;
    }
  }
  return rows;
}

CompileReport make_compile_report(std::string model, std::string target, std::string target_reason,
                                  std::string quantize, backends::CompileResult result) {
  CompileReport r;
  r.model = std::move(model);
  r.target = std::move(target);
  r.target_reason = std::move(target_reason);
  r.quantize = std::move(quantize);
  r.backend = result.backend;
  r.output = result.output_path;
  r.verified_by = result.verified_by;
  r.notes = result.notes;
  if (result.counted_in.empty())  // the backend did not recount an artefact: the rows are the graph's units
    result.counted_in = result.output_path.empty()
                            ? std::string("the graph's ops (no file written)")
                            : "the graph's ops (the " + result.backend + " backend does not recount its artefact)";
  r.result = std::move(result);
  return r;
}

nlohmann::json to_json(const CompileReport& r) {
  using nlohmann::json;
  const auto& p = r.result.partition;
  json j;
  j["schema"] = CompileReport::kSchema;
  j["model"] = r.model;
  j["target"] = r.target;
  j["target_reason"] = r.target_reason;
  j["backend"] = r.backend;
  j["quantize"] = r.quantize;
  j["output"] = r.output.empty() ? json() : json(r.output);
  j["verified_by"] = r.verified_by;
  json ops = json::array();
  for (const auto& row : p.rows) {
    json o{{"name", row.name},
           {"type", row.target_op},
           {"ir_type", row.op_type},
           {"placement", row.placement == backends::Placement::Target ? "target" : "cpu"},
           {"cause", backends::placement_cause_name(row.cause)},
           {"status", row.status},
           {"reason", row.reason},
           {"rule", row.rule},
           {"segment", row.segment}};
    if (!row.unit.empty()) o["unit"] = row.unit;
    if (!row.blocked_by.empty()) o["blocked_by"] = row.blocked_by;
    if (!row.override_name.empty()) o["override_of"] = row.override_name;
    ops.push_back(std::move(o));
  }
  j["ops"] = std::move(ops);
  j["partition"] = {{"ops_total", p.rows.size()},
                    {"ops_on_target", p.ops_on_target()},
                    {"ops_on_cpu", p.ops_on_cpu()},
                    {"segments", p.segments},
                    {"counted_in", r.result.counted_in}};
  json table = json::array();
  for (const auto& s : r.status_table()) table.push_back({{"operator", s.op}, {"count", s.count}, {"status", s.status}});
  j["status_table"] = std::move(table);
  json tl = json::array();
  for (const auto& e : r.result.timeline)
    tl.push_back({{"unit", e.unit}, {"stage", e.stage}, {"ok", e.ok}, {"reason", e.reason}, {"duration_ms", e.duration_ms}});
  j["backend_timeline"] = std::move(tl);
  const auto& e = r.result.estimate;
  j["estimate"] = {{"is_estimate", true},
                   {"latency_ms", e.latency_ms},
                   {"target_ms", e.target_ms},
                   {"cpu_ms", e.cpu_ms},
                   {"transfer_ms", e.transfer_ms},
                   {"on_chip_parameter_bytes", e.on_chip_parameter_bytes},
                   {"on_chip_remaining_bytes", e.on_chip_remaining_bytes},
                   {"off_chip_parameter_bytes", e.off_chip_parameter_bytes},
                   {"target_macs", e.target_macs},
                   {"cpu_macs", e.cpu_macs},
                   {"model", e.model}};
  j["notes"] = r.notes;
  return j;
}

std::string to_text(const CompileReport& r) {
  std::ostringstream o;
  const auto& p = r.result.partition;
  const auto& e = r.result.estimate;
  o << "edgecompile " << r.backend << " (" << r.verified_by << ")";
  if (!r.target_reason.empty()) o << ": " << r.target_reason;
  o << "\n\nInput model: " << r.model << "\n";
  o << "Output model: " << (r.output.empty() ? std::string("(none written)") : r.output) << "\n";
  // the target's own lines (Backend::describe); a backend this build lacks gets the plain count
  backends::ResultText described;
  bool found = false;
  for (const auto& entry : backends::backend_table())
    if (entry.name == r.backend) {
      described = entry.factory()->describe(r.result);
      found = true;
    }
  if (!found)
    described.placement = {"Number of operations that will run on " + r.backend + ": " + std::to_string(p.ops_on_target())};
  for (const auto& line : described.memory) o << line << "\n";
  o << "Total number of operations: " << p.rows.size() << " (counts are " << r.result.counted_in << ")\n";
  o << "Estimated latency: " << ms_str(e.latency_ms) << " (estimate: " << ms_str(e.target_ms) << " on target, "
    << ms_str(e.transfer_ms) << " transfers, " << ms_str(e.cpu_ms) << " on CPU)\n\n";
  for (const auto& line : described.placement) o << line << "\n";
  o << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-30s %-10s %s\n", "Operator", "Count", "Status");
  o << line << "\n";
  for (const auto& s : r.status_table()) {
    std::snprintf(line, sizeof line, "%-30s %-10d %s\n", s.op.c_str(), s.count, s.status.c_str());
    o << line;
  }
  bool header = false;
  for (const auto& row : p.rows) {
    if (!row.unit.empty()) {  // several compute units: every op off the first one, with its reason
      if (row.unit == "ANE") continue;
      if (!header) o << "\nOff the Neural Engine, and why (prediction):\n";
      header = true;
      o << "  " << row.name << " (" << row.target_op << ", " << row.unit << "): " << row.reason << "\n";
      continue;
    }
    if (row.placement == backends::Placement::Target) continue;
    if (!header) o << "\nOn the CPU, and why:\n";
    header = true;
    o << "  " << row.name << " (" << row.target_op << ", "
      << (row.cause == backends::PlacementCause::AfterUnsupported ? "after the first unsupported op"
          : row.cause == backends::PlacementCause::LeadingQuantize ? "leading quantize"
                                                                   : "unsupported itself")
      << "): " << row.reason << "\n";
  }
  for (const auto& n : r.notes) o << "\nnote: " << n << "\n";
  return o.str();
}

}  // namespace ec::report
