// A one-line message strip for the top of a window (like an editor's info bar):
// hidden until there is something to say, closable by the user.
#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace ec::widgets {

class MessageBar : public QFrame {
  Q_OBJECT

 public:
  explicit MessageBar(QWidget* parent = nullptr);

  /// Shows `message` (plain text, e.g. the core's one-line error) as an error.
  void showError(const QString& message);
  /// The message currently shown (empty when hidden).
  QString text() const;

 public slots:
  /// Hides the bar and forgets its message.
  void dismiss();

 protected:
  /// QEvent::LanguageChange: the texts again, in the new language.
  void changeEvent(QEvent* event) override;

 private:
  QLabel* icon_ = nullptr;
  QLabel* label_ = nullptr;
  QToolButton* close_ = nullptr;
};

}  // namespace ec::widgets
