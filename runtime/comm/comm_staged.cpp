// Host staging around a host Communicator: copy out, collective, copy back.
#include "runtime/comm/comm_staged.h"

#include "runtime/comm/comm_handle_state.h"

#include <chrono>

namespace zerolab {

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

StagedCommunicator::StagedCommunicator(Communicator& host, Kernels& kernels)
    : m_host(host), m_kernels(kernels) {}

StagedCommunicator::Plan StagedCommunicator::plan(Collective c, std::size_t count, CommDType t,
                                                  int root) const {
    const std::size_t slice = count * commDTypeBytes(t);
    const std::size_t all = slice * static_cast<std::size_t>(size());
    const std::size_t mine = slice * static_cast<std::size_t>(rank());
    switch (c) {
    case Collective::AllReduce:
        return {c, 0, slice, 0, slice, slice};
    case Collective::ReduceScatter: // every slice goes out, only ours comes back
        return {c, 0, all, mine, slice, all};
    case Collective::AllGather: // ours goes out, every slice comes back
        return {c, mine, slice, 0, all, all};
    case Collective::Broadcast:
        return {c, 0, rank() == root ? slice : 0, 0, rank() == root ? 0 : slice, slice};
    }
    return {c, 0, 0, 0, 0, 0};
}

double StagedCommunicator::toHost(const Plan& p, const void* buf, char* stage) {
    const auto t0 = std::chrono::steady_clock::now();
    if (p.sendBytes)
        m_kernels.copyToHost(stage + p.sendOffset, static_cast<const char*>(buf) + p.sendOffset,
                             p.sendBytes);
    return msSince(t0);
}

double StagedCommunicator::toDevice(const Plan& p, void* buf, const char* stage) {
    const auto t0 = std::chrono::steady_clock::now();
    if (p.recvBytes)
        m_kernels.copyToDevice(static_cast<char*>(buf) + p.recvOffset, stage + p.recvOffset,
                               p.recvBytes);
    return msSince(t0);
}

void StagedCommunicator::addCopyTime(Collective c, double ms) {
    m_copyStats[c].ms += ms;
    m_copyStats.exposed_ms += ms;
}

void StagedCommunicator::blocking(const Plan& p, void* buf,
                                  const std::function<void(char*)>& hostCall) {
    m_blockingStage.resize(p.totalBytes);
    double ms = toHost(p, buf, m_blockingStage.data());
    hostCall(m_blockingStage.data());
    ms += toDevice(p, buf, m_blockingStage.data());
    addCopyTime(p.collective, ms);
}

void StagedCommunicator::allReduce(void* buf, std::size_t count, CommDType t) {
    blocking(plan(Collective::AllReduce, count, t), buf,
             [&](char* host) { m_host.allReduce(host, count, t); });
}

void StagedCommunicator::reduceScatter(void* buf, std::size_t count, CommDType t) {
    blocking(plan(Collective::ReduceScatter, count, t), buf,
             [&](char* host) { m_host.reduceScatter(host, count, t); });
}

void StagedCommunicator::allGather(void* buf, std::size_t count, CommDType t) {
    blocking(plan(Collective::AllGather, count, t), buf,
             [&](char* host) { m_host.allGather(host, count, t); });
}

void StagedCommunicator::broadcast(void* buf, std::size_t count, CommDType t, int root) {
    blocking(plan(Collective::Broadcast, count, t, root), buf,
             [&](char* host) { m_host.broadcast(host, count, t, root); });
}

// The host collective runs on its own handle; ours waits for it, then copies back.
CommHandle StagedCommunicator::startStaged(Collective c, void* buf, std::size_t count,
                                           CommDType t) {
    const Plan p = plan(c, count, t);
    auto stage = std::make_shared<std::vector<char>>(p.totalBytes);
    addCopyTime(c, toHost(p, buf, stage->data()));
    CommHandle inner;
    switch (c) {
    case Collective::AllReduce:
        inner = m_host.startAllReduce(stage->data(), count, t);
        break;
    case Collective::ReduceScatter:
        inner = m_host.startReduceScatter(stage->data(), count, t);
        break;
    case Collective::AllGather:
        inner = m_host.startAllGather(stage->data(), count, t);
        break;
    case Collective::Broadcast:
        break; // no non-blocking broadcast in the interface
    }
    auto state = std::make_shared<CommHandle::State>();
    state->done = true; // the waiting happens in `then`, on the inner handle
    auto innerHandle = std::make_shared<CommHandle>(std::move(inner));
    state->then = [this, p, buf, stage, innerHandle] {
        innerHandle->wait();
        addCopyTime(p.collective, toDevice(p, buf, stage->data()));
    };
    return CommHandle(std::move(state));
}

CommHandle StagedCommunicator::startAllReduce(void* buf, std::size_t count, CommDType t) {
    return startStaged(Collective::AllReduce, buf, count, t);
}

CommHandle StagedCommunicator::startReduceScatter(void* buf, std::size_t count, CommDType t) {
    return startStaged(Collective::ReduceScatter, buf, count, t);
}

CommHandle StagedCommunicator::startAllGather(void* buf, std::size_t count, CommDType t) {
    return startStaged(Collective::AllGather, buf, count, t);
}

CommStats StagedCommunicator::takeStats() {
    CommStats s = m_host.takeStats();
    s += m_copyStats;
    m_copyStats = CommStats{};
    return s;
}

} // namespace zerolab
