// Rank 0's timeline writer: stores the sampled steps' timelines on a thread of its own,
// so that the training loop only hands a gathered StepTimeline over (a move) instead of
// waiting for its store transaction (docs/metrics.md, "Cost"), on a thread of low priority
// (kNice). A bounded FIFO: timelines are stored in the order they were handed over, and a
// full queue makes push() wait, never drops one. Timelines that come faster than
// kMaxDelay apart are stored in batches of up to kMaxBatch, one transaction each: at
// every nano step a transaction per timeline was most of what recording cost.
#pragma once

#include "storage/timeline.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
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

    // Timelines stored in one call of the store, at most.
    static constexpr std::size_t kMaxBatch = 16;
    // How long a timeline waits for others to join its batch, at most: what the live view
    // lags behind the training, at most, for the timeline's sake.
    static constexpr std::chrono::milliseconds kMaxDelay{100};

    // `store` runs on the writer's thread with one or more timelines, in push order (one
    // transaction: they are stored together or not at all); it must be safe to call
    // alongside the caller's other uses of the same store (the trainer's Reporter locks).
    // An exception it throws is rethrown by the next push() or drain().
    using Store = std::function<void(std::span<const StepTimeline>)>;
    explicit TimelineWriter(Store store, std::size_t depth = kDefaultDepth,
                            std::chrono::milliseconds max_delay = kMaxDelay);
    // Stores what is queued, then stops the thread (an exception is dropped here).
    ~TimelineWriter();
    TimelineWriter(const TimelineWriter&) = delete;
    TimelineWriter& operator=(const TimelineWriter&) = delete;

    // Queues `timeline` and returns; waits first while `depth` timelines are queued.
    void push(StepTimeline timeline);
    // Stores what is queued at once and returns once every timeline pushed so far is
    // stored (the run's end, a failure).
    void drain();
    // How many push() calls had to wait for room (the writer fell behind the training).
    std::size_t waitedPushes() const;
    // Why the thread could not lower its priority to kNice (empty: it did).
    std::string niceError() const;
    // What the thread stored so far: timelines, in how many store calls (transactions), and
    // the thread's CPU time inside them (what recording costs the machine beyond the loop).
    struct Stats {
        std::size_t timelines = 0;
        std::size_t batches = 0;
        double cpu_ms = 0;
    };
    Stats stats() const;

private:
    void loop();
    void rethrow(); // under m_mutex: the store's exception, once

    struct Queued {
        StepTimeline timeline;
        std::chrono::steady_clock::time_point at; // when it was pushed
    };

    const Store m_store;
    const std::size_t m_depth;
    const std::size_t m_batch; // kMaxBatch, or the depth where that is smaller
    const std::chrono::milliseconds m_maxDelay;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed; // a timeline queued or stored, or stopping
    std::deque<Queued> m_queue;
    bool m_busy = false;        // the thread is storing a batch taken from the queue
    std::size_t m_draining = 0; // drain() calls waiting: store without waiting for a batch
    bool m_stop = false;
    std::size_t m_waited = 0;
    Stats m_stats;
    std::string m_niceError;
    std::exception_ptr m_error;
    std::thread m_thread; // last: started once every member above exists
};

} // namespace zerolab
