// Rank 0's timeline writer: stores the sampled steps' timelines on a thread of its own,
// so that the training loop only hands a gathered StepTimeline over (a move) instead of
// waiting for its store transaction (docs/metrics.md, "Cost"), on a thread of low priority
// (kNice). A bounded FIFO: timelines are stored in the order they were handed over, and a
// full queue makes push() wait, never drops one.
#pragma once

#include "storage/timeline.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace zerolab {

class TimelineWriter {
public:
    // Timelines handed over and not yet stored, at most (~5 KB each at nano, N = 2): at
    // ~0.15 ms a store this is only reached when the writer gets no CPU for many steps.
    static constexpr std::size_t kDefaultDepth = 64;
    // The writer thread's nice value. At the default 0, Linux's scheduler (EEVDF) lets the
    // thread, woken by push(), preempt the training loop that woke it on its core: push
    // took 130-150 us (the whole store) at nano on 2 cores, 5 us at 19. At 19 it runs
    // where a core is idle or a rank yields while it waits in a collective.
    static constexpr int kNice = 19;

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
    // Why the thread could not lower its priority to kNice (empty: it did).
    std::string niceError() const;

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
    std::string m_niceError;
    std::exception_ptr m_error;
    std::thread m_thread; // last: started once every member above exists
};

} // namespace zerolab
