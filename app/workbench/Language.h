// UI languages the workbench ships translations for, and installing them.
// The choice is stored in QSettings and applied at start-up.
#pragma once

#include <QList>
#include <QString>

class QCoreApplication;
class QSettings;

namespace ec::workbench {

struct UiLanguage {
  QString code;        // "de"; names the .qm file edgecompiler_<code>.qm
  QString nativeName;  // "Deutsch": shown untranslated, so users find their own language
};

/// Every language with a translation, English first.
QList<UiLanguage> uiLanguages();
/// The saved choice, or the system locale's language when it is one we ship, else "en".
QString chosenLanguage(const QSettings& settings);
void saveLanguage(QSettings& settings, const QString& code);
/// Loads :/i18n/edgecompiler_<code>.qm (and Qt's own strings when installed)
/// into `app`, replacing the ones installed before: every window gets
/// QEvent::LanguageChange and retranslates itself live. Returns false (and
/// changes nothing) when no translation for `code` is available.
bool installTranslators(QCoreApplication& app, const QString& code);

}  // namespace ec::workbench
