// Detection post-processing: NonMaxSuppression.
#include <numeric>

#include "core/runtime/kernels/common.h"

namespace ec::runtime::kernels {
namespace {

struct Box {
  double y1, x1, y2, x2;  // normalised: y1 <= y2, x1 <= x2
};

Box box_at(const Tensor& boxes, std::int64_t b, std::int64_t i, bool center) {
  const std::int64_t at = (b * boxes.dim(1) + i) * 4;
  const double a = boxes.get_double(at), c = boxes.get_double(at + 1), d = boxes.get_double(at + 2),
               e = boxes.get_double(at + 3);
  if (center)  // [x_center, y_center, width, height]
    return {c - e / 2, a - d / 2, c + e / 2, a + d / 2};
  return {std::min(a, d), std::min(c, e), std::max(a, d), std::max(c, e)};  // [y1, x1, y2, x2], any corners
}

// IoU = area(a & b) / area(a | b)
double iou(const Box& a, const Box& b) {
  const double ih = std::min(a.y2, b.y2) - std::max(a.y1, b.y1), iw = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  if (ih <= 0 || iw <= 0) return 0;
  const double inter = ih * iw;
  const double uni = (a.y2 - a.y1) * (a.x2 - a.x1) + (b.y2 - b.y1) * (b.x2 - b.x1) - inter;
  return uni <= 0 ? 0 : inter / uni;
}

}  // namespace

// Greedy per (batch, class): take boxes by descending score (> score_threshold), drop any
// whose IoU with a kept box exceeds iou_threshold, keep at most max_output_boxes_per_class.
// Output: [selected, 3] rows of (batch, class, box index).
Outputs kernel_NonMaxSuppression(const ir::Operation& op, Inputs x) {
  const Tensor &boxes = x[0], &scores = x[1];
  if (boxes.rank() != 3 || boxes.dim(2) != 4 || scores.rank() != 3 || scores.dim(0) != boxes.dim(0) ||
      scores.dim(2) != boxes.dim(1))
    fail("boxes must be [B, N, 4] and scores [B, C, N], got " + boxes.type_string() + " and " + scores.type_string());
  const std::int64_t max_out = in(x, 2).defined() && in(x, 2).numel() ? in(x, 2).get_int(0) : 0;
  const double iou_thr = in(x, 3).defined() && in(x, 3).numel() ? in(x, 3).get_double(0) : 0.0;
  const bool has_score_thr = in(x, 4).defined() && in(x, 4).numel();
  const double score_thr = has_score_thr ? in(x, 4).get_double(0) : 0.0;
  const bool center = attr_int(op, "center_point_box", 0) != 0;
  const std::int64_t B = boxes.dim(0), N = boxes.dim(1), C = scores.dim(1);
  std::vector<std::int64_t> selected;
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t c = 0; c < C; ++c) {
      std::vector<std::int64_t> order;
      for (std::int64_t i = 0; i < N; ++i)
        if (!has_score_thr || scores.get_double((b * C + c) * N + i) > score_thr) order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](std::int64_t p, std::int64_t q) {
        return scores.get_double((b * C + c) * N + p) > scores.get_double((b * C + c) * N + q);
      });
      std::vector<Box> kept;
      for (std::int64_t i : order) {
        if (static_cast<std::int64_t>(kept.size()) >= max_out) break;
        const Box bx = box_at(boxes, b, i, center);
        bool keep = true;
        for (const Box& k : kept)
          if (iou(bx, k) > iou_thr) { keep = false; break; }
        if (!keep) continue;
        kept.push_back(bx);
        selected.insert(selected.end(), {b, c, i});
      }
    }
  const auto n = static_cast<std::int64_t>(selected.size() / 3);
  return {Tensor::from_values(DType::Int64, {n, 3}, selected)};
}

}  // namespace ec::runtime::kernels
