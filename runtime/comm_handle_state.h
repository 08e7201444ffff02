// The shared state behind a CommHandle: a job queued on a communicator's
// progress thread, its completion flag and any exception it raised.
#pragma once

#include "runtime/communicator.h"

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
    }
};

} // namespace zerolab
