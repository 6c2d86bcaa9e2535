// The workbench with the stub target linked in (this folder's CMakeLists.txt): the
// Compile dialog (Model › Compile for Target…) lists it from the backend table and
// compiles for it, without a line of the workbench naming it (QT_QPA_PLATFORM=offscreen).
#include <memory>

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "app/workbench/MainWindow.h"
#include "widgets/GraphView.h"
#include "widgets/compile/CompilePanels.h"

using ec::workbench::MainWindow;

namespace {
constexpr int kTimeoutMs = 120000;
}

class StubTargetTests : public QObject {
  Q_OBJECT

 private slots:
  void compileDialogListsAndCompilesForTheStubTarget() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSettings settings(dir.filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    MainWindow window(settings);
    window.resize(1280, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    QVERIFY(window.graphView()->waitForLayout());

    // The dialog is modal: inspect and accept it from the event loop it runs.
    QStringList targets, labels;
    bool accepted = false;
    QTimer::singleShot(0, &window, [&] {
      auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
      if (!dialog || dialog->objectName() != QLatin1String("compileDialog")) return;
      auto* combo = dialog->findChild<QComboBox*>(QStringLiteral("compileTarget"));
      if (!combo) return;
      for (int i = 0; i < combo->count(); ++i) {
        targets << combo->itemData(i).toString();
        labels << combo->itemText(i);
      }
      const int stub = combo->findData(QStringLiteral("stub"));
      if (stub < 0) {
        dialog->reject();
        return;
      }
      combo->setCurrentIndex(stub);
      auto* quant = dialog->findChild<QComboBox*>(QStringLiteral("compileQuantize"));
      if (quant) quant->setCurrentIndex(quant->findData(QStringLiteral("none")));  // float: no calibration needed
      accepted = true;
      dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    });
    QSignalSpy compiled(&window, &MainWindow::compiled);
    QSignalSpy failed(&window, &MainWindow::compileFailed);
    window.compileDialog();
    // every backend of the table, the stub among the built-in ones, the reference last
    QVERIFY2(targets.contains(QStringLiteral("stub")), qPrintable(targets.join(u',')));
    QVERIFY2(targets.contains(QStringLiteral("cpu")) && targets.last() == QLatin1String("cpu"), qPrintable(targets.join(u',')));
    QVERIFY2(targets.size() >= 2, qPrintable(targets.join(u',')));
    // a target the workbench has no words for shows the summary it registers
    QVERIFY2(labels.at(targets.indexOf(QStringLiteral("stub"))).startsWith(QLatin1String("Stub target")),
             qPrintable(labels.join(u'|')));
    QVERIFY(accepted);
    QVERIFY2(compiled.wait(kTimeoutMs), failed.isEmpty() ? "timeout" : qPrintable(failed.first().at(0).toString()));
    const auto& report = window.partitionPanel()->report();
    QVERIFY(report);
    QCOMPARE(QString::fromStdString(report->backend), QStringLiteral("stub"));
    QVERIFY(report->result.ops_on_target > 0);
    QVERIFY(window.partitionPanel()->opModel()->rowCount() > 0);
  }
};

QTEST_MAIN(StubTargetTests)
#include "tst_stub_target.moc"
