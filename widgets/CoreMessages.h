// What the core says to a user, in the UI language. The core (no Qt, no
// translations) sends messages as ids with arguments beside their English text
// (core/message.h); this table gives every id the workbench knows a tr() text, so
// pass statistics and placement reasons read in German in the German UI.
#pragma once

#include <string>

#include <QString>

#include "core/message.h"

namespace ec::passes {
struct StatisticValue;
}

namespace ec::widgets {

/// `message` in the UI language: its id's translated text with the arguments
/// filled in. An id the table does not know (a newer core) gives the English text,
/// or `fallback` when the message is empty (a producer that sends no id).
QString coreMessageText(const ec::Message& message, const QString& fallback = {});
/// Statistic `s` of pass `pass` in the UI language ("12 duplicate constants merged").
QString statisticText(const std::string& pass, const ec::passes::StatisticValue& s);
/// Whether the table has a text for `id` (tests: every id the core sends is known).
bool hasCoreMessageText(const std::string& id);

}  // namespace ec::widgets
