#include "widgets/LogPanel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "widgets/LogModel.h"
#include "widgets/LogSink.h"

namespace ec::widgets {

LogPanel::LogPanel(QWidget* parent)
    : QWidget(parent), model_(new LogModel(this)), view_(new QTreeView(this)) {
  view_->setObjectName(QStringLiteral("logView"));
  view_->setModel(model_);
  view_->setRootIsDecorated(false);
  view_->setUniformRowHeights(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->header()->setStretchLastSection(true);
  view_->header()->setSectionResizeMode(LogModel::Time, QHeaderView::ResizeToContents);
  view_->header()->setSectionResizeMode(LogModel::Level, QHeaderView::ResizeToContents);

  auto* clear = new QToolButton(this);
  clear->setObjectName(QStringLiteral("clearLogButton"));
  clear->setAutoRaise(true);
  clear->setIcon(style()->standardIcon(QStyle::SP_DialogResetButton));
  clear->setToolTip(tr("Clear the log"));
  connect(clear, &QToolButton::clicked, model_, &LogModel::clear);

  // Follow the newest row only while the view is scrolled to the bottom, so
  // reading older messages is not interrupted.
  QScrollBar* bar = view_->verticalScrollBar();
  connect(bar, &QScrollBar::valueChanged, this,
          [this, bar](int value) { followTail_ = value == bar->maximum(); });
  connect(model_, &LogModel::rowsInserted, this, [this] {
    if (followTail_) view_->scrollToBottom();
  });

  auto* tools = new QVBoxLayout;
  tools->setContentsMargins(0, 0, 0, 0);
  tools->addWidget(clear);
  tools->addStretch(1);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(view_, 1);
  layout->addLayout(tools);
}

std::shared_ptr<LogSink> LogPanel::createSink() const { return LogSink::connectedTo(model_); }

void LogPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) {
    if (auto* clear = findChild<QToolButton*>(QStringLiteral("clearLogButton")))
      clear->setToolTip(tr("Clear the log"));
    emit model_->headerDataChanged(Qt::Horizontal, 0, model_->columnCount() - 1);
  }
  QWidget::changeEvent(event);
}

}  // namespace ec::widgets
