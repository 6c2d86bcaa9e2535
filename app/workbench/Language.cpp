#include "app/workbench/Language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
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
  // The translators we installed last, removed before the new ones go in. Owned by `app`.
  static QPointer<QTranslator> own, qt;
  auto* nextOwn = new QTranslator(&app);
  if (!nextOwn->load(QStringLiteral(":/i18n/edgecompiler_") + code)) {
    delete nextOwn;
    return false;
  }
  // Qt's own dialogs (file dialog, message boxes); optional, not shipped by us.
  auto* nextQt = new QTranslator(&app);
  if (!nextQt->load(QLocale(code), QStringLiteral("qtbase"), QStringLiteral("_"),
                    QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    delete nextQt;
    nextQt = nullptr;
  }
  // Each install or removal posts QEvent::LanguageChange to every top-level window,
  // which retranslates its widgets (changeEvent).
  for (QPointer<QTranslator>* old : {&own, &qt}) {
    if (*old) {
      QCoreApplication::removeTranslator(*old);
      delete old->data();
    }
  }
  app.installTranslator(nextOwn);
  own = nextOwn;
  if (nextQt) {
    app.installTranslator(nextQt);
    qt = nextQt;
  }
  return true;
}

}  // namespace ec::workbench
