// The backend timeline drawn: one lane per unit, its attempts left to right in
// the order the backend made them (target compile -> registered override -> CPU
// eager), each a box green when it succeeded and red when it failed, labelled
// with the stage and its duration; hovering a box shows the exact reason.
// Clicking a lane emits unitActivated(name). With failuresOnly, only the units
// that had a failed attempt.
#pragma once

#include <vector>

#include <QWidget>

#include "widgets/compile/CompileModels.h"

namespace ec::widgets {

class TimelineChart : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineChart(QWidget* parent = nullptr);
  void setReport(CompileReportPtr report);
  void setFailuresOnly(bool failuresOnly);

  struct Lane {
    QString unit;
    std::vector<const ec::backends::TimelineEntry*> attempts;  // in order
  };
  const std::vector<Lane>& lanes() const { return lanes_; }
  /// The attempt drawn at widget point `p` (nullptr when none), and its lane.
  const ec::backends::TimelineEntry* attemptAt(QPoint p, int* lane = nullptr) const;
  QSize sizeHint() const override;

 signals:
  void unitActivated(const QString& unit);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  void rebuild();
  QRect boxRect(int lane, int attempt) const;
  int labelWidth() const;

  CompileReportPtr report_;
  bool failuresOnly_ = false;
  std::vector<Lane> lanes_;
  int maxAttempts_ = 0;
};

}  // namespace ec::widgets
