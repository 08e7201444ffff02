// The timeline writer's thread: at nice kNice, takes the queue's front, stores it with the
// lock released, and wakes whoever waits for room or for the queue to empty.
#include "runtime/train/timeline_writer.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <utility>

namespace zerolab {

TimelineWriter::TimelineWriter(std::function<void(const StepTimeline&)> store, std::size_t depth)
    : m_store(std::move(store)), m_depth(depth < 1 ? 1 : depth), m_thread([this] { loop(); }) {}

TimelineWriter::~TimelineWriter() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void TimelineWriter::push(StepTimeline timeline) {
    {
        std::unique_lock lock(m_mutex);
        rethrow();
        if (m_queue.size() >= m_depth) {
            ++m_waited;
            m_changed.wait(lock, [&] { return m_queue.size() < m_depth; });
        }
        m_queue.push_back(std::move(timeline));
    }
    m_changed.notify_all();
}

void TimelineWriter::drain() {
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_queue.empty() && !m_busy; });
    rethrow();
}

std::size_t TimelineWriter::waitedPushes() const {
    std::lock_guard lock(m_mutex);
    return m_waited;
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
    for (;;) {
        m_changed.wait(lock, [&] { return m_stop || !m_queue.empty(); });
        if (m_queue.empty())
            return; // stopping, and everything queued is stored
        StepTimeline next = std::move(m_queue.front());
        m_queue.pop_front();
        m_busy = true;
        lock.unlock();
        m_changed.notify_all(); // room for a waiting push
        std::exception_ptr error;
        try {
            m_store(next);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        m_busy = false;
        if (error && !m_error)
            m_error = error;
        m_changed.notify_all(); // a drain may be waiting for this one
    }
}

} // namespace zerolab
