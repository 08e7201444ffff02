// Language choice and the translators: the app's catalogue from the resource
// :/i18n/zerolab_<code>.qm (gui/app/translations, compiled by lrelease) and Qt's own
// qtbase catalogue from the system's Qt translations folder when present.
#include "gui/core/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

#include <memory>

namespace zerolab {

namespace {

const char* kSettingsKey = "ui/language";

struct Translators {
    QTranslator app;
    QTranslator qt;
    Language current = Language::English;
};

Translators& translators() {
    static Translators t;
    return t;
}

} // namespace

QString languageCode(Language language) {
    return language == Language::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

QString languageName(Language language) {
    return language == Language::Chinese ? QStringLiteral("简体中文") : QStringLiteral("English");
}

std::optional<Language> languageFromCode(const QString& code) {
    const QString c = code.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    if (c == QLatin1String("en"))
        return Language::English;
    if (c == QLatin1String("zh_cn") || c == QLatin1String("zh"))
        return Language::Chinese;
    return std::nullopt;
}

Language languageForLocale(const QLocale& locale) {
    return locale.language() == QLocale::Chinese ? Language::Chinese : Language::English;
}

Language chooseLanguage(std::optional<Language> flag, std::optional<Language> saved,
                        const QLocale& system) {
    if (flag)
        return *flag;
    if (saved)
        return *saved;
    return languageForLocale(system);
}

std::optional<Language> savedLanguage() {
    return languageFromCode(QSettings().value(QLatin1String(kSettingsKey)).toString());
}

void saveLanguage(Language language) {
    QSettings().setValue(QLatin1String(kSettingsKey), languageCode(language));
}

bool setLanguage(Language language) {
    Translators& t = translators();
    QCoreApplication::removeTranslator(&t.app);
    QCoreApplication::removeTranslator(&t.qt);
    t.current = Language::English;
    // Removing an installed translator already sends every widget a LanguageChange.
    if (language == Language::English)
        return true;
    const QString code = languageCode(language);
    if (!t.app.load(QStringLiteral(":/i18n/zerolab_%1.qm").arg(code)))
        return false;
    if (t.qt.load(QStringLiteral("qtbase_%1").arg(code),
                  QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&t.qt);
    QCoreApplication::installTranslator(&t.app);
    t.current = language;
    return true;
}

Language currentLanguage() {
    return translators().current;
}

MessageTranslator catalogueTranslator(Language language) {
    if (language == Language::English)
        return nullptr;
    auto catalogue = std::make_shared<QTranslator>();
    if (!catalogue->load(QStringLiteral(":/i18n/zerolab_%1.qm").arg(languageCode(language))))
        return nullptr;
    return [catalogue](const std::string& context, const std::string& source) {
        const QString t = catalogue->translate(context.c_str(), source.c_str());
        return t.isEmpty() ? source : t.toStdString();
    };
}

} // namespace zerolab
