// The UnitAccess the model is given: it forwards every call to the engine and, while the
// step's timeline is recorded, turns the model's calls (gpt2.h documents their order)
// into the compute lane's Forward, Backward and Recompute spans per gather unit. A unit's
// span runs from the call that hands the model what it computes with (params(u) in
// forward, grads(u) in backward, recomputing(u)) to the model's next params, grads,
// gradsReady or recomputing call, or the end of the pass; waits inside the engine's calls
// are therefore never inside a unit's span. Several params/grads calls in a row only
// collect pointers (the head of backward asks for units L+1 and 0 together): the span
// belongs to the last of them. Disarmed it only forwards.
#pragma once

#include "runtime/model/network.h"
#include "runtime/train/timeline_recorder.h"

namespace zerolab {

class TimelineAccess final : public UnitAccess {
public:
    // Keeps references to both.
    TimelineAccess(UnitAccess& engine, TimelineRecorder& recorder)
        : m_engine(engine), m_rec(recorder) {}

    // Around each Network::forward and Network::backward.
    void beginPass(bool backward) {
        m_backward = backward;
        m_acquiring = false;
    }
    // Closes the pass's last span and samples memory (a phase boundary).
    void endPass();

    const float* params(int unit) override;
    float* grads(int unit) override;
    void release(int unit) override {
        m_acquiring = false;
        m_engine.release(unit);
    }
    void gradsReady(int unit) override;
    void recomputing(int unit) override;

private:
    UnitAccess& m_engine;
    TimelineRecorder& m_rec;
    // Ends the open span where the model asks for a unit: dropped when the model asked for
    // another one just before (nothing was computed in between), else recorded.
    void endSpanAtAcquire();

    bool m_backward = false;
    bool m_acquiring = false; // the model's last call was params or grads
};

} // namespace zerolab
