// A find bar for the graph (Ctrl+F): type to find ops by name, type or tensor
// name; Enter / Next and Shift+Enter / Previous step through the matches, each
// step asking to select the op; Escape closes the bar.
#pragma once

#include <vector>

#include <QWidget>

#include "core/ir/graph.h"

class QLabel;
class QLineEdit;
class QToolButton;

namespace ec::widgets {

class SearchBar : public QWidget {
  Q_OBJECT

 public:
  explicit SearchBar(QWidget* parent = nullptr);

  void setGraph(ec::ir::FrozenGraph graph);
  /// Searches for `text` and moves to the first match.
  void setText(const QString& text);
  QString text() const;
  const std::vector<int>& matches() const { return matches_; }
  /// Position of the current match in matches(), or -1.
  int current() const { return current_; }

 public slots:
  /// Shows the bar and focuses its text field.
  void activate();
  void findNext();
  void findPrevious();

 signals:
  /// The current match moved to op `op`.
  void opFound(int op);

 protected:
  /// QEvent::LanguageChange: the texts again, in the new language.
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void retranslateUi();
  void search();
  void step(int delta);
  void updateStatus();

  ec::ir::FrozenGraph graph_;
  QLineEdit* edit_ = nullptr;
  QToolButton* previous_ = nullptr;
  QToolButton* next_ = nullptr;
  QLabel* status_ = nullptr;
  std::vector<int> matches_;
  int current_ = -1;
};

}  // namespace ec::widgets
