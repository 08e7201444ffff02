// The timeline writer (rank 0's store thread) without MPI or a store: push returns while
// the store is still busy, timelines are stored in push order, a full queue makes push
// wait instead of dropping one, drain waits for the last, timelines pushed close together
// are stored in batches and a lone one within the delay, the store's exception comes
// back to the training loop, and the store runs at the writer's low priority.
#include "runtime/train/timeline_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

namespace zerolab {
namespace {

StepTimeline timelineOf(long long step) {
    StepTimeline tl;
    tl.step = step;
    tl.spans.push_back({0, SpanKind::Forward, 1, 0, Collective::AllReduce, 0, -1, 0, 0, 5});
    return tl;
}

// A store that records the steps it got and, while closed, blocks every call until
// open() (so that a test controls when the writer thread gets on).
class GatedStore {
public:
    void operator()(std::span<const StepTimeline> batch) {
        std::unique_lock lock(m_mutex);
        m_entered = true;
        m_changed.notify_all();
        m_changed.wait(lock, [&] { return m_open; });
        for (const StepTimeline& tl : batch) {
            m_steps.push_back(tl.step);
            if (tl.spans.size() != 1)
                throw std::logic_error("timeline moved from before it was stored");
        }
    }
    void open() {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    void waitEntered() {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_entered; });
    }
    std::vector<long long> steps() {
        std::lock_guard lock(m_mutex);
        return m_steps;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = false;
    bool m_entered = false;
    std::vector<long long> m_steps;
};

TEST(TimelineWriter, PushReturnsWhileTheStoreIsBusyAndKeepsTheOrder) {
    GatedStore store;
    TimelineWriter writer([&](std::span<const StepTimeline> b) { store(b); }, 8);
    writer.push(timelineOf(1));
    store.waitEntered(); // the thread holds step 1 and cannot store it yet
    for (long long s = 2; s <= 5; ++s)
        writer.push(timelineOf(s)); // none of these waits for the store
    EXPECT_TRUE(store.steps().empty());
    store.open();
    writer.drain();
    EXPECT_EQ(store.steps(), (std::vector<long long>{1, 2, 3, 4, 5}));
    EXPECT_EQ(writer.waitedPushes(), 0u);
}

TEST(TimelineWriter, AFullQueueMakesPushWaitAndDropsNothing) {
    GatedStore store;
    TimelineWriter writer([&](std::span<const StepTimeline> b) { store(b); }, 2);
    writer.push(timelineOf(1));
    store.waitEntered();
    writer.push(timelineOf(2));
    writer.push(timelineOf(3)); // the queue (depth 2) is full now
    std::thread late([&] { writer.push(timelineOf(4)); });
    while (writer.waitedPushes() == 0)
        std::this_thread::yield();
    store.open();
    late.join();
    writer.drain();
    EXPECT_EQ(store.steps(), (std::vector<long long>{1, 2, 3, 4}));
    EXPECT_EQ(writer.waitedPushes(), 1u);
}

TEST(TimelineWriter, TheDestructorStoresWhatIsQueued) {
    GatedStore store;
    {
        TimelineWriter writer([&](std::span<const StepTimeline> b) { store(b); });
        writer.push(timelineOf(7));
        writer.push(timelineOf(8));
        store.open();
    }
    EXPECT_EQ(store.steps(), (std::vector<long long>{7, 8}));
}

TEST(TimelineWriter, TheStoresExceptionReachesTheNextCallOnce) {
    std::vector<long long> stored;
    TimelineWriter writer([&](std::span<const StepTimeline> batch) {
        for (const StepTimeline& tl : batch)
            if (tl.step == 2)
                throw std::runtime_error("disk on fire at step 2");
        for (const StepTimeline& tl : batch)
            stored.push_back(tl.step);
    });
    writer.push(timelineOf(1));
    writer.drain(); // step 1 alone
    writer.push(timelineOf(2));
    writer.push(timelineOf(3)); // may or may not see step 2's failure yet
    try {
        writer.drain();
        writer.push(timelineOf(4));
        FAIL() << "the store's exception was not rethrown";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "disk on fire at step 2");
    }
    writer.drain(); // rethrown once only
    EXPECT_EQ(stored.front(), 1);
    EXPECT_TRUE(std::find(stored.begin(), stored.end(), 2) == stored.end());
}

// Timelines pushed faster than the delay share a transaction (at most kMaxBatch); one
// pushed alone is stored within the delay, without a drain.
TEST(TimelineWriter, StoresTimelinesPushedTogetherInBatches) {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::vector<long long>> batches;
    TimelineWriter writer(
        [&](std::span<const StepTimeline> batch) {
            std::vector<long long> steps;
            for (const StepTimeline& tl : batch)
                steps.push_back(tl.step);
            std::lock_guard lock(mutex);
            batches.push_back(steps);
            changed.notify_all();
        },
        TimelineWriter::kDefaultDepth, std::chrono::milliseconds(60000));
    const long long n = 2 * static_cast<long long>(TimelineWriter::kMaxBatch) + 3;
    for (long long s = 1; s <= n; ++s)
        writer.push(timelineOf(s));
    writer.drain();
    std::vector<long long> all;
    for (const auto& b : batches) {
        EXPECT_LE(b.size(), TimelineWriter::kMaxBatch);
        all.insert(all.end(), b.begin(), b.end());
    }
    ASSERT_EQ(all.size(), static_cast<std::size_t>(n));
    for (long long s = 1; s <= n; ++s)
        EXPECT_EQ(all[static_cast<std::size_t>(s - 1)], s) << "push order";
    EXPECT_EQ(batches.size(), 3u) << "two full batches and the rest at the drain";

    TimelineWriter prompt(
        [&](std::span<const StepTimeline> batch) {
            std::lock_guard lock(mutex);
            batches.push_back({batch.front().step});
            changed.notify_all();
        },
        TimelineWriter::kDefaultDepth, std::chrono::milliseconds(50));
    batches.clear();
    const auto t0 = std::chrono::steady_clock::now();
    prompt.push(timelineOf(99));
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(30), [&] { return !batches.empty(); }))
        << "a lone timeline was never stored";
    EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(40))
        << "it waited for company first";
}

// At the default nice 0 the woken writer preempted the training loop on its core
// (TimelineWriter::kNice); the store must run at the lower priority.
TEST(TimelineWriter, StoresAtTheLowerPriority) {
    int nice = 0;
    {
        TimelineWriter writer([&](std::span<const StepTimeline>) {
            errno = 0;
            nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
            ASSERT_EQ(errno, 0) << std::strerror(errno);
        });
        writer.push(timelineOf(1));
        writer.drain();
        EXPECT_EQ(writer.niceError(), "");
    }
    EXPECT_EQ(nice, TimelineWriter::kNice);
    // The caller's own thread keeps its priority.
    errno = 0;
    EXPECT_LT(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), TimelineWriter::kNice);
}

} // namespace
} // namespace zerolab
