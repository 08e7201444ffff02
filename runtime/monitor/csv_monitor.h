// DeepSpeed's csv_monitor: one CSV file per tag under output_path/job_name, named after
// the tag with '/' and ' ' made '_' ("Train_Samples_train_loss.csv"), columns "step" and
// the tag's last component, rows as Python's csv.writer writes them (\r\n endings).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace zerolab {

// Opens nothing until the first event; the folder is created then. Files are appended
// to (mode "a+", as DeepSpeed); the header is written the first time this process writes
// a file.
class CsvMonitor {
public:
    explicit CsvMonitor(std::string folder) : m_folder(std::move(folder)) {}
    const std::string& folder() const { return m_folder; }
    // One row per (tag, value) at x = step. Throws std::runtime_error naming the file
    // when it cannot be written.
    void write(std::int64_t step, const std::vector<std::pair<std::string, double>>& events);

    // DeepSpeed's file name and column header for a tag.
    static std::string fileName(const std::string& tag);
    static std::string header(const std::string& tag);

private:
    std::string m_folder;
    std::set<std::string> m_started;
};

} // namespace zerolab
