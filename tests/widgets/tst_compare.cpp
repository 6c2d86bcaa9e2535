// Qt Test suite for Model › Compare With… (issue 42): the CompareView over a real
// comparison (the bundled sample model against its PTQ int8 model) — the pairs model
// under QAbstractItemModelTester and sorted by error, selection that follows from one
// graph to the other and to the table, scrolling that follows — and the workbench's run
// on its worker thread. With EC_COMPARE_SCREENSHOT=FILE.png the view is also saved there.
#include <memory>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "app/workbench/MainWindow.h"
#include "core/compare/compare.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_registry.h"
#include "core/quantize/quantizer.h"
#include "widgets/GraphView.h"
#include "widgets/compare/CompareView.h"

using ec::widgets::ComparePairsModel;
using ec::widgets::CompareView;
using ec::workbench::MainWindow;

namespace {
constexpr int kTimeoutMs = 120000;

struct Compared {
  ec::ir::FrozenGraph a, b;
  std::shared_ptr<const ec::compare::CompareResult> result;
};

// The sample model against its PTQ int8 model: pairs with real errors, and ops of one
// side only (the BatchNormalizations folded by the quantiser's pipeline).
const Compared& sampleVsInt8() {
  static const Compared c = [] {
    Compared x;
    x.a = ec::ir::freeze(ec::frontends::open_model(EC_SAMPLE_MODEL));
    const auto calibration = ec::compare::random_samples(*x.a, 4);
    x.b = ec::ir::freeze(ec::quantize::quantize(*x.a, calibration, {}).graph);
    auto r = ec::compare::compare_models(x.a, x.b, ec::compare::random_samples(*x.a, 2));
    r.model_a = "sample_cnn.onnx";
    r.model_b = "sample_cnn (int8)";
    x.result = std::make_shared<const ec::compare::CompareResult>(std::move(r));
    return x;
  }();
  return c;
}
}  // namespace

class CompareTests : public QObject {
  Q_OBJECT

 private slots:
  void pairsModelSortedByError() {
    const auto& c = sampleVsInt8();
    ComparePairsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(c.result);
    QVERIFY(model.rowCount() >= 5);
    QCOMPARE(model.columnCount(), int(ComparePairsModel::ColumnCount));
    for (int r = 1; r < model.rowCount(); ++r) {
      const auto& prev = c.result->tensors[std::size_t(model.pairAt(r - 1))];
      const auto& cur = c.result->tensors[std::size_t(model.pairAt(r))];
      QVERIFY2(prev.sqnr_db <= cur.sqnr_db || prev.nonfinite_b > 0, "rows sorted by SQNR, lowest first");
    }
    QCOMPARE(model.rowOfPair(model.pairAt(2)), 2);
  }

  void selectionFollowsBetweenSides() {
    const auto& c = sampleVsInt8();
    CompareView view;
    view.resize(1400, 900);
    view.show();
    view.setResult(c.a, c.b, c.result);
    QVERIFY(view.viewA()->waitForLayout(kTimeoutMs));
    QVERIFY(view.viewB()->waitForLayout(kTimeoutMs));
    // Every pair of ops: selecting A's op selects B's match, and back, and the table row.
    int checked = 0;
    for (std::size_t i = 0; i < c.result->tensors.size(); ++i) {
      const auto& t = c.result->tensors[i];
      if (t.a_order < 0 || t.b_order < 0 || !t.compared) continue;
      if (view.matchOfA(t.a_order) != t.b_order) continue;  // an op with several outputs: its first pair
      view.viewA()->selectOp(t.a_order);
      QCOMPARE(view.viewB()->selectedOp(), t.b_order);
      const int row = view.pairsTable()->selectionModel()->currentIndex().row();
      QCOMPARE(view.pairsModel()->pairAt(row), int(i));
      view.viewB()->selectOp(-1);
      view.viewB()->selectOp(t.b_order);
      QCOMPARE(view.viewA()->selectedOp(), t.a_order);
      ++checked;
    }
    QVERIFY2(checked >= 3, "several matched ops selected from both sides");
    // A table row selects both ops.
    const int pair = view.pairsModel()->pairAt(0);
    view.pairsTable()->selectRow(0);
    const auto& t = c.result->tensors[std::size_t(pair)];
    if (t.a_order >= 0) QCOMPARE(view.viewA()->selectedOp(), t.a_order);
    if (t.b_order >= 0) QCOMPARE(view.viewB()->selectedOp(), t.b_order);
    // An op of A only (folded away in B) selects nothing on B's side.
    for (const auto& u : c.result->unmatched)
      if (u.side == 'a' && u.order >= 0) {
        QCOMPARE(view.matchOfA(u.order), -1);
        break;
      }
  }

  void scrollingFollows() {
    const auto& c = sampleVsInt8();
    CompareView view;
    view.resize(900, 500);
    view.show();
    view.setResult(c.a, c.b, c.result);
    QVERIFY(view.viewA()->waitForLayout(kTimeoutMs));
    QVERIFY(view.viewB()->waitForLayout(kTimeoutMs));
    view.viewA()->setZoom(2.0);
    view.viewB()->setZoom(2.0);
    QScrollBar* a = view.viewA()->verticalScrollBar();
    QScrollBar* b = view.viewB()->verticalScrollBar();
    if (a->maximum() <= a->minimum() || b->maximum() <= b->minimum()) QSKIP("nothing to scroll at this size");
    a->setValue(a->maximum());
    QCOMPARE(b->value(), b->maximum());
    a->setValue(a->minimum());
    QCOMPARE(b->value(), b->minimum());
  }

  void passStagesStep() {
    const auto& c = sampleVsInt8();
    auto stages = std::make_shared<const ec::compare::PassesResult>(ec::compare::compare_passes(
        *c.a, ec::passes::default_pipeline(), ec::compare::random_samples(*c.a, 1)));
    CompareView view;
    view.resize(1000, 700);
    view.show();
    view.setStages(stages);
    QCOMPARE(view.stageCount(), int(stages->stages.size()));
    QCOMPARE(view.stageBox()->count(), view.stageCount());
    int changed = 0;
    for (int k = 0; k < view.stageCount(); ++k) {
      view.stageBox()->setCurrentIndex(k);
      QCOMPARE(view.viewA()->graph(), stages->graphs[std::size_t(k)]);
      QCOMPARE(view.viewB()->graph(), stages->graphs[std::size_t(k) + 1]);
      if (stages->stages[std::size_t(k)].changed_graph) {
        ++changed;
        QCOMPARE(view.result().get(), &stages->stages[std::size_t(k)].result);
        QVERIFY(view.pairsModel()->rowCount() > 0);
      } else {
        QVERIFY(!view.result());
      }
    }
    QVERIFY(changed >= 2);
  }

  void screenshot() {
    const QByteArray out = qgetenv("EC_COMPARE_SCREENSHOT");
    if (out.isEmpty()) QSKIP("EC_COMPARE_SCREENSHOT not set");
    const auto& c = sampleVsInt8();
    CompareView view;
    view.resize(1400, 900);
    view.show();
    view.setResult(c.a, c.b, c.result);
    QVERIFY(view.viewA()->waitForLayout(kTimeoutMs));
    QVERIFY(view.viewB()->waitForLayout(kTimeoutMs));
    if (c.result->first_divergence) view.pairsTable()->selectRow(
        view.pairsModel()->rowOfPair(int(*c.result->first_divergence)));
    QTest::qWait(300);
    QVERIFY(view.grab().save(QString::fromLocal8Bit(out)));
  }

  void workbenchComparesOnAWorker() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    MainWindow window(settings);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    QSignalSpy compared(&window, &MainWindow::compared);
    window.compareWith(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(window.isComparing());
    QVERIFY(compared.wait(kTimeoutMs));
    QVERIFY(!window.isComparing());
    const auto r = window.compareView()->result();
    QVERIFY(r);
    QVERIFY(r->tensors.size() >= 5);
    for (const auto& t : r->tensors)
      if (t.compared) QVERIFY(t.exact);
    QVERIFY(!r->first_divergence);
    // A model whose inputs differ: one line, no result replaced.
    QSignalSpy failed(&window, &MainWindow::compareFailed);
    const QString other = dir.filePath(QStringLiteral("missing.onnx"));
    window.compareWith(other);
    QVERIFY(failed.wait(kTimeoutMs));
    QVERIFY(!failed.takeFirst().at(0).toString().contains(QLatin1Char('\n')));
    QCOMPARE(window.compareView()->result(), r);
  }
};

QTEST_MAIN(CompareTests)
#include "tst_compare.moc"
