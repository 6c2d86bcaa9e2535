// Model › Compare With… (issue 42): two models side by side over one immutable
// CompareResult (core/compare): two graph views whose selection and scrolling follow
// each other (selecting an op selects its match), both coloured by each op's SQNR with
// the ops present on one side only highlighted, and the matched pairs in a table
// sorted by error (lowest SQNR first).
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QColor>
#include <QWidget>

#include "core/compare/compare.h"
#include "core/ir/graph.h"

class QComboBox;
class QLabel;
class QTableView;
class QSortFilterProxyModel;

namespace ec::widgets {

class GraphView;

using CompareResultPtr = std::shared_ptr<const ec::compare::CompareResult>;

/// The matched pairs of a CompareResult, one row per compared pair in by_error() order.
class ComparePairsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { TensorA, TensorB, OpType, MatchedBy, Sqnr, MaxRel, MaxAbs, Cosine, ColumnCount };

  explicit ComparePairsModel(QObject* parent = nullptr);
  void setResult(CompareResultPtr result);
  /// Index into CompareResult::tensors of row `row`.
  int pairAt(int row) const;
  /// Row of pair `pair` (index into CompareResult::tensors), or -1.
  int rowOfPair(int pair) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  CompareResultPtr result_;
  std::vector<std::size_t> rows_;
};

/// Colour of a matched op by its SQNR (exact, >= 60 dB, 30-60, < 30, NaN/Inf), and of
/// the ops of one side only.
QColor compareColor(const ec::compare::TensorComparison& t);
QColor onlyInAColor();
QColor onlyInBColor();

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(QWidget* parent = nullptr);

  /// Shows `result` of comparing `a` (left) with `b` (right).
  void setResult(ec::ir::FrozenGraph a, ec::ir::FrozenGraph b, CompareResultPtr result);
  CompareResultPtr result() const { return result_; }

  GraphView* viewA() const { return viewA_; }
  GraphView* viewB() const { return viewB_; }
  QTableView* pairsTable() const { return table_; }
  ComparePairsModel* pairsModel() const { return model_; }

  /// The stages of a pass pipeline (compare_passes): a box above the graphs steps through
  /// them; stage k shows the graph before pass k (A) and after it (B) with that comparison.
  void setStages(std::shared_ptr<const ec::compare::PassesResult> stages);
  int stageCount() const;
  /// Shows stage `k` (index into PassesResult::stages).
  void showStage(int k);
  QComboBox* stageBox() const { return stageBox_; }

  /// The op of B paired with op `opA` of A (through the first matched output), or -1; and back.
  int matchOfA(int opA) const;
  int matchOfB(int opB) const;

 signals:
  /// A pair was selected (index into CompareResult::tensors; -1 = none).
  void pairSelected(int pair);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  void selectFromA(int opA);
  void selectFromB(int opB);
  void selectPairRow(int pair);
  void syncScroll(GraphView* from, GraphView* to);
  void colourGraphs();

  GraphView* viewA_ = nullptr;
  GraphView* viewB_ = nullptr;
  QLabel* titleA_ = nullptr;
  QLabel* titleB_ = nullptr;
  QLabel* summary_ = nullptr;
  QTableView* table_ = nullptr;
  QComboBox* stageBox_ = nullptr;
  ComparePairsModel* model_ = nullptr;
  std::shared_ptr<const ec::compare::PassesResult> stages_;
  std::vector<CompareResultPtr> stageResults_;  // per stage, sharing stages_
  CompareResultPtr result_;
  std::vector<int> pairOfA_, pairOfB_;  // op index -> pair (-1)
  bool syncing_ = false;
};

}  // namespace ec::widgets
