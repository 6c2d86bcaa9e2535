#include "app/workbench/Language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace ec::workbench {
namespace {
const QString kLanguageKey = QStringLiteral("ui/language");
}

QList<UiLanguage> uiLanguages() {
  return {{QStringLiteral("en"), QStringLiteral("English")},
          {QStringLiteral("de"), QStringLiteral("Deutsch")}};
}

QString chosenLanguage(const QSettings& settings) {
  QString code = settings.value(kLanguageKey).toString();
  if (code.isEmpty()) code = QLocale::system().name().section(QLatin1Char('_'), 0, 0);
  for (const UiLanguage& lang : uiLanguages()) {
    if (lang.code == code) return code;
  }
  return QStringLiteral("en");
}

void saveLanguage(QSettings& settings, const QString& code) {
  settings.setValue(kLanguageKey, code);
}

bool installTranslators(QCoreApplication& app, const QString& code) {
  auto* own = new QTranslator(&app);
  if (!own->load(QStringLiteral(":/i18n/edgecompiler_") + code)) {
    delete own;
    return false;
  }
  app.installTranslator(own);
  // Qt's own dialogs (file dialog, message boxes); optional, not shipped by us.
  auto* qt = new QTranslator(&app);
  if (qt->load(QLocale(code), QStringLiteral("qtbase"), QStringLiteral("_"),
               QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    app.installTranslator(qt);
  } else {
    delete qt;
  }
  return true;
}

}  // namespace ec::workbench
