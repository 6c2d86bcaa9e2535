#include "widgets/ItemViewFit.h"

#include <algorithm>

#include <QAbstractItemView>
#include <QEvent>
#include <QHeaderView>
#include <QHelpEvent>
#include <QPointer>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QTreeView>

namespace ec::widgets {

namespace {
QHeaderView* horizontalHeaderOf(QAbstractItemView* view) {
  if (auto* tree = qobject_cast<QTreeView*>(view)) return tree->header();
  if (auto* table = qobject_cast<QTableView*>(view)) return table->horizontalHeader();
  return nullptr;
}

int sizeHintForColumn(QAbstractItemView* view, int column) {
  if (auto* tree = qobject_cast<QTreeView*>(view)) {
    tree->resizeColumnToContents(column);  // max(contents, header) over the rows Qt samples
    return tree->columnWidth(column);
  }
  if (auto* table = qobject_cast<QTableView*>(view)) {
    table->resizeColumnToContents(column);
    return table->columnWidth(column);
  }
  return 0;
}

/// Sizes the columns again when the language changes (the headers' texts change
/// length, and not every model says so with headerDataChanged).
class RefitOnLanguageChange : public QObject {
 public:
  RefitOnLanguageChange(QTimer* timer, QObject* parent) : QObject(parent), timer_(timer) {}
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::LanguageChange) timer_->start();
    return QObject::eventFilter(watched, event);
  }

 private:
  QTimer* timer_;
};
}  // namespace

void ElidingItemDelegate::initStyleOption(QStyleOptionViewItem* option,
                                          const QModelIndex& index) const {
  QStyledItemDelegate::initStyleOption(option, index);
  option->textElideMode = Qt::ElideMiddle;
}

bool ElidingItemDelegate::helpEvent(QHelpEvent* event, QAbstractItemView* view,
                                    const QStyleOptionViewItem& option, const QModelIndex& index) {
  if (event && view && index.isValid() && !index.data(Qt::ToolTipRole).isValid()) {
    const QString text = index.data(Qt::DisplayRole).toString();
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QSize needed = sizeHint(opt, index);
    if (!text.isEmpty() && needed.width() > view->visualRect(index).width()) {
      QToolTip::showText(event->globalPos(), text, view->viewport(), view->visualRect(index));
      return true;
    }
  }
  return QStyledItemDelegate::helpEvent(event, view, option, index);
}

void resizeColumnsNow(QAbstractItemView* view) {
  QHeaderView* header = horizontalHeaderOf(view);
  if (!header || !view->model()) return;
  const int columns = header->count();
  // 60% of the view at most for one column: its content elides (tooltip) beyond that,
  // so a long value does not push the others out of sight.
  const int cap = std::max(view->viewport()->width() * 3 / 5, 140);
  for (int c = 0; c < columns; ++c) {
    if (header->isSectionHidden(c)) continue;
    if (header->sectionResizeMode(c) != QHeaderView::Interactive) continue;
    if (c == columns - 1 && header->stretchLastSection()) continue;
    const int wanted = sizeHintForColumn(view, c);
    header->resizeSection(c, std::max(header->sectionSizeHint(c), std::min(wanted, cap)));
  }
  // The stretched last column still needs room for its header.
  header->setMinimumSectionSize(
      std::max(header->minimumSectionSize(), columns > 0 ? std::min(header->sectionSizeHint(columns - 1), 160) : 0));
}

void fitColumnsToContents(QAbstractItemView* view) {
  if (!view) return;
  if (!qobject_cast<ElidingItemDelegate*>(view->itemDelegate())) {
    view->setItemDelegate(new ElidingItemDelegate(view));
  }
  view->setTextElideMode(Qt::ElideMiddle);
  if (QHeaderView* header = horizontalHeaderOf(view)) header->setTextElideMode(Qt::ElideMiddle);
  QAbstractItemModel* model = view->model();
  if (!model) return;
  // One resize per burst of changes (rows arrive one by one in the log).
  auto* timer = view->findChild<QTimer*>(QStringLiteral("ec_columnFitTimer"));
  if (!timer) {
    timer = new QTimer(view);
    timer->setObjectName(QStringLiteral("ec_columnFitTimer"));
    timer->setSingleShot(true);
    timer->setInterval(0);
    QObject::connect(timer, &QTimer::timeout, view, [view] { resizeColumnsNow(view); });
    view->installEventFilter(new RefitOnLanguageChange(timer, view));
  }
  const QString key = QStringLiteral("ec_columnFitModel");
  if (view->property(key.toLatin1().constData()).value<QObject*>() == model) {
    timer->start();
    return;
  }
  view->setProperty(key.toLatin1().constData(), QVariant::fromValue<QObject*>(model));
  auto schedule = [timer] { timer->start(); };
  QObject::connect(model, &QAbstractItemModel::modelReset, timer, schedule);
  QObject::connect(model, &QAbstractItemModel::layoutChanged, timer, schedule);
  QObject::connect(model, &QAbstractItemModel::rowsInserted, timer, schedule);
  QObject::connect(model, &QAbstractItemModel::headerDataChanged, timer, schedule);
  timer->start();
}

}  // namespace ec::widgets
