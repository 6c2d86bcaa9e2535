// Graph-view layout benchmark (no Qt): time and peak memory of the layered,
// grouped layout for generated networks of 1k / 10k / 50k ops and for model
// files given on the command line.
//
//   graph_layout_bench [MODEL.onnx ...]
//
// Every case runs in a forked child so its peak RSS is its own.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "bench/synthetic_graph.h"
#include "core/frontends/frontend.h"
#include "core/layout/ir_input.h"

namespace {

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

void run_case(const std::string& label, const std::function<ec::layout::CompoundInput()>& make) {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid != 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    return;
  }
  ec::layout::CompoundInput input = make();
  const std::size_t items = input.items.size(), edges = input.edges.size();
  const long rss_before = peak_rss_kb();
  double t = now_ms();
  ec::layout::CompoundLayout layout(std::move(input));
  const double build_ms = now_ms() - t;

  t = now_ms();
  layout.expand_to_budget(40);
  const auto& first = layout.layout();
  const double first_ms = now_ms() - t;
  std::size_t blocks = 0;
  for (const auto& n : first.nodes) blocks += n.kind != ec::layout::Scene::Kind::GroupFrame;

  t = now_ms();
  layout.expand_all();
  const auto& all = layout.layout();
  const double all_ms = now_ms() - t;
  const std::size_t visible = all.visible_items, drawn_edges = all.edges.size();

  // Collapse and re-expand the biggest top-level group: cached inner layouts.
  int biggest = -1;
  for (int g : layout.tree().groups[0].groups) {
    if (biggest < 0 || layout.tree().groups[std::size_t(g)].item_count >
                           layout.tree().groups[std::size_t(biggest)].item_count) {
      biggest = g;
    }
  }
  double toggle_ms = 0;
  if (biggest > 0) {
    layout.set_expanded(biggest, false);
    layout.layout();
    t = now_ms();
    layout.set_expanded(biggest, true);
    layout.layout();
    toggle_ms = now_ms() - t;
  }
  const long rss_after = peak_rss_kb();
  std::printf(
      "%-22s items %6zu edges %6zu groups %5zu | build %7.1f ms | first view (%3zu blocks) %7.1f ms"
      " | all expanded %8.1f ms (%zu boxes, %zu edge lines) | re-expand cached %6.1f ms | "
      "peak RSS %6.1f MB (+%.1f MB for layout)\n",
      label.c_str(), items, edges, layout.group_count(), build_ms, blocks, first_ms, all_ms,
      visible, drawn_edges, toggle_ms, double(rss_after) / 1024,
      double(rss_after - rss_before) / 1024);
  std::fflush(stdout);
  _exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  for (int n : {1000, 10000, 50000}) {
    run_case("synthetic " + std::to_string(n), [n] { return ec::bench::synthetic_network(n); });
  }
  // No scopes (ONNX-style names): one flat layered layout of every op.
  for (int n : {1000, 10000, 50000}) {
    run_case("flat " + std::to_string(n), [n] { return ec::bench::synthetic_network(n, false); });
  }
  for (int i = 1; i < argc; ++i) {
    const std::string path = argv[i];
    run_case(path.substr(path.find_last_of('/') + 1), [path] {
      const ec::ir::Graph g = ec::frontends::open_model(path);
      return ec::layout::make_compound_input(g);
    });
  }
  return 0;
}
