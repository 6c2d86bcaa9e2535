// Qt Test suite for the Devices panel (issue 16; QT_QPA_PLATFORM=offscreen): the
// device model over real discovery (checked by QAbstractItemModelTester), the
// provider config editor saving the devices.json the CLI reads (through the
// workbench's DevicesController, which reads and writes the file), per-component
// overrides, a corrupt file left untouched, German texts, and the workbench's dock.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "app/workbench/DevicesController.h"
#include "app/workbench/Language.h"
#include "app/workbench/MainWindow.h"
#include "core/devices/discovery.h"
#include "widgets/devices/DevicesPanel.h"

using ec::widgets::DeviceListModel;
using ec::widgets::DevicesPanel;

class DevicesTests : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    path_ = dir_->filePath(QStringLiteral("cfg/devices.json"));
  }

  void modelListsRealDiscoveryWithReasons() {
    DevicesPanel panel;
    ec::workbench::DevicesController panelDevices(&panel, path_);
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto found = ec::devices::discover_devices();
    panel.setDevices(found.devices, {QStringLiteral("no Coral found (0 USB devices seen)")});
    auto* m = panel.model();
    QCOMPARE(m->rowCount(), static_cast<int>(found.devices.size()));
    QCOMPARE(m->data(m->index(0, DeviceListModel::Id)).toString(), QStringLiteral("host-cpu"));
    QCOMPARE(m->data(m->index(0, DeviceListModel::Available)).toString(), QStringLiteral("available"));
    QVERIFY(m->data(m->index(0, DeviceListModel::Id), Qt::ToolTipRole).toString().contains(QStringLiteral("LogicalCores")));
    const int v = m->rowForId(QStringLiteral("coral-virtual-usb"));
    QVERIFY(v > 0);
    QCOMPARE(m->data(m->index(v, DeviceListModel::Available)).toString(),
             QStringLiteral("not available: virtual: compile and estimate only"));
    QCOMPARE(m->data(m->index(v, DeviceListModel::Available), Qt::ToolTipRole).toString(),
             QStringLiteral("virtual: compile and estimate only"));
    QCOMPARE(m->data(m->index(v, DeviceListModel::DiscoveredBy)).toString(), QStringLiteral("backend coral"));
    QCOMPARE(m->data(m->index(v, DeviceListModel::Virtual)).toString(), QStringLiteral("virtual"));
    QCOMPARE(panel.selectedDevice(), QStringLiteral("host-cpu"));  // selected for editing
  }

  void editorSavesProviderAndOverridesForTheCli() {
    DevicesPanel panel;
    ec::workbench::DevicesController panelDevices(&panel, path_);
    panel.setDevices(ec::devices::discover_devices().devices, {});
    panel.addRemoteDevice(QStringLiteral("rpi-coral"));
    QCOMPARE(panel.selectedDevice(), QStringLiteral("rpi-coral"));
    const auto& dev = panel.fields();
    QCOMPARE(dev.type->currentText(), QStringLiteral("ssh"));
    QTest::keyClicks(dev.host, QStringLiteral("rpi.local"));
    dev.port->setText(QStringLiteral("2222"));
    QTest::keyClicks(dev.user, QStringLiteral("pi"));
    QTest::keyClicks(dev.key, QStringLiteral("/home/me/.ssh/id_ed25519"));
    dev.remoteCommand->setText(QStringLiteral("benchmark_model --graph={artefact}"));
    const auto& prof = panel.fields("profiler");
    prof.remoteCommand->setText(QStringLiteral("benchmark_model --graph={artefact} --enable_op_profiling=true"));
    QSignalSpy saved(&panel, &DevicesPanel::configSaved);
    QTest::mouseClick(panel.saveButton(), Qt::LeftButton);
    QCOMPARE(saved.count(), 1);

    // What the CLI reads back.
    const auto config = ec::devices::load_devices_config(path_.toStdString());
    const auto* d = config.find("rpi-coral");
    QVERIFY(d);
    const auto inv = ec::devices::resolve_provider_config(*d, "invoker");
    QCOMPARE(QString::fromStdString(inv.type), QStringLiteral("ssh"));
    QCOMPARE(QString::fromStdString(inv.host), QStringLiteral("rpi.local"));
    QCOMPARE(inv.port, 2222);
    QCOMPARE(QString::fromStdString(inv.user), QStringLiteral("pi"));
    QCOMPARE(QString::fromStdString(inv.remote_command), QStringLiteral("benchmark_model --graph={artefact}"));
    const auto pr = ec::devices::resolve_provider_config(*d, "profiler");
    QCOMPARE(QString::fromStdString(pr.host), QStringLiteral("rpi.local"));
    QCOMPARE(QString::fromStdString(pr.remote_command),
             QStringLiteral("benchmark_model --graph={artefact} --enable_op_profiling=true"));
    QVERIFY(d->components.count("invoker") == 0);  // nothing overridden there
    QVERIFY(!config.find("host-cpu"));             // an untouched device stays out of the file

    // A new panel shows what was saved, inherited values as placeholders.
    DevicesPanel again;
    ec::workbench::DevicesController againDevices(&again, path_);
    again.setDevices(ec::devices::discover_devices().devices, {});
    again.selectDevice(QStringLiteral("rpi-coral"));
    QCOMPARE(again.fields().host->text(), QStringLiteral("rpi.local"));
    QCOMPARE(again.fields("profiler").remoteCommand->text(),
             QStringLiteral("benchmark_model --graph={artefact} --enable_op_profiling=true"));
    QCOMPARE(again.fields("invoker").host->placeholderText(), QStringLiteral("rpi.local"));
    QCOMPARE(again.fields("invoker").port->placeholderText(), QStringLiteral("2222"));
    // EC_TEST_SCREENSHOT_DIR: a picture of the panel, as tests/widgets/tst_widgets.cpp takes them.
    if (const QString shots = qEnvironmentVariable("EC_TEST_SCREENSHOT_DIR"); !shots.isEmpty()) {
      again.resize(1100, 320);
      again.show();
      QVERIFY(QTest::qWaitForWindowExposed(&again));
      again.grab().save(shots + QStringLiteral("/devices_panel.png"));
    }
  }

  void corruptFileIsNeverOverwritten() {
    QDir().mkpath(dir_->filePath(QStringLiteral("cfg")));
    QFile f(path_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"devices\": 3}");
    f.close();
    DevicesPanel panel;
    ec::workbench::DevicesController panelDevices(&panel, path_);
    panel.setDevices(ec::devices::discover_devices().devices, {});
    QSignalSpy failed(&panel, &DevicesPanel::configFailed);
    QVERIFY(!panel.save());
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(path_));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("{\"devices\": 3}"));
  }

  void germanTexts() {
    QVERIFY(ec::workbench::installTranslators(*QCoreApplication::instance(), QStringLiteral("de")));
    DevicesPanel panel;
    ec::workbench::DevicesController panelDevices(&panel, path_);
    panel.setDevices(ec::devices::discover_devices().devices, {});
    auto* m = panel.model();
    QCOMPARE(m->headerData(DeviceListModel::Available, Qt::Horizontal).toString(), QStringLiteral("Verfügbarkeit"));
    QCOMPARE(m->data(m->index(0, DeviceListModel::Available)).toString(), QStringLiteral("verfügbar"));
    QCOMPARE(panel.findChild<QTabWidget*>()->tabText(0), QStringLiteral("Gerät"));
    QVERIFY(ec::workbench::installTranslators(*QCoreApplication::instance(), QStringLiteral("en")));
  }

  void windowHasTheDevicesDock() {
    qputenv("EC_DEVICES_CONFIG", path_.toUtf8());
    QSettings settings(dir_->filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    ec::workbench::MainWindow window(settings);
    QSignalSpy discovered(&window, &ec::workbench::MainWindow::devicesDiscovered);
    QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("devicesDock")));
    QVERIFY(discovered.count() == 1 || discovered.wait(30000));
    QVERIFY(window.devicesPanel()->model()->rowForId(QStringLiteral("host-cpu")) == 0);
    QCOMPARE(window.devicesPanel()->configPath(), path_);
    qunsetenv("EC_DEVICES_CONFIG");
  }

 private:
  std::unique_ptr<QTemporaryDir> dir_;
  QString path_;
};

QTEST_MAIN(DevicesTests)
#include "tst_devices.moc"
