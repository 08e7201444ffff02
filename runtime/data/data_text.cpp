// TextDataLoader: bytes of a mapped file as tokens 0..255.
#include "runtime/data/data_text.h"

namespace zerolab {

namespace {

MappedFile openText(const std::string& path, int vocab_size) {
    if (path.empty()) {
        throw DataError("data.path: the text source needs a file path");
    }
    if (vocab_size < 256) {
        throw DataError("text file '" + path +
                        "': tokens are bytes (0..255) but the model's "
                        "vocab_size is " +
                        std::to_string(vocab_size) + " (needs >= 256)");
    }
    return MappedFile(path, "text file");
}

} // namespace

TextDataLoader::TextDataLoader(const std::string& path, int vocab_size)
    : m_file(openText(path, vocab_size)) {}

std::optional<long long> TextDataLoader::tokenCount() const {
    return static_cast<long long>(m_file.size());
}

std::string TextDataLoader::describe() const {
    return "text file '" + m_file.path() + "' (" + std::to_string(m_file.size()) + " byte tokens)";
}

void TextDataLoader::readTokens(long long first, long long count, int* out) {
    const unsigned char* p = m_file.data() + first;
    for (long long i = 0; i < count; ++i) {
        out[i] = p[i];
    }
}

} // namespace zerolab
