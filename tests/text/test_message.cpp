// Message (runtime/text/message.h): renderMessage fills %1..%9 in one pass, nested
// messages go through the same translator, and matchMessage recovers a template's
// arguments from its English rendering.
#include "runtime/text/message.h"

#include <gtest/gtest.h>

#include <array>

namespace zerolab {
namespace {

// A translator with a two-entry catalogue, as QCoreApplication::translate would be.
std::string fake(const std::string& context, const std::string& source) {
    if (context == "T" && source == "expected %1, got %2")
        return "应为%1，实际为 %2";
    if (context == "T" && source == "an integer %1-%2")
        return "介于 %1 和 %2 之间的整数";
    return source;
}

TEST(Message, EnglishFillsPlaceholdersInOrderOfNumber) {
    const Message m(ZEROLAB_TR("T", "%2 before %1, %1 again"),
                    {std::string("a"), std::string("b")});
    EXPECT_EQ(renderEnglish(m), "b before a, a again");
}

TEST(Message, LiteralIsShownAsItIs) {
    EXPECT_EQ(renderEnglish(Message(std::string("50% of %1"))), "50% of %1");
    EXPECT_EQ(renderMessage(Message(std::string("expected %1, got %2")), fake),
              "expected %1, got %2");
}

TEST(Message, ArgumentTextIsNotScannedForPlaceholders) {
    const Message m(ZEROLAB_TR("T", "key %1 = %2"), {std::string("%2"), std::string("v")});
    EXPECT_EQ(renderEnglish(m), "key %2 = v");
}

TEST(Message, MissingArgumentAndOtherPercentSignsStay) {
    const Message m(ZEROLAB_TR("T", "saves 22% at %1, %3 and %"), {std::string("N = 8")});
    EXPECT_EQ(renderEnglish(m), "saves 22% at N = 8, %3 and %");
}

TEST(Message, NestedMessagesAreTranslatedLiteralsAreNot) {
    const Message range(ZEROLAB_TR("T", "an integer %1-%2"), {std::string("0"), std::string("3")});
    const Message m(ZEROLAB_TR("T", "expected %1, got %2"), {range, std::string("\"two\"")});
    EXPECT_EQ(renderEnglish(m), "expected an integer 0-3, got \"two\"");
    EXPECT_EQ(renderMessage(m, fake), "应为介于 0 和 3 之间的整数，实际为 \"two\"");
}

TEST(Message, EmptyMessageRendersEmpty) {
    EXPECT_EQ(renderEnglish(Message()), "");
    EXPECT_TRUE(Message().isLiteral());
}

constexpr std::array kTemplates = {
    ZEROLAB_TR("T", "no arguments"),
    ZEROLAB_TR("T", "forecast %1 per rank > capacity %2 (%3)"),
    ZEROLAB_TR("T", "the same config as trial %1"),
};

TEST(MatchMessage, RecoversTheTemplateAndItsArguments) {
    const std::string stored =
        "forecast 3.00 GiB per rank > capacity 1.00 GiB (params 1.00 GiB, grads (x) 2.00 GiB)";
    const auto m = matchMessage(stored, kTemplates);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->context, "T");
    EXPECT_EQ(m->text, "forecast %1 per rank > capacity %2 (%3)");
    ASSERT_EQ(m->args.size(), 3u);
    EXPECT_EQ(m->args[0].text, "3.00 GiB");
    EXPECT_EQ(m->args[1].text, "1.00 GiB");
    EXPECT_EQ(m->args[2].text, "params 1.00 GiB, grads (x) 2.00 GiB");
    EXPECT_TRUE(m->args[2].isLiteral());
    EXPECT_EQ(renderEnglish(*m), stored);
}

TEST(MatchMessage, WholeTextOnly) {
    EXPECT_TRUE(matchMessage("no arguments", kTemplates));
    EXPECT_FALSE(matchMessage("no arguments at all", kTemplates));
    EXPECT_FALSE(matchMessage("the same config as trial", kTemplates));
    EXPECT_FALSE(matchMessage("forecast 3 GiB per rank", kTemplates));
    EXPECT_FALSE(matchMessage("", kTemplates));
    const auto m = matchMessage("the same config as trial 12", kTemplates);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->args.at(0).text, "12");
}

} // namespace
} // namespace zerolab
