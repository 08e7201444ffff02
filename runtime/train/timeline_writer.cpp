// The timeline writer's thread: at nice kNice, waits until a batch is full, its oldest
// timeline has waited m_maxDelay, or someone waits (drain, stop, a full queue), then takes
// up to a batch from the queue's front, stores it with the lock released, and wakes
// whoever waits for room or for the queue to empty.
#include "runtime/train/timeline_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace zerolab {

namespace {

double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

} // namespace

TimelineWriter::TimelineWriter(Store store, std::size_t depth, std::chrono::milliseconds max_delay)
    : m_store(std::move(store)), m_depth(depth < 1 ? 1 : depth),
      m_batch(std::min(kMaxBatch, m_depth)), m_maxDelay(max_delay), m_thread([this] { loop(); }) {}

TimelineWriter::~TimelineWriter() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void TimelineWriter::push(StepTimeline timeline) {
    bool wake = false;
    {
        std::unique_lock lock(m_mutex);
        rethrow();
        if (m_queue.size() >= m_depth) {
            ++m_waited;
            m_changed.wait(lock, [&] { return m_queue.size() < m_depth; });
        }
        m_queue.push_back({std::move(timeline), std::chrono::steady_clock::now()});
        // The thread waits for the first timeline of a batch, then for a full one (or its
        // deadline): a push in between wakes nobody.
        wake = m_queue.size() == 1 || m_queue.size() >= m_batch;
    }
    if (wake)
        m_changed.notify_all();
}

void TimelineWriter::drain() {
    std::unique_lock lock(m_mutex);
    ++m_draining;
    m_changed.notify_all();
    m_changed.wait(lock, [&] { return m_queue.empty() && !m_busy; });
    --m_draining;
    rethrow();
}

std::size_t TimelineWriter::waitedPushes() const {
    std::lock_guard lock(m_mutex);
    return m_waited;
}

TimelineWriter::Stats TimelineWriter::stats() const {
    std::lock_guard lock(m_mutex);
    return m_stats;
}

std::string TimelineWriter::niceError() const {
    std::lock_guard lock(m_mutex);
    return m_niceError;
}

void TimelineWriter::rethrow() {
    if (m_error)
        std::rethrow_exception(std::exchange(m_error, nullptr));
}

void TimelineWriter::loop() {
    // Linux: a thread's nice value is its own (the ranks' threads keep theirs).
    const int failed = setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kNice);
    const int niceErrno = errno;
    std::unique_lock lock(m_mutex);
    if (failed != 0)
        m_niceError = std::string("cannot lower the timeline writer's priority to nice ") +
                      std::to_string(kNice) + ": " + std::strerror(niceErrno) +
                      "; it competes with the training for the CPU";
    std::vector<StepTimeline> batch;
    for (;;) {
        m_changed.wait(lock, [&] { return m_stop || !m_queue.empty(); });
        if (m_queue.empty())
            return; // stopping, and everything queued is stored
        // A full queue is a full batch too (m_batch <= m_depth): a waiting push is served.
        m_changed.wait_until(lock, m_queue.front().at + m_maxDelay,
                             [&] { return m_stop || m_draining > 0 || m_queue.size() >= m_batch; });
        batch.clear();
        while (!m_queue.empty() && batch.size() < m_batch) {
            batch.push_back(std::move(m_queue.front().timeline));
            m_queue.pop_front();
        }
        m_busy = true;
        lock.unlock();
        m_changed.notify_all(); // room for a waiting push
        std::exception_ptr error;
        const double cpu0 = threadCpuMs();
        try {
            m_store(batch);
        } catch (...) {
            error = std::current_exception();
        }
        const double cpu = threadCpuMs() - cpu0;
        lock.lock();
        m_busy = false;
        m_stats.timelines += batch.size();
        m_stats.batches += 1;
        m_stats.cpu_ms += cpu;
        if (error && !m_error)
            m_error = error;
        m_changed.notify_all(); // a drain may be waiting for this one
    }
}

} // namespace zerolab
