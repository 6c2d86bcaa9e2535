// How every table of the workbench reads: columns sized to their content (never
// narrower than their header), long texts elided in the middle (a model name keeps
// its start and its end) with the whole text as the cell's tooltip.
#pragma once

#include <QStyledItemDelegate>

class QAbstractItemView;

namespace ec::widgets {

/// The default delegate, eliding in the middle, and giving a cell whose text does not
/// fit its full text as tooltip (unless the model has a tooltip of its own).
class ElidingItemDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                 const QModelIndex& index) override;

 protected:
  void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

/// Gives `view` the eliding delegate and sizes its columns to their contents (and at
/// least to their headers) now and whenever its model resets, lays out again or gets
/// rows; the last column stretches. Call again after setModel() with a new model.
void fitColumnsToContents(QAbstractItemView* view);

/// Sizes the columns of `view` once (what fitColumnsToContents() does on each change).
void resizeColumnsNow(QAbstractItemView* view);

}  // namespace ec::widgets
