// Rank 0's timeline writer: stores the sampled steps' timelines on a thread of its own,
// so that the training loop only hands a gathered StepTimeline over (a move) instead of
// waiting for its store transaction (docs/metrics.md, "Cost"). A bounded FIFO: timelines
// are stored in the order they were handed over, and a full queue makes push() wait,
// never drops one.
#pragma once

#include "storage/timeline.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace zerolab {

class TimelineWriter {
public:
    // Timelines handed over and not yet stored, at most: at nano's ~0.15 ms a store this
    // is only reached when the writer thread gets no CPU for many steps.
    static constexpr std::size_t kDefaultDepth = 16;

    // `store` runs on the writer's thread, one timeline at a time, in push order; it must
    // be safe to call alongside the caller's other uses of the same store (the trainer's
    // Reporter locks). An exception it throws is rethrown by the next push() or drain().
    explicit TimelineWriter(std::function<void(const StepTimeline&)> store,
                            std::size_t depth = kDefaultDepth);
    // Stores what is queued, then stops the thread (an exception is dropped here).
    ~TimelineWriter();
    TimelineWriter(const TimelineWriter&) = delete;
    TimelineWriter& operator=(const TimelineWriter&) = delete;

    // Queues `timeline` and returns; waits first while `depth` timelines are queued.
    void push(StepTimeline timeline);
    // Returns once every timeline pushed so far is stored (the run's end, a failure).
    void drain();
    // How many push() calls had to wait for room (the writer fell behind the training).
    std::size_t waitedPushes() const;

private:
    void loop();
    void rethrow(); // under m_mutex: the store's exception, once

    const std::function<void(const StepTimeline&)> m_store;
    const std::size_t m_depth;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed; // a timeline queued or stored, or stopping
    std::deque<StepTimeline> m_queue;
    bool m_busy = false; // the thread is storing the queue's front
    bool m_stop = false;
    std::size_t m_waited = 0;
    std::exception_ptr m_error;
    std::thread m_thread; // last: started once every member above exists
};

} // namespace zerolab
