#include "widgets/MessageBar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace ec::widgets {

MessageBar::MessageBar(QWidget* parent)
    : QFrame(parent),
      icon_(new QLabel(this)),
      label_(new QLabel(this)),
      close_(new QToolButton(this)) {
  setObjectName(QStringLiteral("messageBar"));
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, QColor(0xfd, 0xe7, 0xe7));
  pal.setColor(QPalette::WindowText, QColor(0x7a, 0x10, 0x10));
  setPalette(pal);

  const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
  icon_->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxCritical).pixmap(iconSize));
  label_->setTextFormat(Qt::PlainText);  // paths and op names may hold '<'
  label_->setWordWrap(true);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  close_->setAutoRaise(true);
  close_->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
  close_->setToolTip(tr("Dismiss"));
  connect(close_, &QToolButton::clicked, this, &MessageBar::dismiss);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 4, 4, 4);
  layout->addWidget(icon_, 0, Qt::AlignTop);
  layout->addWidget(label_, 1);
  layout->addWidget(close_, 0, Qt::AlignTop);
  hide();
}

void MessageBar::showError(const QString& message) {
  label_->setText(message);
  show();
}

QString MessageBar::text() const { return isHidden() ? QString() : label_->text(); }

void MessageBar::dismiss() {
  label_->clear();
  hide();
}

void MessageBar::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) close_->setToolTip(tr("Dismiss"));
  QFrame::changeEvent(event);
}

}  // namespace ec::widgets
