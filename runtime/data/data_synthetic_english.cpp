// The built-in grammar's states and word lists: short English-like sentences
// with determiners, adjectives, subject-verb agreement, objects, adverbs and
// prepositional phrases. Word choice within a class follows Zipf's law.
#include "runtime/data/data_synthetic_grammar.h"

#include <utility>

namespace zerolab {

namespace {

using Edge = SyntheticGrammar::Edge;
using Words = std::vector<std::string>;

// Where a word goes next: the separator it is followed by, with its probability.
struct Continuation {
    std::string separator;
    double prob;
    int next;
};

enum State : int {
    kStart = SyntheticGrammar::kStartState,
    kSubjectSingular,
    kSubjectSingularAdj,
    kVerbSingular,
    kSubjectPlural,
    kSubjectPluralAdj,
    kVerbPlural,
    kObjectDeterminer,
    kObject,
    kObjectAdj,
    kModifier,
    kPrepDeterminer,
    kPrepObject,
    kStateCount,
};

// A single continuation: a space, then `next`.
std::vector<Continuation> thenSpace(int next) {
    return {{" ", 1.0, next}};
}
const std::vector<Continuation> kClauseEnd = {
    {". ", 0.45, kStart}, {".\n", 0.10, kStart}, {" ", 0.45, kModifier}};
const std::vector<Continuation> kSentenceEnd = {{". ", 0.8, kStart}, {".\n", 0.2, kStart}};

// Adds one word class to a state: the class is chosen with classProb, a word of
// it with Zipf weights 1/(rank+1), then a continuation.
void addClass(std::vector<Edge>& state, double classProb, const Words& words,
              const std::vector<Continuation>& conts) {
    double norm = 0;
    for (std::size_t k = 0; k < words.size(); ++k) {
        norm += 1.0 / static_cast<double>(k + 1);
    }
    for (std::size_t k = 0; k < words.size(); ++k) {
        const double wordProb = 1.0 / static_cast<double>(k + 1) / norm;
        for (const auto& c : conts) {
            state.push_back(Edge{words[k] + c.separator, classProb * wordProb * c.prob, c.next});
        }
    }
}

Words withSuffix(const Words& words, const std::string& suffix) {
    Words out;
    for (const auto& w : words) {
        out.push_back(w + suffix);
    }
    return out;
}

std::vector<std::vector<Edge>> englishStates() {
    const Words nouns = {"cat",    "dog",    "bird",    "girl",  "boy",    "robot",
                         "farmer", "king",   "teacher", "queen", "river",  "tree",
                         "house",  "book",   "ship",    "horse", "friend", "student",
                         "lamp",   "garden", "letter",  "apple", "window", "song"};
    const Words pluralNouns = withSuffix(nouns, "s");
    const Words adjectives = {"small",   "big",    "old",    "young",  "red",   "green",
                              "quiet",   "happy",  "tired",  "clever", "brave", "gentle",
                              "strange", "little", "bright", "dark"};
    const Words transitivePlural = {"see",  "like",  "find",   "take",  "build",
                                    "read", "paint", "follow", "help",  "open",
                                    "want", "love",  "visit",  "carry", "watch"};
    const Words transitiveSingular = {"sees",  "likes",  "finds",   "takes",   "builds",
                                      "reads", "paints", "follows", "helps",   "opens",
                                      "wants", "loves",  "visits",  "carries", "watches"};
    const Words intransitivePlural = {"sleep", "run",   "sing",  "wait", "laugh", "walk",
                                      "swim",  "dance", "smile", "work", "rest"};
    const Words intransitiveSingular = withSuffix(intransitivePlural, "s");
    const Words names = {"Alice", "Bob",  "Carol",   "Dave",  "Erin",  "Frank", "Grace",  "Heidi",
                         "Ivan",  "Judy", "Mallory", "Oscar", "Peggy", "Trent", "Victor", "Walter"};
    const Words singularDeterminers = {"The", "A",   "Every", "This", "That",
                                       "My",  "Our", "Her",   "His",  "One"};
    const Words pluralDeterminers = {"Some", "Many", "These", "Those", "Two", "Few"};
    const Words objectDeterminers = {"the", "my", "our", "her", "his", "their"};
    const Words prepDeterminers = {"the", "a", "my", "our", "her", "his", "every", "this"};
    const Words adverbs = {"quietly", "slowly", "often",   "again",    "today",
                           "happily", "early",  "outside", "together", "alone"};
    const Words prepositions = {"in", "near", "under", "behind", "with", "after", "beside"};

    std::vector<std::vector<Edge>> s(kStateCount);
    addClass(s[kStart], 0.50, singularDeterminers, thenSpace(kSubjectSingular));
    addClass(s[kStart], 0.25, pluralDeterminers, thenSpace(kSubjectPlural));
    addClass(s[kStart], 0.25, names, thenSpace(kVerbSingular));
    addClass(s[kSubjectSingular], 0.35, adjectives, thenSpace(kSubjectSingularAdj));
    addClass(s[kSubjectSingular], 0.65, nouns, thenSpace(kVerbSingular));
    addClass(s[kSubjectSingularAdj], 0.15, adjectives, thenSpace(kSubjectSingularAdj));
    addClass(s[kSubjectSingularAdj], 0.85, nouns, thenSpace(kVerbSingular));
    addClass(s[kVerbSingular], 0.55, transitiveSingular, thenSpace(kObjectDeterminer));
    addClass(s[kVerbSingular], 0.45, intransitiveSingular, kClauseEnd);
    addClass(s[kSubjectPlural], 0.35, adjectives, thenSpace(kSubjectPluralAdj));
    addClass(s[kSubjectPlural], 0.65, pluralNouns, thenSpace(kVerbPlural));
    addClass(s[kSubjectPluralAdj], 0.15, adjectives, thenSpace(kSubjectPluralAdj));
    addClass(s[kSubjectPluralAdj], 0.85, pluralNouns, thenSpace(kVerbPlural));
    addClass(s[kVerbPlural], 0.55, transitivePlural, thenSpace(kObjectDeterminer));
    addClass(s[kVerbPlural], 0.45, intransitivePlural, kClauseEnd);
    addClass(s[kObjectDeterminer], 1.0, objectDeterminers, thenSpace(kObject));
    addClass(s[kObject], 0.30, adjectives, thenSpace(kObjectAdj));
    addClass(s[kObject], 0.45, nouns, kClauseEnd);
    addClass(s[kObject], 0.25, pluralNouns, kClauseEnd);
    addClass(s[kObjectAdj], 0.65, nouns, kClauseEnd);
    addClass(s[kObjectAdj], 0.35, pluralNouns, kClauseEnd);
    addClass(s[kModifier], 0.5, adverbs, kSentenceEnd);
    addClass(s[kModifier], 0.5, prepositions, thenSpace(kPrepDeterminer));
    addClass(s[kPrepDeterminer], 1.0, prepDeterminers, thenSpace(kPrepObject));
    addClass(s[kPrepObject], 1.0, nouns, kSentenceEnd);
    return s;
}

} // namespace

const SyntheticGrammar& SyntheticGrammar::builtIn() {
    static const SyntheticGrammar grammar(englishStates());
    return grammar;
}

} // namespace zerolab
