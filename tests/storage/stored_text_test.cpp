// Stored text (storage/stored_text.h): UTF-8 validation by RFC 3629, the repair every
// view applies, and what the entry points refuse.
#include "storage/stored_text.h"

#include <gtest/gtest.h>

using namespace zerolab;

TEST(StoredText, InvalidUtf8IsFoundWhereItStarts) {
    EXPECT_EQ(invalidUtf8At("plain ascii"), std::nullopt);
    EXPECT_EQ(invalidUtf8At("\u00e9t\u00e9 \u20ac \U0001F600"), std::nullopt);
    EXPECT_EQ(invalidUtf8At("ab\xff"), 2u);
    EXPECT_EQ(invalidUtf8At("a\xc3"), 1u);                      // truncated
    EXPECT_EQ(invalidUtf8At("\xc0\xaf"), 0u);                   // overlong '/'
    EXPECT_EQ(invalidUtf8At("\xe0\x80\xaf"), 0u);               // overlong
    EXPECT_EQ(invalidUtf8At("x\xed\xa0\x80"), 1u);              // a surrogate
    EXPECT_EQ(invalidUtf8At("\xf4\x90\x80\x80"), 0u);           // past U+10FFFF
    EXPECT_EQ(invalidUtf8At("\xf4\x8f\xbf\xbf"), std::nullopt); // U+10FFFF itself
}

TEST(StoredText, RepairReplacesEachBadByteAndEveryControlOnOneLine) {
    EXPECT_EQ(validUtf8("a\xff"
                        "b"),
              "a\uFFFD"
              "b");
    EXPECT_EQ(validUtf8("\xc3"), "\uFFFD");
    EXPECT_EQ(validUtf8("line\none"), "line\none");
    EXPECT_EQ(oneLineText("line\none\t\x1b[31m\u0085"), "line\uFFFDone\uFFFD\uFFFD[31m\uFFFD");
    EXPECT_EQ(oneLineText("\u00e9t\u00e9"), "\u00e9t\u00e9");
    // For a terminal: lines and tabs kept, escapes, carriage returns and C1 shown.
    EXPECT_EQ(terminalText("line\none\t\x1b[2J\r\u009b\xff"),
              "line\none\t\uFFFD[2J\uFFFD\uFFFD\uFFFD");
}

TEST(StoredText, EntryPointsRefuseWhatCannotBeShownOrStored) {
    EXPECT_EQ(storedTextProblem("run-1", TextKind::OneLine, 8), std::nullopt);
    EXPECT_EQ(storedTextProblem("x\xff", TextKind::OneLine, 8), "not valid UTF-8 (byte 1)");
    EXPECT_EQ(storedTextProblem("123456789", TextKind::OneLine, 8),
              "9 bytes, more than the 8 allowed");
    EXPECT_EQ(storedTextProblem("a\nb", TextKind::OneLine, 8),
              "holds a control character (byte 1)");
    EXPECT_EQ(storedTextProblem("a\nb\tc", TextKind::MultiLine, 8), std::nullopt);
    EXPECT_EQ(storedTextProblem("a\rb", TextKind::MultiLine, 8),
              "holds a control character (byte 1)");
}
