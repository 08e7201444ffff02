// The shared state behind a CommHandle: a job queued on a communicator's
// progress thread, its completion flag and any exception it raised.
#pragma once

#include "runtime/comm/communicator.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>

namespace zerolab {

struct CommHandle::State {
    std::function<void()> job;
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    std::exception_ptr error;
    // Called on the waiting (compute) thread with the milliseconds it was blocked.
    std::function<void(double)> onWaited;
    // Run on the waiting thread once the job is done without error, before wait()
    // returns: a wrapper's own completion (host staging copies its result back).
    std::function<void()> then;
    // The step timeline's trace of this collective (Communicator::setTrace) and its seq,
    // when one was set at issue.
    CommTrace* trace = nullptr;
    int traceSeq = -1;

    void finish(std::exception_ptr e) {
        {
            std::lock_guard lock(mutex);
            done = true;
            error = e;
        }
        cv.notify_all();
    }

    void waitDone() {
        const auto t0 = std::chrono::steady_clock::now();
        {
            std::unique_lock lock(mutex);
            cv.wait(lock, [&] { return done; });
        }
        if (onWaited)
            onWaited(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count());
        if (error)
            std::rethrow_exception(error);
        if (then) {
            auto next = std::move(then);
            then = nullptr;
            next();
        }
    }
};

} // namespace zerolab
