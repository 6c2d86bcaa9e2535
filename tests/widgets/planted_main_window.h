// A planted window for count_members.py (tests/widgets/CMakeLists.txt,
// mainwindow_member_count_catches_planted): 16 data members in the forms the real
// header uses, beside what must not count (functions, statics, nested types,
// friends, signals). Never compiled.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <QMainWindow>

class Planted : public QMainWindow {
  Q_OBJECT

 public:
  static constexpr int kLimit = 15;
  explicit Planted(QSettings& settings, QWidget* parent = nullptr);
  bool isLoading() const { return loading_ != 0; }
  QString path() const { return path_; }

 public slots:
  void openFile(const QString& path);
  void compileFor(const QString& target, const QStringList& options = {});

 signals:
  void modelShown(const QString& path);

 private:
  friend class SomeController;
  struct Views {
    QWidget* graph = nullptr;
    QWidget* search = nullptr;
  };
  using Callback = std::function<void(int, int)>;
  void retranslated(std::function<void()> apply);

  QSettings& settings_;
  std::vector<std::function<void()>> retranslators_;
  Views views_;
  QString path_ = QStringLiteral("none");
  bool optimised_ = false, quantised_ = false;
  QString compiledFor_;
  QWidget* welcome_ = nullptr;
  QWidget* panels_[3] = {};
  quint64 loading_ = 0;
  std::shared_ptr<QObject> sink_;
  Callback onDone_;
  QMenu* viewMenu_ = nullptr;
  QAction* viewPanelsEnd_ = nullptr;  // panel toggles go above this separator
  QDockWidget* passesDock_ = nullptr;
  QByteArray defaultState_;
};
