#include "widgets/PropertiesPanel.h"

#include <algorithm>

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include "widgets/ItemRoles.h"
#include "widgets/OpFormat.h"
#include "widgets/PropertiesModel.h"

namespace ec::widgets {

/// Bars of a histogram, scaled to the widget.
class HistogramWidget : public QWidget {
 public:
  explicit HistogramWidget(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(70);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  }
  void setStats(std::optional<TensorStats> stats) {
    stats_ = std::move(stats);
    update();
  }
  QSize sizeHint() const override { return {200, 80}; }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!stats_ || stats_->histogram.empty()) return;
    const int maxCount = *std::max_element(stats_->histogram.begin(), stats_->histogram.end());
    if (maxCount == 0) return;
    const QFontMetrics fm(font());
    const QRectF area = QRectF(rect()).adjusted(4, 4, -4, -4 - fm.height());
    const double bw = area.width() / double(stats_->histogram.size());
    const QColor bar = palette().highlight().color();
    for (std::size_t i = 0; i < stats_->histogram.size(); ++i) {
      const double h = area.height() * stats_->histogram[i] / double(maxCount);
      p.fillRect(QRectF(area.left() + double(i) * bw, area.bottom() - h, std::max(1.0, bw - 1), h),
                 bar);
    }
    p.setPen(palette().text().color());
    const QRectF labels(area.left(), area.bottom() + 2, area.width(), fm.height());
    p.drawText(labels, Qt::AlignLeft, QString::number(stats_->min, 'g', 4));
    p.drawText(labels, Qt::AlignRight, QString::number(stats_->max, 'g', 4));
  }

 private:
  std::optional<TensorStats> stats_;
};

PropertiesPanel::PropertiesPanel(QWidget* parent)
    : QWidget(parent),
      model_(new PropertiesModel(this)),
      stack_(new QStackedWidget(this)),
      placeholder_(new QLabel(tr("Click an op in the graph to see its properties."), this)),
      view_(new QTreeView(this)),
      histogramTitle_(new QLabel(this)),
      histogram_(new HistogramWidget(this)) {
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setEnabled(false);

  view_->setObjectName(QStringLiteral("propertiesView"));
  view_->setModel(model_);
  view_->setRootIsDecorated(false);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->header()->setStretchLastSection(true);
  view_->setTextElideMode(Qt::ElideRight);

  auto* page = new QWidget(this);
  auto* pageLayout = new QVBoxLayout(page);
  pageLayout->setContentsMargins(0, 0, 0, 0);
  pageLayout->addWidget(view_, 1);
  pageLayout->addWidget(histogramTitle_);
  pageLayout->addWidget(histogram_);
  stack_->addWidget(placeholder_);
  stack_->addWidget(page);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  connect(view_, &QTreeView::clicked, this, [this](const QModelIndex& index) {
    const QVariant target = index.data(TargetOpRole);
    if (target.isValid()) {
      emit opActivated(target.toInt());
      return;
    }
    const QString tensor = index.data(TensorNameRole).toString();
    if (!tensor.isEmpty()) showHistogram(tensor);
  });
}

void PropertiesPanel::setGraph(ec::ir::FrozenGraph graph) {
  model_->setGraph(std::move(graph));
  showOp(-1);
}

void PropertiesPanel::setOpAnnotations(QString heading,
                                       std::vector<std::vector<std::pair<QString, QString>>> perOp) {
  model_->setOpAnnotations(std::move(heading), std::move(perOp));
  showOp(model_->op());
}

void PropertiesPanel::showOp(int op) {
  model_->showOp(op);
  if (model_->op() < 0) {
    stack_->setCurrentWidget(placeholder_);
    return;
  }
  for (int r = 0; r < model_->rowCount(); ++r) {
    view_->setFirstColumnSpanned(r, {}, model_->isHeading(r));
  }
  view_->resizeColumnToContents(PropertiesModel::Property);
  stack_->setCurrentIndex(1);
  // The first constant input (the weights, usually) gets the histogram.
  QString first;
  for (int r = 0; r < model_->rowCount() && first.isEmpty(); ++r) {
    const QString key = model_->index(r, 0).data(KeyRole).toString();
    if (key.startsWith(QLatin1String("input.")) && key.endsWith(QLatin1String(".stats"))) {
      first = model_->index(r, 0).data(TensorNameRole).toString();
    }
  }
  showHistogram(first);
}

void PropertiesPanel::showHistogram(const QString& tensor) {
  const ec::ir::FrozenGraph& g = model_->graph();
  const ec::ir::Tensor* t = g && !tensor.isEmpty() ? g->find_tensor(tensor.toStdString()) : nullptr;
  auto stats = t ? constantStats(*t) : std::nullopt;
  histogramTitle_->setVisible(stats.has_value());
  histogram_->setVisible(stats.has_value());
  histogramTitle_->setText(stats ? tr("Histogram of %1").arg(tensor) : QString());
  histogramTitle_->setProperty("tensor", stats ? tensor : QString());
  histogram_->setStats(std::move(stats));
}

QString PropertiesPanel::histogramTensor() const {
  return histogram_->isVisibleTo(this) ? histogramTitle_->property("tensor").toString() : QString();
}

void PropertiesPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) {
    placeholder_->setText(tr("Click an op in the graph to see its properties."));
    model_->showOp(model_->op());  // rebuilds the rows (and headers) in the new language
    emit model_->headerDataChanged(Qt::Horizontal, 0, model_->columnCount() - 1);
  }
  QWidget::changeEvent(event);
}

}  // namespace ec::widgets
