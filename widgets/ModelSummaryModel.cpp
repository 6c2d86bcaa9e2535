#include "widgets/ModelSummaryModel.h"

#include <QBrush>
#include <QFileInfo>
#include <QFont>
#include <QLocale>
#include <QPalette>
#include <QStringList>

#include "widgets/ItemRoles.h"

namespace ec::widgets {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString orDash(const std::string& s) { return s.empty() ? QStringLiteral("—") : qs(s); }

QString tensorText(const ec::report::TensorSummary& t) {
  return qs(t.dtype) % QLatin1Char(' ') % qs(t.shape.to_string());
}

}  // namespace

QString formatCount(qint64 n) {
  static constexpr struct {
    double scale;
    const char* suffix;
  } kUnits[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  const QLocale locale;
  for (const auto& unit : kUnits) {
    if (static_cast<double>(n) >= unit.scale) {
      return locale.toString(static_cast<double>(n) / unit.scale, 'f', 2) % QLatin1Char(' ') %
             QLatin1String(unit.suffix);
    }
  }
  return locale.toString(n);
}

ModelSummaryModel::ModelSummaryModel(ec::report::ModelSummary summary, QObject* parent)
    : QAbstractTableModel(parent), summary_(std::move(summary)) {
  buildRows();
}

void ModelSummaryModel::addHeading(const QString& key, const QString& label) {
  rows_.push_back(Row{key, label, {}, {}, {}, RowKind::Heading});
}

void ModelSummaryModel::addField(const QString& key, const QString& label, const QString& value,
                                 const QVariant& sortValue, const QString& toolTip) {
  rows_.push_back(Row{key, label, value, sortValue.isValid() ? sortValue : QVariant(value), toolTip,
                      RowKind::Field});
}

void ModelSummaryModel::retranslate() {
  beginResetModel();
  rows_.clear();
  buildRows();
  endResetModel();
}

void ModelSummaryModel::buildRows() {
  const auto& s = summary_;
  const QLocale locale;

  addHeading(QStringLiteral("model"), tr("Model"));
  addField(QStringLiteral("name"), tr("Name"), orDash(s.name));
  // The file name fits the panel; the full path is in the tooltip.
  addField(QStringLiteral("path"), tr("File"),
           s.path.empty() ? orDash(s.path) : QFileInfo(qs(s.path)).fileName(), qs(s.path),
           qs(s.path));
  addField(QStringLiteral("format"), tr("Format"), orDash(s.format));
  addField(QStringLiteral("producer"), tr("Producer"), orDash(s.producer));
  addField(QStringLiteral("opset"), tr("Opset"), orDash(s.opset));
  addField(QStringLiteral("ir_version"), tr("IR version"), orDash(s.ir_version));
  if (const auto& q = s.quant_summary; q.quantized_tensors > 0) {
    QStringList dtypes;
    for (const auto& [dtype, n] : q.tensors_by_dtype) dtypes << qs(dtype);
    addField(QStringLiteral("quantization"), tr("Quantisation"),
             tr("%1: %2 of %3 ops").arg(dtypes.join(QStringLiteral(", ")), locale.toString(q.quantized_ops),
                                        locale.toString(s.op_count)),
             qlonglong(q.quantized_ops),
             tr("%1 quantised tensors, %2 per channel")
                 .arg(locale.toString(q.quantized_tensors), locale.toString(q.per_channel_tensors)));
  } else {
    addField(QStringLiteral("quantization"), tr("Quantisation"), tr("none (float)"));
  }

  addHeading(QStringLiteral("inputs"), tr("Inputs (%n)", nullptr, int(s.inputs.size())));
  for (std::size_t i = 0; i < s.inputs.size(); ++i) {
    addField(QStringLiteral("input.") + QString::number(i), qs(s.inputs[i].name),
             tensorText(s.inputs[i]));
  }
  addHeading(QStringLiteral("outputs"), tr("Outputs (%n)", nullptr, int(s.outputs.size())));
  for (std::size_t i = 0; i < s.outputs.size(); ++i) {
    addField(QStringLiteral("output.") + QString::number(i), qs(s.outputs[i].name),
             tensorText(s.outputs[i]));
  }

  addHeading(QStringLiteral("compute"), tr("Size and compute"));
  addField(QStringLiteral("op_count"), tr("Operations"), locale.toString(s.op_count),
           qlonglong(s.op_count));
  addField(QStringLiteral("parameter_count"), tr("Parameters"), formatCount(s.parameter_count),
           qlonglong(s.parameter_count), locale.toString(s.parameter_count));
  addField(QStringLiteral("parameter_bytes"), tr("Parameter size"),
           locale.formattedDataSize(s.parameter_bytes), qlonglong(s.parameter_bytes),
           tr("%1 bytes").arg(locale.toString(s.parameter_bytes)));
  QString macsTip = locale.toString(s.macs);
  for (const auto& [type, macs] : s.macs_by_type) {
    macsTip += QLatin1Char('\n') % qs(type) % QStringLiteral(": ") % locale.toString(macs);
  }
  addField(QStringLiteral("macs"), tr("MACs"), formatCount(s.macs), qlonglong(s.macs), macsTip);
  addField(QStringLiteral("flops"), tr("FLOPs"), formatCount(s.flops), qlonglong(s.flops),
           locale.toString(s.flops));
  if (!s.macs_unknown_ops.empty()) {
    QStringList names;
    for (const auto& n : s.macs_unknown_ops) names << qs(n);
    addField(QStringLiteral("macs_unknown_ops"), tr("MACs not counted for"),
             tr("%n op(s) with unknown shapes", nullptr, int(names.size())),
             qlonglong(names.size()), names.join(QLatin1Char('\n')));
  }

  addHeading(QStringLiteral("ops"), tr("Operations by type"));
  for (const auto& [type, count] : s.ops_by_type) {
    addField(QStringLiteral("ops.") + qs(type), qs(type), locale.toString(count), qlonglong(count));
  }

  if (!s.unknown_ops.empty()) {
    addHeading(QStringLiteral("unknown_ops"), tr("Ops the IR does not know"));
    for (const auto& [type, count] : s.unknown_ops) {
      addField(QStringLiteral("unknown_ops.") + qs(type), qs(type), locale.toString(count),
               qlonglong(count));
      rows_.back().kind = RowKind::Warning;
    }
  }
  if (!s.validation_warnings.empty()) {
    addHeading(QStringLiteral("warnings"), tr("Validation warnings"));
    for (std::size_t i = 0; i < s.validation_warnings.size(); ++i) {
      const QString text = qs(s.validation_warnings[i]);
      addField(QStringLiteral("warning.") + QString::number(i), tr("Warning %1").arg(i + 1), text,
               {}, text);
      rows_.back().kind = RowKind::Warning;
    }
  }
}

int ModelSummaryModel::rowForKey(const QString& key) const {
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i].key == key) return int(i);
  }
  return -1;
}

int ModelSummaryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int ModelSummaryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant ModelSummaryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const Row& row = rows_[std::size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return index.column() == Property ? row.property : row.value;
    case Qt::ToolTipRole:
      if (index.column() == Value && !row.toolTip.isEmpty()) return row.toolTip;
      return {};
    case KeyRole:
      return row.key;
    case SortRole:
      return index.column() == Property ? QVariant(row.property) : row.sortValue;
    case Qt::FontRole:
      if (row.kind == RowKind::Heading) {
        QFont font;
        font.setBold(true);
        return font;
      }
      return {};
    case Qt::ForegroundRole:
      if (row.kind == RowKind::Warning) return QBrush(QColor(0xb0, 0x5a, 0x00));
      return {};
    default:
      return {};
  }
}

QVariant ModelSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Property:
      return tr("Property");
    case Value:
      return tr("Value");
    default:
      return {};
  }
}

}  // namespace ec::widgets
