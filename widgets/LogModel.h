// The log panel's rows: one per message, oldest first, capped so a chatty
// session cannot grow without bound (the oldest rows are dropped first).
#pragma once

#include <deque>

#include <QAbstractTableModel>
#include <QDateTime>
#include <QMetaType>
#include <QString>

namespace ec::widgets {

enum class LogLevel { Trace, Debug, Info, Warning, Error, Critical };

/// One log message, as a value that can cross threads.
struct LogEntry {
  QDateTime time;
  LogLevel level = LogLevel::Info;
  QString logger;  // name of the spdlog logger ("" for the default one)
  QString message;
};

class LogModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Time, Level, Message, ColumnCount };

  explicit LogModel(QObject* parent = nullptr);

  /// Keeps at most `n` rows (n >= 1); trims at once if needed.
  void setMaxEntries(int n);
  int maxEntries() const { return maxEntries_; }
  const LogEntry& entry(int row) const { return entries_[std::size_t(row)]; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  /// Translated display name of a level ("Warning").
  static QString levelName(LogLevel level);

 public slots:
  void append(const ec::widgets::LogEntry& entry);
  void clear();

 private:
  void trimTo(int n);

  std::deque<LogEntry> entries_;
  int maxEntries_ = 10000;
};

}  // namespace ec::widgets

Q_DECLARE_METATYPE(ec::widgets::LogEntry)
