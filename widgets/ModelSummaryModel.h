// A two-column (Property, Value) table over one ec::report::ModelSummary, the
// same struct `edgecompile inspect` prints. The summary is an immutable
// snapshot: to show another model, build another ModelSummaryModel.
#pragma once

#include <vector>

#include <QAbstractTableModel>
#include <QString>
#include <QVariant>

#include "core/report/model_summary.h"

namespace ec::widgets {

class ModelSummaryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Property, Value, ColumnCount };

  explicit ModelSummaryModel(ec::report::ModelSummary summary, QObject* parent = nullptr);

  /// The snapshot this model shows.
  const ec::report::ModelSummary& summary() const { return summary_; }
  /// Row whose KeyRole is `key` ("op_count", "input.0", "ops.Conv"), or -1.
  int rowForKey(const QString& key) const;
  /// Rebuilds the rows' texts in the current UI language (same rows, same keys).
  void retranslate();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  enum class RowKind { Heading, Field, Warning };
  struct Row {
    QString key;       // stable, untranslated
    QString property;  // translated label
    QString value;
    QVariant sortValue;
    QString toolTip;
    RowKind kind = RowKind::Field;
  };
  void buildRows();
  void addHeading(const QString& key, const QString& label);
  void addField(const QString& key, const QString& label, const QString& value,
                const QVariant& sortValue = {}, const QString& toolTip = {});

  ec::report::ModelSummary summary_;
  std::vector<Row> rows_;
};

/// "1.23 M" style short form of a large count (the exact number goes in a tooltip).
QString formatCount(qint64 n);

}  // namespace ec::widgets
