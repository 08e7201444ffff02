// Hostile inputs of issue 17 written to files, shared by the tests of every tool that
// reads them (zerolab-train, zerolab-plan, the GUI): configs whose numbers overflow a
// double or whose nesting overflows a recursive reader, llm.c model headers whose
// dimensions claim far more than the file holds, and FIFOs where files are expected.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace zerolab::test {

// {"train_batch_size": 4, "gradient_clipping": 1e999}
void writeDoubleOverflowConfig(const std::string& path);

// A 200 KB config: 100,000 nested arrays under "model".
void writeDeepConfig(const std::string& path);

// An llm.c fp32 model file (magic, version 3) whose header says maxT, V, L, NH, C, Vp
// and whose body is `body_bytes` zero bytes.
void writeLlmcModelHeader(const std::string& path, int max_t, int vocab, int layers, int heads,
                          int channels, int padded_vocab, std::size_t body_bytes);

// A FIFO at `path` (replacing nothing: the path must not exist).
void makeFifo(const std::string& path);

// Calls fn on another thread and waits up to `wait` for it. A reader that blocked
// opening `fifo` (the fault this guards against) is then released by opening the FIFO
// for writing, so that the test fails instead of hanging. Returns whether fn returned
// within `wait`; fn must catch what it expects to be thrown.
bool returnsWithoutWaitingOnFifo(const std::string& fifo, const std::function<void()>& fn,
                                 std::chrono::milliseconds wait = std::chrono::seconds(5));

} // namespace zerolab::test
