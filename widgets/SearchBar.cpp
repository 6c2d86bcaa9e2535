#include "widgets/SearchBar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>

#include "widgets/GraphSearch.h"

namespace ec::widgets {

SearchBar::SearchBar(QWidget* parent)
    : QWidget(parent),
      edit_(new QLineEdit(this)),
      previous_(new QToolButton(this)),
      next_(new QToolButton(this)),
      status_(new QLabel(this)) {
  setObjectName(QStringLiteral("searchBar"));
  edit_->setObjectName(QStringLiteral("searchField"));
  edit_->setClearButtonEnabled(true);
  edit_->installEventFilter(this);
  previous_->setArrowType(Qt::UpArrow);
  previous_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  next_->setArrowType(Qt::DownArrow);
  next_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  auto* close = new QToolButton(this);
  close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
  close->setAutoRaise(true);
  close->setObjectName(QStringLiteral("searchCloseButton"));
  retranslateUi();

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 3, 6, 3);
  layout->addWidget(edit_, 1);
  layout->addWidget(previous_);
  layout->addWidget(next_);
  layout->addWidget(status_);
  layout->addWidget(close);

  connect(edit_, &QLineEdit::textChanged, this, &SearchBar::search);
  connect(previous_, &QToolButton::clicked, this, &SearchBar::findPrevious);
  connect(next_, &QToolButton::clicked, this, &SearchBar::findNext);
  connect(close, &QToolButton::clicked, this, &QWidget::hide);
  updateStatus();
}

void SearchBar::setGraph(ec::ir::FrozenGraph graph) {
  graph_ = std::move(graph);
  search();
}

void SearchBar::setText(const QString& text) {
  if (edit_->text() == text) {
    search();
  } else {
    edit_->setText(text);  // searches through textChanged
  }
}

QString SearchBar::text() const { return edit_->text(); }

void SearchBar::activate() {
  show();
  edit_->setFocus(Qt::ShortcutFocusReason);
  edit_->selectAll();
}

void SearchBar::search() {
  matches_ = graph_ ? findOps(*graph_, edit_->text()) : std::vector<int>{};
  current_ = -1;
  if (!matches_.empty()) step(+1);
  updateStatus();
}

void SearchBar::findNext() { step(+1); }
void SearchBar::findPrevious() { step(-1); }

void SearchBar::step(int delta) {
  if (matches_.empty()) return;
  const int n = int(matches_.size());
  current_ = current_ < 0 ? (delta > 0 ? 0 : n - 1) : ((current_ + delta) % n + n) % n;
  updateStatus();
  emit opFound(matches_[std::size_t(current_)]);
}

void SearchBar::updateStatus() {
  const bool any = !matches_.empty();
  previous_->setEnabled(any);
  next_->setEnabled(any);
  if (edit_->text().trimmed().isEmpty()) {
    status_->clear();
  } else if (!any) {
    status_->setText(tr("No matches"));
  } else {
    status_->setText(tr("%1 of %2").arg(current_ + 1).arg(matches_.size()));
  }
}

bool SearchBar::eventFilter(QObject* watched, QEvent* event) {
  if (watched == edit_ && event->type() == QEvent::KeyPress) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      (key->modifiers() & Qt::ShiftModifier) ? findPrevious() : findNext();
      return true;
    }
    if (key->key() == Qt::Key_Escape) {
      hide();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

void SearchBar::retranslateUi() {
  edit_->setPlaceholderText(tr("Find op or tensor by name or type"));
  previous_->setText(tr("Previous"));
  previous_->setToolTip(tr("Previous match (Shift+Enter)"));
  next_->setText(tr("Next"));
  next_->setToolTip(tr("Next match (Enter)"));
  if (auto* close = findChild<QToolButton*>(QStringLiteral("searchCloseButton")))
    close->setToolTip(tr("Close (Esc)"));
}

void SearchBar::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

}  // namespace ec::widgets
