// settleRun: the tags through the reader, the end through a writer attached to the run.
#include "storage/settle_run.h"

#include "storage/run_reader.h"
#include "storage/run_writer.h"

namespace zerolab {

void settleRun(const std::string& db_path, std::int64_t run_id,
               const std::vector<std::string>& tags, RunStatus status, const std::string& message) {
    if (run_id < 0)
        return;
    RunReader reader(RunStore::open(db_path));
    for (const std::string& tag : tags)
        reader.addTag(run_id, tag);
    if (message.empty() || !runIsLive(reader.run(run_id).status))
        return;
    RunWriter writer(RunStore::open(db_path));
    writer.attachRun(run_id);
    writer.finish(status, message);
}

} // namespace zerolab
