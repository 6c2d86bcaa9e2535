// Tests of the Passes panel (issue 5): PassListModel and GraphDiffModel under
// QAbstractItemModelTester, and the workbench's Model › Optimize flow checked
// against the core's own PassManager run on the same model.
#include <algorithm>
#include <array>
#include <memory>

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <QComboBox>

#include "app/workbench/MainWindow.h"
#include "core/frontends/frontend.h"
#include "core/passes/graph_diff.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "widgets/CoreMessages.h"
#include "widgets/GraphDiffModel.h"
#include "widgets/GraphView.h"
#include "widgets/ItemRoles.h"
#include "widgets/PassListModel.h"
#include "widgets/PassesPanel.h"
#include "widgets/PropertiesModel.h"
#include "widgets/PropertiesPanel.h"

using ec::widgets::GraphDiffModel;
using ec::widgets::PassesPanel;
using ec::widgets::PassListModel;
using ec::workbench::MainWindow;

namespace {

constexpr int kTimeoutMs = 60000;

QString qs(const std::string& s) { return QString::fromStdString(s); }

/// The core's own run of the default pipeline, with snapshots (what the window runs).
std::shared_ptr<const ec::passes::PipelineReport> coreReport(const QString& path) {
  ec::ir::Graph g = ec::frontends::open_model(path.toStdString());
  ec::passes::PassManagerOptions options;
  options.keep_snapshots = true;
  auto manager = ec::passes::make_pipeline(ec::passes::default_pipeline(), options);
  return std::make_shared<const ec::passes::PipelineReport>(manager.run(g));
}

/// Rows of `model` of each kind: {removed, added, changed}.
std::array<int, 3> kindCounts(const GraphDiffModel& model) {
  std::array<int, 3> counts{0, 0, 0};
  for (int r = 0; r < model.rowCount(); ++r) {
    const int kind = model.index(r, 0).data(GraphDiffModel::ChangeKindRole).toInt();
    ++counts[std::size_t(kind)];
  }
  return counts;
}

std::array<int, 3> diffCounts(const ec::passes::GraphDiff& d) {
  return {int(d.removed.size()), int(d.added.size()), int(d.changed.size())};
}

/// Waits until the graph view shows the current graph laid out.
bool waitForLayout(ec::widgets::GraphView* view) {
  return QTest::qWaitFor([view] { return !view->isLayoutPending(); }, kTimeoutMs);
}

void clickRow(QTreeView* view, int row, int column = 0) {
  const QModelIndex index = view->model()->index(row, column);
  view->scrollTo(index);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
}

}  // namespace

class PassesTests : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    settingsDir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(settingsDir_->isValid());
    settings_ = std::make_unique<QSettings>(settingsDir_->filePath(QStringLiteral("wb.ini")),
                                            QSettings::IniFormat);
  }
  void cleanup() {
    settings_.reset();
    settingsDir_.reset();
  }

  void passListModelMatchesTheCoreReport() {
    const QString path = QStringLiteral(EC_SAMPLE_MODEL);
    if (!QFileInfo::exists(path)) QSKIP("sample model not built");
    const auto report = coreReport(path);
    PassListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setReport(report);
    QCOMPARE(model.rowCount(), int(report->passes.size()));
    QCOMPARE(model.columnCount(), int(PassListModel::ColumnCount));
    for (int r = 0; r < model.rowCount(); ++r) {
      const auto& rec = report->passes[std::size_t(r)];
      QCOMPARE(model.index(r, PassListModel::Index).data().toInt(), r + 1);
      QCOMPARE(model.index(r, PassListModel::Pass).data().toString(), qs(rec.pass));
      QCOMPARE(model.index(r, PassListModel::Ops).data().toString(),
               QStringLiteral("%1 → %2").arg(rec.ops_before).arg(rec.ops_after));
      const QString stats = model.index(r, PassListModel::Statistics).data().toString();
      for (const auto& s : rec.statistics) {
        // The core's statistic through its message id, in the UI language (issue 44).
        const QString text = ec::widgets::statisticText(rec.pass, s);
        QVERIFY(text.startsWith(QString::number(s.value) + QLatin1Char(' ')));
        QCOMPARE(stats.contains(text), s.value != 0);
      }
      QCOMPARE(model.rowForKey(model.index(r, 0).data(ec::widgets::KeyRole).toString()), r);
    }
    // A pass that runs twice gets a distinct key.
    QVERIFY(model.rowForKey(QStringLiteral("ConstantFolding#2")) > 0);
    model.setReport(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void graphDiffModelMatchesEveryDiff() {
    const QString path = QStringLiteral(EC_SAMPLE_MODEL);
    if (!QFileInfo::exists(path)) QSKIP("sample model not built");
    const auto report = coreReport(path);
    GraphDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    bool sawChange = false;
    for (const auto& rec : report->passes) {
      model.setDiff(std::shared_ptr<const ec::passes::GraphDiff>(report, &rec.diff));
      QCOMPARE(model.rowCount(),
               int(rec.diff.removed.size() + rec.diff.added.size() + rec.diff.changed.size()));
      QCOMPARE(kindCounts(model), diffCounts(rec.diff));
      for (int r = 0; r < model.rowCount(); ++r) {
        const QModelIndex i = model.index(r, GraphDiffModel::Name);
        const int before = i.data(GraphDiffModel::BeforeOpRole).toInt();
        const int after = i.data(GraphDiffModel::AfterOpRole).toInt();
        const ec::ir::Graph& shown = after >= 0 ? *rec.after : *rec.before;
        const int target = i.data(ec::widgets::TargetOpRole).toInt();
        QCOMPARE(target, after >= 0 ? after : before);
        QCOMPARE(i.data(GraphDiffModel::OpNameRole).toString(),
                 qs(shown.ops[std::size_t(target)].name));
        QCOMPARE(model.rowForKey(i.data(ec::widgets::KeyRole).toString()), r);
        sawChange = true;
      }
    }
    QVERIFY(sawChange);
    // Any two snapshots: the original against the final graph.
    const auto whole = std::make_shared<const ec::passes::GraphDiff>(
        ec::passes::diff_graphs(*report->passes.front().before, *report->passes.back().after));
    model.setDiff(whole);
    QCOMPARE(kindCounts(model), diffCounts(*whole));
    QVERIFY(model.rowCount() > 0);
    model.setDiff(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void optimizeShowsPassesDiffsAndSelectsOps() {
    const QString path = QStringLiteral(EC_SAMPLE_MODEL);
    if (!QFileInfo::exists(path)) QSKIP("sample model not built");
    const auto expected = coreReport(path);

    MainWindow window(*settings_);
    window.resize(1280, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(path);
    QVERIFY(shown.wait(kTimeoutMs));
    QSignalSpy optimized(&window, &MainWindow::optimized);
    window.optimize();
    QVERIFY(optimized.wait(kTimeoutMs));

    PassesPanel* panel = window.passesPanel();
    PassListModel* passes = panel->passModel();
    GraphDiffModel* diff = panel->diffModel();
    QAbstractItemModelTester passTester(passes,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester diffTester(diff,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);

    // Pass rows and statistics are the core's.
    const auto& got = *panel->report();
    QCOMPARE(got.passes.size(), expected->passes.size());
    QCOMPARE(got.ops_before, expected->ops_before);
    QCOMPARE(got.ops_after, expected->ops_after);
    QCOMPARE(passes->rowCount(), int(expected->passes.size()));
    for (std::size_t i = 0; i < expected->passes.size(); ++i) {
      const auto& e = expected->passes[i];
      QCOMPARE(passes->index(int(i), PassListModel::Pass).data().toString(), qs(e.pass));
      QCOMPARE(got.passes[i].ops_after, e.ops_after);
      QCOMPARE(got.passes[i].statistics.size(), e.statistics.size());
      for (std::size_t s = 0; s < e.statistics.size(); ++s) {
        QCOMPARE(got.passes[i].statistics[s].value, e.statistics[s].value);
      }
      QCOMPARE(diffCounts(got.passes[i].diff), diffCounts(e.diff));
    }

    // At first: original → final, showing the final graph.
    QCOMPARE(panel->compareFrom(), 0);
    QCOMPARE(panel->compareTo(), panel->snapshotCount() - 1);
    ec::widgets::GraphView* view = window.graphView();
    QCOMPARE(view->graph(), panel->snapshot(panel->snapshotCount() - 1));
    QVERIFY(view->hasOpHighlights());
    QCOMPARE(kindCounts(*diff),
             diffCounts(ec::passes::diff_graphs(*expected->passes.front().before,
                                                *expected->passes.back().after)));

    // Select the first pass that changed something: the diff table is its diff.
    int row = -1;
    for (std::size_t i = 0; i < got.passes.size(); ++i) {
      if (!got.passes[i].diff.removed.empty() && !got.passes[i].diff.changed.empty()) {
        row = int(i);
        break;
      }
    }
    QVERIFY2(row >= 0, "no pass removed and changed ops on the sample model");
    clickRow(panel->passView(), row, PassListModel::Pass);
    QCOMPARE(panel->compareFrom(), row);
    QCOMPARE(panel->compareTo(), row + 1);
    const auto& passDiff = got.passes[std::size_t(row)].diff;
    QCOMPARE(diff->rowCount(),
             int(passDiff.removed.size() + passDiff.added.size() + passDiff.changed.size()));
    QCOMPARE(kindCounts(*diff), diffCounts(passDiff));
    QCOMPARE(view->graph(), got.passes[std::size_t(row)].after);

    // Click a changed op: it is selected in the graph and described by the properties panel.
    int changedRow = -1, removedRow = -1;
    for (int r = 0; r < diff->rowCount(); ++r) {
      const auto kind = diff->kindAt(r);
      if (kind == GraphDiffModel::Kind::Changed && changedRow < 0) changedRow = r;
      if (kind == GraphDiffModel::Kind::Removed && removedRow < 0) removedRow = r;
    }
    QVERIFY(changedRow >= 0 && removedRow >= 0);
    clickRow(panel->diffView(), changedRow, GraphDiffModel::Name);
    const int changedOp =
        diff->index(changedRow, 0).data(GraphDiffModel::AfterOpRole).toInt();
    QCOMPARE(view->graph(), got.passes[std::size_t(row)].after);
    QCOMPARE(view->selectedOp(), changedOp);
    QCOMPARE(window.propertiesPanel()->model()->op(), changedOp);
    QVERIFY(waitForLayout(view));
    QVERIFY(!view->opRect(changedOp).isNull());

    // Click a removed op: the view switches to the snapshot before the pass.
    clickRow(panel->diffView(), removedRow, GraphDiffModel::Name);
    const int removedOp =
        diff->index(removedRow, 0).data(GraphDiffModel::BeforeOpRole).toInt();
    QCOMPARE(panel->side(), PassesPanel::Side::Before);
    QCOMPARE(view->graph(), got.passes[std::size_t(row)].before);
    QCOMPARE(view->selectedOp(), removedOp);
    QCOMPARE(window.propertiesPanel()->model()->op(), removedOp);
    // Removed ops are highlighted in the before snapshot.
    const std::vector<QColor> colors = panel->highlightColors();
    QCOMPARE(colors.size(), got.passes[std::size_t(row)].before->ops.size());
    QCOMPARE(colors[std::size_t(removedOp)], GraphDiffModel::colorFor(GraphDiffModel::Kind::Removed));

    // Toggle back to After with the button.
    auto* afterButton = panel->findChild<QToolButton*>(QStringLiteral("showAfterButton"));
    auto* beforeButton = panel->findChild<QToolButton*>(QStringLiteral("showBeforeButton"));
    QVERIFY(afterButton && beforeButton);
    QTest::mouseClick(afterButton, Qt::LeftButton);
    QCOMPARE(panel->side(), PassesPanel::Side::After);
    QCOMPARE(view->graph(), got.passes[std::size_t(row)].after);
    QTest::mouseClick(beforeButton, Qt::LeftButton);
    QCOMPARE(view->graph(), got.passes[std::size_t(row)].before);

    // Any two snapshots through the combo boxes: original → final.
    auto* fromCombo = panel->findChild<QComboBox*>(QStringLiteral("compareFromCombo"));
    auto* toCombo = panel->findChild<QComboBox*>(QStringLiteral("compareToCombo"));
    QVERIFY(fromCombo && toCombo);
    QCOMPARE(fromCombo->count(), panel->snapshotCount());
    fromCombo->setCurrentIndex(0);
    toCombo->setCurrentIndex(panel->snapshotCount() - 1);
    QCOMPARE(panel->compareFrom(), 0);
    QCOMPARE(panel->compareTo(), panel->snapshotCount() - 1);
    const ec::passes::GraphDiff whole =
        ec::passes::diff_graphs(*got.passes.front().before, *got.passes.back().after);
    QCOMPARE(kindCounts(*diff), diffCounts(whole));
    QVERIFY(!panel->passView()->selectionModel()->hasSelection());  // not one pass
    QCOMPARE(view->graph(), panel->snapshot(panel->shownSnapshot()));
    QVERIFY(waitForLayout(view));
  }

  void newModelClearsThePanel() {
    const QString path = QStringLiteral(EC_SAMPLE_MODEL);
    if (!QFileInfo::exists(path)) QSKIP("sample model not built");
    MainWindow window(*settings_);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(path);
    QVERIFY(shown.wait(kTimeoutMs));
    QSignalSpy optimized(&window, &MainWindow::optimized);
    window.optimize();
    QVERIFY(optimized.wait(kTimeoutMs));
    QVERIFY(window.passesPanel()->passModel()->rowCount() > 0);
    window.openFile(path);
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(window.passesPanel()->passModel()->rowCount(), 0);
    QCOMPARE(window.passesPanel()->diffModel()->rowCount(), 0);
    QCOMPARE(window.passesPanel()->snapshotCount(), 0);
  }

 private:
  std::unique_ptr<QTemporaryDir> settingsDir_;
  std::unique_ptr<QSettings> settings_;
};

QTEST_MAIN(PassesTests)
#include "tst_passes.moc"
