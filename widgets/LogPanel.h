// Dockable panel listing log messages (time, level, message), following the
// newest message unless the user has scrolled up.
#pragma once

#include <memory>

#include <QWidget>

class QTreeView;

namespace ec::widgets {

class LogModel;
class LogSink;

class LogPanel : public QWidget {
  Q_OBJECT

 public:
  explicit LogPanel(QWidget* parent = nullptr);

  LogModel* model() const { return model_; }
  /// A new spdlog sink feeding this panel; add it to the loggers to watch.
  std::shared_ptr<LogSink> createSink() const;

 protected:
  /// QEvent::LanguageChange: the texts again, in the new language.
  void changeEvent(QEvent* event) override;

 private:
  LogModel* model_ = nullptr;
  QTreeView* view_ = nullptr;
  bool followTail_ = true;
};

}  // namespace ec::widgets
