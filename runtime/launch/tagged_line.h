// A line of a job's output under mpirun --tag-output ("[1,0]<stdout>:text") or srun
// --label ("0: text"). Open MPI reads a rank's output in pieces (about 1 KiB through its
// pty) and tags every piece, so a long line, such as a metric line carrying the resolved
// config, arrives with a second tag in the middle: "...\"run_id\"[1,0]<stdout>::3,...".
// splitTaggedLine gives the rank of the leading tag and the text with every tag removed.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace zerolab {

// {rank, text}: rank -1 and the line as it is when it carries no leading tag or label.
// Every "[job,rank]<stdout|stderr>:" is removed from a tagged line's text (a text that
// itself contains that pattern loses it; metric lines and messages do not).
std::pair<int, std::string> splitTaggedLine(std::string_view line);

// The text with every --tag-output tag removed, wherever it is.
std::string removeOutputTags(std::string_view text);

} // namespace zerolab
