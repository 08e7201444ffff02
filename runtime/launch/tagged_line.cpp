#include "runtime/launch/tagged_line.h"

#include <regex>

namespace zerolab {

namespace {

const std::regex& anyTag() {
    static const std::regex tag(R"(\[\d+,\d+\]<std(err|out)>:)");
    return tag;
}

} // namespace

std::string removeOutputTags(std::string_view text) {
    return std::regex_replace(std::string(text), anyTag(), "");
}

std::pair<int, std::string> splitTaggedLine(std::string_view line) {
    static const std::regex tagged(R"(^\[\d+,(\d+)\]<std(?:err|out)>:)");
    static const std::regex labelled(R"(^\s*(\d+): )");
    const std::string s(line);
    std::smatch m;
    if (std::regex_search(s, m, tagged)) {
        const int rank = std::stoi(m[1].str().substr(0, 9));
        return {rank, removeOutputTags(std::string_view(s).substr(m[0].length()))};
    }
    if (std::regex_search(s, m, labelled))
        return {std::stoi(m[1].str().substr(0, 9)), s.substr(m[0].length())};
    return {-1, s};
}

} // namespace zerolab
