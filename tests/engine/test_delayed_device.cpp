// The delayed device itself (delayed_device.h): ops run later on another thread in issue
// order, a collective starts after the compute work issued before it, and the races the
// engine tests look for are visible: a kernel that reads a collective's buffer before the
// wait reads NaN, one that writes it loses its write, memory nothing wrote is NaN.
#include "tests/engine/delayed_device.h"

#include "runtime/comm/comm_handle_state.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

namespace zerolab {
namespace {

using test::DelayedCommunicator;
using test::DelayedKernels;
using test::FakeDevice;
using test::FakeStream;

// One rank: every collective leaves its buffer as it was.
class LoopbackCommunicator final : public Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string host() const override { return "loopback"; }
    void allReduce(void*, std::size_t, CommDType) override {}
    void reduceScatter(void*, std::size_t, CommDType) override {}
    void allGather(void*, std::size_t, CommDType) override {}
    void broadcast(void*, std::size_t, CommDType, int) override {}
    CommHandle startAllReduce(void*, std::size_t, CommDType) override { return done(); }
    CommHandle startReduceScatter(void*, std::size_t, CommDType) override { return done(); }
    CommHandle startAllGather(void*, std::size_t, CommDType) override { return done(); }
    void sumDoubles(double*, std::size_t) override {}
    void broadcastBytes(void*, std::size_t, int) override {}
    void gatherBytes(const void* in, std::size_t bytes, void* out) override {
        std::memcpy(out, in, bytes);
    }
    void barrier() override {}
    CommStats takeStats() override { return {}; }

private:
    static CommHandle done() {
        auto s = std::make_shared<CommHandle::State>();
        s->done = true;
        return CommHandle(std::move(s));
    }
};

// A device whose collectives stay in flight long enough (50 ms) for any kernel queued
// behind their start to run inside the flight.
class DelayedDeviceTest : public ::testing::Test {
protected:
    FakeDevice device{std::chrono::milliseconds(50)};
    DelayedKernels kernels{makeCpuKernels(1), device};
    LoopbackCommunicator loopback;
    DelayedCommunicator comm{loopback, device};

    float* upload(const std::vector<float>& v) {
        auto* p = static_cast<float*>(kernels.allocate(v.size() * sizeof(float)));
        kernels.copyToDevice(p, v.data(), v.size() * sizeof(float));
        return p;
    }
    std::vector<float> download(const float* p, std::size_t n) {
        std::vector<float> v(n);
        kernels.copyToHost(v.data(), p, n * sizeof(float));
        return v;
    }
};

TEST(FakeStream, RunsOpsLaterOnItsOwnThreadInIssueOrder) {
    FakeStream s("test");
    std::mutex m;
    std::condition_variable cv;
    bool go = false;
    std::vector<int> order;
    std::thread::id where;
    s.enqueue([&] {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return go; });
        where = std::this_thread::get_id();
    });
    for (int i = 0; i < 5; ++i)
        s.enqueue([&order, i] { order.push_back(i); });
    const std::uint64_t event = s.record();
    EXPECT_EQ(event, 6u);
    EXPECT_EQ(s.ran(), 0u); // the first op holds the stream: nothing has run
    {
        std::lock_guard lock(m);
        go = true;
    }
    cv.notify_all();
    s.waitFor(event);
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_NE(where, std::this_thread::get_id());
}

TEST(FakeStream, AnOpsErrorSurfacesAtTheNextSynchronize) {
    FakeStream s("test");
    s.enqueue([] { throw KernelError("queued op failed"); });
    EXPECT_THROW(s.synchronize(), KernelError);
    EXPECT_THROW(s.synchronize(), KernelError); // sticky, as a CUDA error
}

TEST_F(DelayedDeviceTest, FreshMemoryIsNaN) {
    auto* p = static_cast<float*>(kernels.allocate(16 * sizeof(float)));
    for (float x : download(p, 16))
        EXPECT_TRUE(std::isnan(x));
    kernels.release(p);
}

TEST_F(DelayedDeviceTest, AKernelsErrorSurfacesAtTheNextWaitedCall) {
    float* x = upload(std::vector<float>(8, 1.0f));
    kernels.ropeForward(x, x, 1, 1, 1, 3, 8); // odd head size: a KernelError on the stream
    EXPECT_THROW(kernels.synchronize(), KernelError);
    EXPECT_GT(kernels.queuedOps(), 0);
}

TEST_F(DelayedDeviceTest, ACollectiveStartsAfterTheComputeIssuedBeforeIt) {
    const std::size_t n = 1000;
    float* x = upload(std::vector<float>(n, 1.0f));
    kernels.scale(x, 3.0f, n); // queued before the start: the collective reduces 3s
    CommHandle h = comm.startAllReduce(x, n, CommDType::F32);
    h.wait();
    for (float v : download(x, n))
        ASSERT_EQ(v, 3.0f);
    EXPECT_EQ(comm.collectives(), 1);
    kernels.release(x);
}

TEST_F(DelayedDeviceTest, ReadingTheBufferBeforeTheWaitReadsNaN) {
    const std::size_t n = 1000;
    float* x = upload(std::vector<float>(n, 1.0f));
    float* y = upload(std::vector<float>(n, 0.0f));
    CommHandle h = comm.startAllReduce(x, n, CommDType::F32);
    kernels.copyOnDevice(y, x, n * sizeof(float)); // the race: no wait before the read
    h.wait();
    for (float v : download(y, n))
        ASSERT_TRUE(std::isnan(v));
    for (float v : download(x, n)) // the collective's own result is whole
        ASSERT_EQ(v, 1.0f);
    kernels.release(x);
    kernels.release(y);
}

TEST_F(DelayedDeviceTest, WritingTheBufferBeforeTheWaitIsLost) {
    const std::size_t n = 1000;
    float* x = upload(std::vector<float>(n, 1.0f));
    CommHandle h = comm.startAllGather(x, n, CommDType::F32);
    kernels.zero(x, n); // the race: a slot reused before its collective completed
    h.wait();
    for (float v : download(x, n))
        ASSERT_EQ(v, 1.0f); // the zeros were overwritten by the result
    kernels.release(x);
}

TEST_F(DelayedDeviceTest, WaitingFirstSeesTheResult) {
    const std::size_t n = 1000;
    float* x = upload(std::vector<float>(n, 2.0f));
    float* y = upload(std::vector<float>(n, 0.0f));
    CommHandle h = comm.startReduceScatter(x, n, CommDType::F32);
    h.wait();
    kernels.copyOnDevice(y, x, n * sizeof(float));
    kernels.scale(x, 0.5f, n);
    for (float v : download(y, n))
        ASSERT_EQ(v, 2.0f);
    for (float v : download(x, n))
        ASSERT_EQ(v, 1.0f);
    kernels.release(x);
    kernels.release(y);
}

TEST_F(DelayedDeviceTest, HelpersAndBlockingCollectivesRunOnTheCommStream) {
    double d = 2.5;
    comm.sumDoubles(&d, 1);
    EXPECT_EQ(d, 2.5);
    float* x = upload(std::vector<float>(10, 4.0f));
    comm.broadcast(x, 10, CommDType::F32, 0);
    for (float v : download(x, 10))
        ASSERT_EQ(v, 4.0f);
    EXPECT_EQ(comm.takeStats().exposed_ms > 0, true); // the broadcast's 50 ms hold was waited
    kernels.release(x);
}

} // namespace
} // namespace zerolab
