// The Run History panel: every recorded compile and bench run (core/history) in
// a table; pick two runs to compare them side by side — each statistic, its
// change, whether it exceeds run-to-run noise (history::compare_runs) — with a
// bar chart of both runs' latency statistics.
#pragma once

#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QWidget>

#include "core/history/compare.h"
#include "core/history/run_store.h"

class QBarSet;
class QBarSeries;
class QBarCategoryAxis;
class QChartView;
class QLabel;
class QPushButton;
class QTableView;
class QValueAxis;

namespace ec::widgets {

/// The runs of one database, newest first.
class RunHistoryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Id, Time, Kind, Model, Target, Device, Mean, P99, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;
  void setRuns(std::vector<ec::history::RunRecord> runs);
  const ec::history::RunRecord& run(int row) const { return runs_[std::size_t(row)]; }
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<ec::history::RunRecord> runs_;
};

/// One comparison, one row per statistic.
class RunCompareModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Statistic, A, B, Change, ChangePct, Noise, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;
  void setComparison(std::optional<ec::history::Comparison> c);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::optional<ec::history::Comparison> c_;
};

class RunHistoryPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RunHistoryPanel(QWidget* parent = nullptr);
  /// The database shown (empty: history::default_db_path()); reloads.
  void setDatabase(const QString& path);
  QString database() const;
  /// Reads the runs again; a database that cannot be read is one line in the panel.
  void reload();
  /// Compares runs `a` and `b` (ids); false when either is not in the table.
  bool compare(qint64 a, qint64 b);

  RunHistoryModel* runsModel() const { return runs_; }
  RunCompareModel* compareModel() const { return compareModel_; }
  QTableView* runsView() const { return runsView_; }
  /// The chart's two bar sets (A and B) over mean, p50, p90, p95, p99.
  QBarSet* barSetA() const { return setA_; }
  QBarSet* barSetB() const { return setB_; }
  QString statusText() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  void compareSelected();
  QString db_;
  QLabel* status_ = nullptr;
  QPushButton* reload_ = nullptr;
  QPushButton* compare_ = nullptr;
  QTableView* runsView_ = nullptr;
  QTableView* compareView_ = nullptr;
  RunHistoryModel* runs_ = nullptr;
  RunCompareModel* compareModel_ = nullptr;
  QChartView* chart_ = nullptr;
  QBarSeries* series_ = nullptr;
  QBarSet* setA_ = nullptr;
  QBarSet* setB_ = nullptr;
  QBarCategoryAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  QString error_;
};

}  // namespace ec::widgets
