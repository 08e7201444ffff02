// The fake device's streams, kernels and communicator; see delayed_device.h.
#include "tests/engine/delayed_device.h"

#include "runtime/comm/comm_handle_state.h"

#include <cstring>
#include <memory>
#include <vector>

namespace zerolab::test {

FakeStream::FakeStream(std::string name) : m_name(std::move(name)), m_worker([this] { loop(); }) {}

FakeStream::~FakeStream() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_cv.notify_all();
    m_worker.join();
}

void FakeStream::loop() {
    for (;;) {
        std::function<void()> op;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty())
                return;
            op = std::move(m_queue.front());
            m_queue.pop_front();
        }
        std::exception_ptr error;
        try {
            op();
        } catch (...) {
            error = std::current_exception();
        }
        {
            std::lock_guard lock(m_mutex);
            if (error && !m_error)
                m_error = error;
            ++m_ran;
        }
        m_cv.notify_all();
    }
}

void FakeStream::enqueue(std::function<void()> op) {
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(op));
        ++m_queued;
    }
    m_cv.notify_all();
}

std::uint64_t FakeStream::record() {
    std::lock_guard lock(m_mutex);
    return m_queued;
}

void FakeStream::waitFor(std::uint64_t event) {
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return m_ran >= event; });
}

void FakeStream::synchronize() {
    waitFor(record());
    std::lock_guard lock(m_mutex);
    if (m_error)
        std::rethrow_exception(m_error);
}

std::uint64_t FakeStream::ran() {
    std::lock_guard lock(m_mutex);
    return m_ran;
}

DelayedKernels::DelayedKernels(std::unique_ptr<Kernels> inner, FakeDevice& device)
    : ForwardingKernels(std::move(inner)), m_device(device) {}

DelayedKernels::~DelayedKernels() {
    try {
        m_device.compute.synchronize();
    } catch (...) {
        // An op failed; whoever waited on the stream before has been told.
    }
}

void DelayedKernels::run(Completion c, std::function<void()> op) {
    if (c == Completion::Queued) {
        ++m_queued;
        m_device.compute.enqueue(std::move(op));
        return;
    }
    m_device.compute.synchronize();
    op();
}

void* DelayedKernels::allocate(std::size_t bytes) {
    void* p = inner().allocate(bytes);
    // cudaMalloc's memory holds whatever was there: NaN makes a read before the first
    // write show in the results.
    std::memset(p, 0xff, bytes);
    return p;
}

void DelayedKernels::release(void* p) {
    m_device.synchronize();
    inner().release(p);
}

namespace {

// Opened once a collective has taken its input and poisoned its buffer.
struct Gate {
    std::mutex mutex;
    std::condition_variable cv;
    bool open = false;
    void release() {
        {
            std::lock_guard lock(mutex);
            open = true;
        }
        cv.notify_all();
    }
    void wait() {
        std::unique_lock lock(mutex);
        cv.wait(lock, [&] { return open; });
    }
};

} // namespace

DelayedCommunicator::DelayedCommunicator(Communicator& host, FakeDevice& device)
    : m_host(host), m_device(device) {}

DelayedCommunicator::~DelayedCommunicator() {
    try {
        m_device.comm.synchronize();
    } catch (...) {
        // Each collective reports its own error to its handle.
    }
}

CommHandle DelayedCommunicator::start(Collective c, void* buf, std::size_t count, CommDType t,
                                      int root) {
    const std::size_t slice = count * commDTypeBytes(t);
    const bool perRank = c == Collective::ReduceScatter || c == Collective::AllGather;
    const std::size_t total = perRank ? slice * static_cast<std::size_t>(size()) : slice;
    // What the collective writes when it completes: a reduce-scatter only the rank's slice.
    const std::size_t resultOffset =
        c == Collective::ReduceScatter ? slice * static_cast<std::size_t>(rank()) : 0;
    const std::size_t resultBytes = c == Collective::ReduceScatter ? slice : total;

    auto state = std::make_shared<CommHandle::State>();
    state->onWaited = [this](double ms) { m_exposedMs += ms; };
    auto begun = std::make_shared<Gate>();
    // The event: the compute work issued so far, which the collective starts after.
    const std::uint64_t event = m_device.compute.record();
    m_device.compute.enqueue([begun] { begun->wait(); });
    ++m_collectives;
    char* bytes = static_cast<char*>(buf);
    m_device.comm.enqueue([=, this] {
        std::exception_ptr error;
        try {
            m_device.compute.waitFor(event);
            std::vector<char> stage(bytes, bytes + total);
            std::memset(bytes, 0xff, total);
            begun->release();
            switch (c) {
            case Collective::AllReduce:
                m_host.allReduce(stage.data(), count, t);
                break;
            case Collective::ReduceScatter:
                m_host.reduceScatter(stage.data(), count, t);
                break;
            case Collective::AllGather:
                m_host.allGather(stage.data(), count, t);
                break;
            case Collective::Broadcast:
                m_host.broadcast(stage.data(), count, t, root);
                break;
            }
            std::this_thread::sleep_for(m_device.hold);
            std::memcpy(bytes + resultOffset, stage.data() + resultOffset, resultBytes);
        } catch (...) {
            error = std::current_exception();
            begun->release();
        }
        state->finish(error);
    });
    return CommHandle(std::move(state));
}

void DelayedCommunicator::allReduce(void* buf, std::size_t count, CommDType t) {
    start(Collective::AllReduce, buf, count, t).wait();
}

void DelayedCommunicator::reduceScatter(void* buf, std::size_t count, CommDType t) {
    start(Collective::ReduceScatter, buf, count, t).wait();
}

void DelayedCommunicator::allGather(void* buf, std::size_t count, CommDType t) {
    start(Collective::AllGather, buf, count, t).wait();
}

void DelayedCommunicator::broadcast(void* buf, std::size_t count, CommDType t, int root) {
    start(Collective::Broadcast, buf, count, t, root).wait();
}

CommHandle DelayedCommunicator::startAllReduce(void* buf, std::size_t count, CommDType t) {
    return start(Collective::AllReduce, buf, count, t);
}

CommHandle DelayedCommunicator::startReduceScatter(void* buf, std::size_t count, CommDType t) {
    return start(Collective::ReduceScatter, buf, count, t);
}

CommHandle DelayedCommunicator::startAllGather(void* buf, std::size_t count, CommDType t) {
    return start(Collective::AllGather, buf, count, t);
}

void DelayedCommunicator::onCommStream(const std::function<void()>& call) {
    std::exception_ptr error;
    m_device.comm.enqueue([&] {
        try {
            call();
        } catch (...) {
            error = std::current_exception();
        }
    });
    m_device.comm.synchronize();
    if (error)
        std::rethrow_exception(error);
}

void DelayedCommunicator::sumDoubles(double* x, std::size_t n) {
    onCommStream([&] { m_host.sumDoubles(x, n); });
}

void DelayedCommunicator::broadcastBytes(void* buf, std::size_t bytes, int root) {
    onCommStream([&] { m_host.broadcastBytes(buf, bytes, root); });
}

void DelayedCommunicator::gatherBytes(const void* in, std::size_t bytes, void* out) {
    onCommStream([&] { m_host.gatherBytes(in, bytes, out); });
}

void DelayedCommunicator::barrier() {
    onCommStream([&] { m_host.barrier(); });
}

CommStats DelayedCommunicator::takeStats() {
    CommStats s;
    onCommStream([&] { s = m_host.takeStats(); });
    s.exposed_ms = m_exposedMs;
    m_exposedMs = 0;
    return s;
}

void DelayedCommunicator::setBeacon(CollectiveBeacon* beacon) {
    Communicator::setBeacon(beacon);
    onCommStream([&] { m_host.setBeacon(beacon); });
}

} // namespace zerolab::test
