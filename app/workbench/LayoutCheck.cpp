#include "app/workbench/LayoutCheck.h"

#include <algorithm>

#include <QAbstractButton>
#include <QDockWidget>
#include <QHeaderView>
#include <QJsonArray>
#include <QStyle>
#include <QTabBar>
#include <QTableView>
#include <QTreeView>

#include "app/workbench/MainWindow.h"
#include "widgets/GraphView.h"

namespace ec::workbench {

double graphShare(const MainWindow& window) {
  const auto* graph = window.graphView();
  if (!graph || !graph->isVisible() || window.width() <= 0 || window.height() <= 0) return 0;
  // The view (canvas and its scroll bars) without the legend strip above it.
  const double area = double(graph->width()) * (graph->height() - graph->legendGeometry().height());
  return area / (double(window.width()) * window.height());
}

QStringList elidedTitles(const QMainWindow& window) {
  QStringList out;
  for (const QDockWidget* dock : window.findChildren<QDockWidget*>()) {
    // A dock behind another's tab is "visible" with a stale geometry: only the one shown counts.
    if (!dock->isVisible() || dock->visibleRegion().isEmpty() || dock->titleBarWidget()) continue;
    // The title runs from the left margin to the first of the float/close buttons.
    int right = dock->width();
    for (const QAbstractButton* b : dock->findChildren<QAbstractButton*>(Qt::FindDirectChildrenOnly)) {
      if (b->isVisible()) right = std::min(right, b->x());
    }
    const int margin = dock->style()->pixelMetric(QStyle::PM_DockWidgetTitleMargin, nullptr, dock);
    const int needed = dock->fontMetrics().horizontalAdvance(dock->windowTitle()) + 2 * margin;
    if (needed > right) out << QStringLiteral("dock: ") + dock->windowTitle();
  }
  for (const QTabBar* bar : window.findChildren<QTabBar*>()) {
    if (!bar->isVisible() || bar->visibleRegion().isEmpty()) continue;
    for (int i = 0; i < bar->count(); ++i) {
      const QRect r = bar->tabRect(i);
      const int text = bar->fontMetrics().horizontalAdvance(bar->tabText(i));
      if (r.width() < text + 8 || !bar->rect().contains(r)) out << QStringLiteral("tab: ") + bar->tabText(i);
    }
  }
  return out;
}

QStringList narrowColumns(const QWidget& root) {
  QStringList out;
  const auto views = root.findChildren<QAbstractItemView*>();
  for (const QAbstractItemView* view : views) {
    if (!view->isVisible() || view->visibleRegion().isEmpty() || !view->model()) continue;
    const QHeaderView* header = nullptr;
    if (const auto* tree = qobject_cast<const QTreeView*>(view)) {
      if (!tree->isHeaderHidden()) header = tree->header();
    } else if (const auto* table = qobject_cast<const QTableView*>(view)) {
      header = table->horizontalHeader();
    }
    if (!header || !header->isVisible()) continue;
    for (int c = 0; c < header->count(); ++c) {
      if (header->isSectionHidden(c)) continue;
      const QString text = view->model()->headerData(c, Qt::Horizontal).toString();
      if (text.isEmpty()) continue;
      if (header->sectionSize(c) < header->sectionSizeHint(c))
        out << view->objectName() + QStringLiteral(": ") + text;
    }
  }
  return out;
}

QJsonObject layoutReport(const MainWindow& window) {
  QJsonObject o;
  o[QStringLiteral("width")] = window.width();
  o[QStringLiteral("height")] = window.height();
  o[QStringLiteral("devicePixelRatio")] = window.devicePixelRatioF();
  o[QStringLiteral("title")] = window.windowTitle();
  o[QStringLiteral("graphShare")] = graphShare(window);
  o[QStringLiteral("elidedTitles")] = QJsonArray::fromStringList(elidedTitles(window));
  o[QStringLiteral("narrowColumns")] = QJsonArray::fromStringList(narrowColumns(window));
  o[QStringLiteral("legend")] = QJsonArray::fromStringList(window.graphView()->legendTexts());
  o[QStringLiteral("legendCoversCanvas")] =
      window.graphView()->legendGeometry().intersects(window.graphView()->viewport()->geometry());
  QStringList docks;
  for (const QDockWidget* dock : window.findChildren<QDockWidget*>()) {
    if (dock->isVisible()) docks << dock->objectName();
  }
  o[QStringLiteral("visibleDocks")] = QJsonArray::fromStringList(docks);
  return o;
}

}  // namespace ec::workbench
