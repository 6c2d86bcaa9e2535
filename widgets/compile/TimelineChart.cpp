#include "widgets/compile/TimelineChart.h"

#include <algorithm>
#include <map>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace ec::widgets {
namespace {
constexpr int kLaneHeight = 20;
constexpr int kBoxWidth = 150;
constexpr int kGap = 6;
constexpr int kMargin = 4;

QString stageText(const std::string& stage) {
  if (stage == "target_compile") return TimelineChart::tr("target compile");
  if (stage == "override") return TimelineChart::tr("override");
  if (stage == "cpu_eager") return TimelineChart::tr("CPU eager");
  return QString::fromStdString(stage);
}
}  // namespace

TimelineChart::TimelineChart(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("timelineChart"));
  setMouseTracking(true);
}

void TimelineChart::setReport(CompileReportPtr report) {
  report_ = std::move(report);
  rebuild();
}

void TimelineChart::setFailuresOnly(bool failuresOnly) {
  failuresOnly_ = failuresOnly;
  rebuild();
}

void TimelineChart::rebuild() {
  lanes_.clear();
  maxAttempts_ = 0;
  if (report_) {
    std::map<std::string, std::size_t> laneOf;
    for (const auto& e : report_->result.timeline) {
      auto [it, fresh] = laneOf.emplace(e.unit, lanes_.size());
      if (fresh) lanes_.push_back({QString::fromStdString(e.unit), {}});
      lanes_[it->second].attempts.push_back(&e);
    }
    if (failuresOnly_) {
      std::erase_if(lanes_, [](const Lane& l) {
        return std::none_of(l.attempts.begin(), l.attempts.end(), [](const auto* e) { return !e->ok; });
      });
    }
    for (const auto& l : lanes_) maxAttempts_ = std::max(maxAttempts_, int(l.attempts.size()));
  }
  updateGeometry();
  resize(sizeHint());
  update();
}

int TimelineChart::labelWidth() const {
  int w = 80;
  const QFontMetrics fm(font());
  for (const auto& l : lanes_) w = std::max(w, fm.horizontalAdvance(l.unit) + 2 * kMargin);
  return std::min(w, 320);
}

QSize TimelineChart::sizeHint() const {
  return {labelWidth() + std::max(1, maxAttempts_) * (kBoxWidth + kGap) + kMargin,
          std::max(1, int(lanes_.size())) * kLaneHeight + 2 * kMargin};
}

QRect TimelineChart::boxRect(int lane, int attempt) const {
  return {labelWidth() + attempt * (kBoxWidth + kGap), kMargin + lane * kLaneHeight + 2, kBoxWidth, kLaneHeight - 4};
}

const ec::backends::TimelineEntry* TimelineChart::attemptAt(QPoint p, int* lane) const {
  for (int l = 0; l < int(lanes_.size()); ++l) {
    for (int a = 0; a < int(lanes_[std::size_t(l)].attempts.size()); ++a) {
      if (boxRect(l, a).contains(p)) {
        if (lane) *lane = l;
        return lanes_[std::size_t(l)].attempts[std::size_t(a)];
      }
    }
  }
  return nullptr;
}

void TimelineChart::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (lanes_.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(kMargin, kMargin, 0, 0), Qt::AlignLeft | Qt::AlignTop,
               report_ ? tr("No attempt to show.") : tr("No compile yet."));
    return;
  }
  const QFontMetrics fm(font());
  const int lw = labelWidth();
  for (int l = 0; l < int(lanes_.size()); ++l) {
    const Lane& lane = lanes_[std::size_t(l)];
    const QRect labelRect(kMargin, kMargin + l * kLaneHeight, lw - 2 * kMargin, kLaneHeight);
    if (l % 2) p.fillRect(QRect(0, labelRect.top(), width(), kLaneHeight), palette().alternateBase());
    p.setPen(palette().color(QPalette::Text));
    p.drawText(labelRect, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(lane.unit, Qt::ElideMiddle, labelRect.width()));
    for (int a = 0; a < int(lane.attempts.size()); ++a) {
      const auto* e = lane.attempts[std::size_t(a)];
      const QRect box = boxRect(l, a);
      const QColor fill = e->ok ? QColor(0x4c, 0xaf, 0x50) : QColor(0xe5, 0x39, 0x35);
      p.setPen(fill.darker(130));
      p.setBrush(fill.lighter(e->ok ? 150 : 130));
      p.drawRoundedRect(box, 3, 3);
      if (a > 0) {  // the arrow from the attempt before
        const QRect prev = boxRect(l, a - 1);
        p.drawLine(prev.right() + 1, box.center().y(), box.left() - 1, box.center().y());
      }
      p.setPen(Qt::black);
      const QString text = tr("%1 %2 ms").arg(stageText(e->stage)).arg(e->duration_ms, 0, 'f', 2);
      p.drawText(box.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                 fm.elidedText(text, Qt::ElideRight, box.width() - 8));
    }
  }
}

bool TimelineChart::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(event);
    int lane = -1;
    if (const auto* e = attemptAt(he->pos(), &lane)) {
      QToolTip::showText(he->globalPos(),
                         tr("%1 — %2: %3 (%4 ms)\n%5")
                             .arg(lanes_[std::size_t(lane)].unit, stageText(e->stage),
                                  e->ok ? tr("ok") : tr("failed"))
                             .arg(e->duration_ms, 0, 'f', 3)
                             .arg(QString::fromStdString(e->reason)),
                         this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(event);
}

void TimelineChart::mouseReleaseEvent(QMouseEvent* event) {
  const int lane = int((event->position().y() - kMargin) / kLaneHeight);
  if (event->button() == Qt::LeftButton && lane >= 0 && lane < int(lanes_.size()))
    emit unitActivated(lanes_[std::size_t(lane)].unit);
}

}  // namespace ec::widgets
