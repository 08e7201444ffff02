// The GUI's language: English (the source text) or Simplified Chinese. Chosen by the
// --lang flag, else the View → Language choice saved in QSettings, else the system
// locale; put on screen by one QTranslator over the .qm embedded at build time.
#pragma once

#include "runtime/text/message.h"

#include <QLocale>
#include <QString>

#include <optional>

namespace zerolab {

enum class Language { English = 0, Chinese };
inline constexpr int kLanguageCount = 2;

// "en" or "zh_CN": the --lang values and the saved setting.
QString languageCode(Language language);
// The language's name in itself ("English", "简体中文"): never translated, so that
// a user who cannot read the current language still finds their own.
QString languageName(Language language);
// "en" and "zh_CN" (also "zh", "zh-CN", any case); nullopt for anything else.
std::optional<Language> languageFromCode(const QString& code);
// zh_* → Chinese, everything else → English.
Language languageForLocale(const QLocale& locale);
// The flag wins over the saved choice, which wins over the locale.
Language chooseLanguage(std::optional<Language> flag, std::optional<Language> saved,
                        const QLocale& system);

// The View → Language choice in QSettings ("ui/language"); nullopt when none was made
// or the stored value is not a language code.
std::optional<Language> savedLanguage();
void saveLanguage(Language language);

// Replaces the application's translator with the one for `language` (English: none),
// with Qt's own texts (standard buttons) where the system has them. Every widget then
// receives QEvent::LanguageChange. False when the embedded catalogue cannot be loaded.
// UI thread only; needs a QCoreApplication.
bool setLanguage(Language language);
Language currentLanguage();

// The embedded catalogue of `language` as a MessageTranslator, for texts rendered before
// any QCoreApplication exists (zerolab --run-lesson's progress lines); null for English
// or when the catalogue cannot be loaded. Needs no QCoreApplication.
MessageTranslator catalogueTranslator(Language language);

} // namespace zerolab
