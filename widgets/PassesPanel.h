// Dock content for an optimisation run: the passes that ran (PassListModel)
// and the diff between two snapshots of the graph (GraphDiffModel).
//
// Snapshots are numbered 0 (the original graph) to N (after the N-th pass, the
// final graph). Selecting a pass compares the snapshots around it; the two
// combo boxes compare any two. "Before"/"After" chooses which of the two the
// graph view shows; the window asks highlightColors() for the added, removed
// and changed ops of the shown snapshot. The panel never touches the graph
// view itself: it asks for a snapshot (snapshotRequested) and for an op
// (opActivated), and the window shows them in every view.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include <QColor>
#include <QString>
#include <QWidget>

#include "core/ir/graph.h"
#include "core/passes/pass_manager.h"

class QComboBox;
class QLabel;
class QStackedWidget;
class QToolButton;
class QTreeView;

namespace ec::widgets {

class GraphDiffModel;
class PassListModel;

class PassesPanel : public QWidget {
  Q_OBJECT

 public:
  enum class Side { Before, After };

  explicit PassesPanel(QWidget* parent = nullptr);
  ~PassesPanel() override;

  /// Shows `report`, which must hold snapshots (PassManagerOptions::keep_snapshots),
  /// comparing the original with the final graph, showing the final one.
  void setReport(std::shared_ptr<const ec::passes::PipelineReport> report);
  /// Back to the "not optimised" placeholder.
  void clear();
  const std::shared_ptr<const ec::passes::PipelineReport>& report() const { return report_; }

  /// Snapshots: 0 = original, i = after pass i (1-based); passes + 1 of them (0 without report).
  int snapshotCount() const;
  ec::ir::FrozenGraph snapshot(int index) const;
  /// "after OpFusion (14 ops)".
  QString snapshotName(int index) const;

  /// Compares snapshot `from` with snapshot `to` (any two; the pass list selects the pass
  /// between them when they are adjacent). Emits snapshotRequested.
  void compare(int from, int to);
  /// Compares the snapshots before and after pass `row` (0-based row of the pass list).
  void selectPass(int row);
  int compareFrom() const { return from_; }
  int compareTo() const { return to_; }

  /// Which of the two compared snapshots the graph view shows. Emits snapshotRequested.
  void setSide(Side side);
  Side side() const { return side_; }
  /// The snapshot the graph view should show: compareFrom() or compareTo().
  int shownSnapshot() const { return side_ == Side::Before ? from_ : to_; }

  /// One colour per op of the shown snapshot (invalid = unchanged): removed and
  /// changed ops before, added and changed ops after.
  std::vector<QColor> highlightColors() const;
  /// Legend entries for highlightColors(): ("removed (5)", colour), ...
  std::vector<std::pair<QString, QColor>> highlightLegend() const;

  PassListModel* passModel() const { return passModel_; }
  GraphDiffModel* diffModel() const { return diffModel_; }
  QTreeView* passView() const { return passView_; }
  QTreeView* diffView() const { return diffView_; }

 signals:
  /// Show snapshot `index` in the graph view, coloured by highlightColors().
  void snapshotRequested(int index);
  /// The user picked a change: select op `opName` of snapshot `snapshotIndex`.
  void opActivated(const QString& opName, int snapshotIndex);

 protected:
  /// QEvent::LanguageChange: labels, snapshot names and the tables again, in the new language.
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  void updateSummary();
  void rebuildCombos();
  void updateDiff();
  void activateRow(int row);
  void syncControls();

  std::shared_ptr<const ec::passes::PipelineReport> report_;
  int from_ = 0, to_ = 0;
  Side side_ = Side::After;
  bool syncing_ = false;
  int pressActivatedRow_ = -1;  // row the current mouse press already activated

  PassListModel* passModel_ = nullptr;
  GraphDiffModel* diffModel_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QLabel* placeholder_ = nullptr;
  QComboBox* fromCombo_ = nullptr;
  QComboBox* toCombo_ = nullptr;
  QToolButton* beforeButton_ = nullptr;
  QToolButton* afterButton_ = nullptr;
  QLabel* summary_ = nullptr;
  QTreeView* passView_ = nullptr;
  QTreeView* diffView_ = nullptr;
};

}  // namespace ec::widgets
