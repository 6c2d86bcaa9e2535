#include "widgets/LogModel.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include "widgets/ItemRoles.h"

namespace ec::widgets {

LogModel::LogModel(QObject* parent) : QAbstractTableModel(parent) {
  qRegisterMetaType<ec::widgets::LogEntry>("ec::widgets::LogEntry");
}

void LogModel::setMaxEntries(int n) {
  Q_ASSERT(n >= 1);
  maxEntries_ = n;
  trimTo(maxEntries_);
}

void LogModel::trimTo(int n) {
  const int excess = int(entries_.size()) - n;
  if (excess <= 0) return;
  beginRemoveRows({}, 0, excess - 1);
  entries_.erase(entries_.begin(), entries_.begin() + excess);
  endRemoveRows();
}

void LogModel::append(const LogEntry& entry) {
  trimTo(maxEntries_ - 1);
  const int row = int(entries_.size());
  beginInsertRows({}, row, row);
  entries_.push_back(entry);
  endInsertRows();
}

void LogModel::clear() {
  if (entries_.empty()) return;
  beginResetModel();
  entries_.clear();
  endResetModel();
}

int LogModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(entries_.size());
}

int LogModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString LogModel::levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Trace:
      return tr("Trace");
    case LogLevel::Debug:
      return tr("Debug");
    case LogLevel::Info:
      return tr("Info");
    case LogLevel::Warning:
      return tr("Warning");
    case LogLevel::Error:
      return tr("Error");
    case LogLevel::Critical:
      return tr("Critical");
  }
  return {};
}

QVariant LogModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const LogEntry& e = entries_[std::size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Time:
          return e.time.toString(QStringLiteral("HH:mm:ss.zzz"));
        case Level:
          return levelName(e.level);
        case Message:
          return e.logger.isEmpty()
                     ? e.message
                     : QLatin1Char('[') % e.logger % QStringLiteral("] ") % e.message;
        default:
          return {};
      }
    case Qt::ToolTipRole:
      if (index.column() == Time) return QLocale().toString(e.time, QLocale::LongFormat);
      if (index.column() == Message) return e.message;
      return {};
    case Qt::ForegroundRole:
      switch (e.level) {
        case LogLevel::Warning:
          return QBrush(QColor(0xb0, 0x5a, 0x00));
        case LogLevel::Error:
        case LogLevel::Critical:
          return QBrush(QColor(0xc0, 0x10, 0x10));
        case LogLevel::Trace:
        case LogLevel::Debug:
          return QBrush(QColor(0x70, 0x70, 0x70));
        case LogLevel::Info:
          return {};
      }
      return {};
    case KeyRole:
      return index.row();
    case SortRole:
      switch (index.column()) {
        case Time:
          return e.time;
        case Level:
          return int(e.level);
        default:
          return e.message;
      }
    default:
      return {};
  }
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Time:
      return tr("Time");
    case Level:
      return tr("Level");
    case Message:
      return tr("Message");
    default:
      return {};
  }
}

}  // namespace ec::widgets
