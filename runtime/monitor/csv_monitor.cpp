// CSV files as deepspeed/monitor/csv_monitor.py writes them.
#include "runtime/monitor/csv_monitor.h"
#include "runtime/monitor/ds_text.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace zerolab {

std::string CsvMonitor::fileName(const std::string& tag) {
    std::string name = tag;
    for (char& c : name)
        if (c == '/' || c == ' ')
            c = '_';
    return name + ".csv";
}

std::string CsvMonitor::header(const std::string& tag) {
    const std::size_t slash = tag.rfind('/');
    return slash == std::string::npos ? tag : tag.substr(slash + 1);
}

void CsvMonitor::write(std::int64_t step,
                       const std::vector<std::pair<std::string, double>>& events) {
    std::error_code ec;
    std::filesystem::create_directories(m_folder, ec);
    // The folder's own error: the file's open would only say it is missing.
    if (ec)
        throw std::runtime_error("cannot make the csv_monitor folder " + m_folder + ": " +
                                 ec.message());
    for (const auto& [tag, value] : events) {
        const std::string path = (std::filesystem::path(m_folder) / fileName(tag)).string();
        std::ofstream out(path, std::ios::binary | std::ios::app);
        if (m_started.insert(tag).second)
            out << "step," << header(tag) << "\r\n";
        out << step << "," << pyRepr(value) << "\r\n";
        out.flush();
        if (!out)
            throw std::runtime_error("cannot write the csv_monitor file " + path + ": " +
                                     std::strerror(errno));
    }
}

} // namespace zerolab
