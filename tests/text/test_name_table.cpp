// runtime/text/name_table.h: a name finds its value, any other text none, a value its
// name, and the list an error message gives reads as the table says it.
#include "runtime/text/name_table.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

enum class Fruit { Apple, Pear, Plum };

constexpr NameTable<Fruit, 3> kFruits = {{
    {"apple", Fruit::Apple},
    {"pear", Fruit::Pear},
    {"plum", Fruit::Plum},
}};

TEST(NameTable, FindsEachNameAndNothingElse) {
    EXPECT_EQ(valueNamed(kFruits, "apple"), Fruit::Apple);
    EXPECT_EQ(valueNamed(kFruits, "plum"), Fruit::Plum);
    EXPECT_FALSE(valueNamed(kFruits, "Apple")); // exact, case included
    EXPECT_FALSE(valueNamed(kFruits, ""));
    EXPECT_FALSE(valueNamed(kFruits, "pea"));
    static_assert(valueNamed(kFruits, "pear") == Fruit::Pear);
}

TEST(NameTable, NamesEachValueAsTheParseReadsIt) {
    for (const NamedValue<Fruit>& e : kFruits)
        EXPECT_EQ(valueNamed(kFruits, *nameOf(kFruits, e.value)), e.value) << e.name;
    constexpr NameTable<Fruit, 1> one = {{{"a", Fruit::Apple}}};
    EXPECT_FALSE(nameOf(one, Fruit::Plum));
    static_assert(nameOf(kFruits, Fruit::Pear) == "pear");
}

TEST(NameTable, ListsTheNamesForAMessage) {
    EXPECT_EQ(nameList(kFruits), "'apple', 'pear' or 'plum'");
    EXPECT_EQ(nameList(kFruits, ""), "apple, pear or plum");
    constexpr NameTable<Fruit, 2> two = {{{"a", Fruit::Apple}, {"b", Fruit::Pear}}};
    EXPECT_EQ(nameList(two), "'a' or 'b'");
    constexpr NameTable<Fruit, 1> one = {{{"a", Fruit::Apple}}};
    EXPECT_EQ(nameList(one), "'a'");
}

} // namespace
} // namespace zerolab
