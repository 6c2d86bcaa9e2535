#include "widgets/PropertiesModel.h"

#include <QFont>
#include <QLocale>

#include "core/ir/op_table.h"
#include "core/report/model_summary.h"
#include "widgets/ItemRoles.h"
#include "widgets/OpFormat.h"

namespace ec::widgets {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
// Consumers listed one per row up to this many; the rest are summarised.
constexpr std::size_t kMaxConsumerRows = 25;
}  // namespace

PropertiesModel::PropertiesModel(QObject* parent) : QAbstractTableModel(parent) {}
PropertiesModel::~PropertiesModel() = default;

void PropertiesModel::setGraph(ec::ir::FrozenGraph graph) {
  beginResetModel();
  graph_ = std::move(graph);
  uses_ = graph_ ? std::make_unique<ec::ir::UseLists>(*graph_) : nullptr;
  op_ = -1;
  rows_.clear();
  annotationHeading_.clear();
  annotations_.clear();
  endResetModel();
}

void PropertiesModel::setOpAnnotations(QString heading, std::vector<Annotation> perOp) {
  beginResetModel();
  annotationHeading_ = std::move(heading);
  annotations_ = std::move(perOp);
  buildRows();
  endResetModel();
}

void PropertiesModel::showOp(int op) {
  beginResetModel();
  op_ = graph_ && op >= 0 && std::size_t(op) < graph_->ops.size() ? op : -1;
  buildRows();
  endResetModel();
}

int PropertiesModel::rowForKey(const QString& key) const {
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i].key == key) return int(i);
  }
  return -1;
}

bool PropertiesModel::isHeading(int row) const {
  return row >= 0 && std::size_t(row) < rows_.size() && rows_[std::size_t(row)].heading;
}

void PropertiesModel::addTensorRows(const QString& prefix, const QString& label,
                                    const std::string& name, bool isInput) {
  const QString tensorName = qs(name);
  if (name.empty()) {
    rows_.push_back({prefix, label, tr("(not given)"), {}, false, -1, {}, 0});
    return;
  }
  rows_.push_back({prefix, label, tensorName, tensorName, false, -1, tensorName, 0});
  const ec::ir::Tensor* t = graph_->find_tensor(name);
  rows_.push_back({prefix + QStringLiteral(".type"),
                   tr("type"),
                   tensorTypeText(t),
                   {},
                   false,
                   -1,
                   tensorName,
                   1});
  if (isInput) {
    const std::ptrdiff_t p = uses_->producer(name);
    QString producer;
    if (p >= 0) {
      const auto& op = graph_->ops[std::size_t(p)];
      producer = op.name.empty() ? qs(op.op_type) : qs(op.name);
    } else if (t && t->is_constant()) {
      producer = tr("constant");
    } else {
      producer = tr("graph input");
    }
    rows_.push_back({prefix + QStringLiteral(".producer"), tr("producer"), producer,
                     p >= 0 ? tr("Click to go to the producer") : QString(), false, int(p),
                     tensorName, 1});
  }
  if (t && t->quant) {
    // The same one-line form `edgecompile inspect` prints (report::quant_text).
    const ec::report::ModelSummary::TensorQuant q{t->name, std::string(ec::ir::dtype_name(t->quant->dtype)),
                                                  t->quant->scales, t->quant->zero_points, t->quant->axis};
    rows_.push_back({prefix + QStringLiteral(".quant"), tr("quantisation"), qs(ec::report::quant_text(q)), {}, false,
                     -1, tensorName, 1});
  }
  if (t && t->is_constant()) {
    if (const auto stats = constantStats(*t)) {
      const QLocale locale;
      auto num = [](double v) { return QString::number(v, 'g', 4); };
      const QString text =
          tr("min %1 · max %2 · mean %3 · std %4")
              .arg(num(stats->min), num(stats->max), num(stats->mean), num(stats->stddev));
      // The tooltip repeats the figures: the panel is often too narrow for the line.
      rows_.push_back({prefix + QStringLiteral(".stats"), tr("values"), text,
                       tr("%1 values").arg(locale.toString(qulonglong(stats->count))) %
                           QLatin1Char('\n') % text,
                       false, -1, tensorName, 1});
    }
  }
  if (!isInput) {
    const auto& consumers = uses_->consumers(name);
    const bool isGraphOutput =
        std::find(graph_->outputs.begin(), graph_->outputs.end(), name) != graph_->outputs.end();
    if (consumers.empty()) {
      rows_.push_back({prefix + QStringLiteral(".consumers"),
                       tr("consumers"),
                       isGraphOutput ? tr("graph output") : tr("none"),
                       {},
                       false,
                       -1,
                       tensorName,
                       1});
    }
    for (std::size_t c = 0; c < consumers.size() && c < kMaxConsumerRows; ++c) {
      const auto& op = graph_->ops[consumers[c]];
      rows_.push_back(
          {prefix + QStringLiteral(".consumer.") + QString::number(c),
           c == 0 ? tr("consumers") : QString(), op.name.empty() ? qs(op.op_type) : qs(op.name),
           tr("Click to go to this consumer"), false, int(consumers[c]), tensorName, 1});
    }
    if (consumers.size() > kMaxConsumerRows) {
      rows_.push_back({prefix + QStringLiteral(".consumers.more"),
                       QString(),
                       tr("… and %n more", nullptr, int(consumers.size() - kMaxConsumerRows)),
                       {},
                       false,
                       -1,
                       tensorName,
                       1});
    }
    if (!consumers.empty() && isGraphOutput) {
      rows_.push_back({prefix + QStringLiteral(".graph_output"),
                       QString(),
                       tr("graph output"),
                       {},
                       false,
                       -1,
                       tensorName,
                       1});
    }
  }
}

void PropertiesModel::buildRows() {
  rows_.clear();
  if (op_ < 0) return;
  const ec::ir::Operation& op = graph_->ops[std::size_t(op_)];
  rows_.push_back({QStringLiteral("operation"), tr("Operation"), {}, {}, true, -1, {}, 0});
  rows_.push_back({QStringLiteral("name"),
                   tr("Name"),
                   op.name.empty() ? QStringLiteral("—") : qs(op.name),
                   qs(op.name),
                   false,
                   -1,
                   {},
                   0});
  rows_.push_back({QStringLiteral("type"), tr("Type"), qs(op.op_type), {}, false, -1, {}, 0});
  rows_.push_back({QStringLiteral("category"),
                   tr("Category"),
                   qs(ec::ir::op_category_name(categoryOf(op))),
                   {},
                   false,
                   -1,
                   {},
                   0});
  rows_.push_back(
      {QStringLiteral("index"), tr("Index"), QString::number(op_), {}, false, -1, {}, 0});
  if (std::size_t(op_) < annotations_.size() && !annotations_[std::size_t(op_)].empty()) {
    rows_.push_back({QStringLiteral("annotation"), annotationHeading_, {}, {}, true, -1, {}, 0});
    int i = 0;
    for (const auto& [property, value] : annotations_[std::size_t(op_)]) {
      rows_.push_back({QStringLiteral("annotation.") + QString::number(i++), property, value, value, false, -1, {}, 0});
    }
  }

  if (!op.attributes.empty()) {
    rows_.push_back({QStringLiteral("attributes"), tr("Attributes"), {}, {}, true, -1, {}, 0});
    for (const auto& [name, value] : op.attributes) {
      const QString text = attributeText(value);
      rows_.push_back({QStringLiteral("attr.") + qs(name), qs(name), text, text, false, -1, {}, 0});
    }
  }
  rows_.push_back({QStringLiteral("inputs"), tr("Inputs"), {}, {}, true, -1, {}, 0});
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    addTensorRows(QStringLiteral("input.") + QString::number(i), tr("input %1").arg(i),
                  op.inputs[i], true);
  }
  rows_.push_back({QStringLiteral("outputs"), tr("Outputs"), {}, {}, true, -1, {}, 0});
  for (std::size_t i = 0; i < op.outputs.size(); ++i) {
    addTensorRows(QStringLiteral("output.") + QString::number(i), tr("output %1").arg(i),
                  op.outputs[i], false);
  }
}

int PropertiesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int PropertiesModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant PropertiesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const Row& row = rows_[std::size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() == Property) {
        return row.indent > 0 ? QStringLiteral("    ") + row.property : row.property;
      }
      return row.value;
    case Qt::ToolTipRole:
      return row.toolTip.isEmpty() ? QVariant() : QVariant(row.toolTip);
    case KeyRole:
      return row.key;
    case SortRole:
      return QVariant(index.row());
    case TargetOpRole:
      return row.targetOp >= 0 ? QVariant(row.targetOp) : QVariant();
    case TensorNameRole:
      return row.tensor.isEmpty() ? QVariant() : QVariant(row.tensor);
    case Qt::FontRole:
      if (row.heading || (row.targetOp >= 0 && index.column() == Value)) {
        QFont f;
        f.setBold(row.heading);
        f.setUnderline(row.targetOp >= 0 && !row.heading);
        return f;
      }
      return {};
    default:
      return {};
  }
}

QVariant PropertiesModel::headerData(int section, Qt::Orientation orientation, int role) const {
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
