// Measurements of the main window's layout that a screenshot alone does not give:
// how much of the window the graph gets, which dock or tab titles are elided, which
// table columns are narrower than their headers, what the legends say. The widget
// tests assert them; `--screenshot-report` writes them beside each screenshot.
#pragma once

#include <QJsonObject>
#include <QStringList>

class QMainWindow;
class QWidget;

namespace ec::workbench {

class MainWindow;

/// The graph view's area as a share of the window's (0..1); 0 when it is not shown.
double graphShare(const MainWindow& window);
/// Titles of visible docks and texts of tabs (tabbed docks, tab widgets) that are
/// not shown whole: "dock: Zusammenfassung", "tab: Operationen".
QStringList elidedTitles(const QMainWindow& window);
/// Columns of visible tables narrower than their header text: "summaryView: Value".
QStringList narrowColumns(const QWidget& root);
/// Every measurement at once, with the window's size, device pixel ratio and title.
QJsonObject layoutReport(const MainWindow& window);

}  // namespace ec::workbench
