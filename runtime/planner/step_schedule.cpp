// The gradient buckets and the gather-slot policy of step_schedule.h.
#include "runtime/planner/step_schedule.h"

#include <stdexcept>
#include <string>

namespace zerolab {

std::vector<ReduceBucket> reduceBuckets(const ParamLayout& layout, int stage, bool reduce_scatter,
                                        std::int64_t bucket_elements) {
    std::vector<ReduceBucket> buckets;
    int first = -1, last = -1;
    for (int u = layout.unitCount() - 1; u >= 0; --u) {
        if (first < 0)
            last = u;
        first = u;
        const UnitLayout& L = layout.units[static_cast<std::size_t>(last)];
        const std::int64_t elems =
            L.offset + L.padded_elems - layout.units[static_cast<std::size_t>(u)].offset;
        if (elems >= bucket_elements || (stage == 1 && reduce_scatter)) {
            buckets.push_back({first, last});
            first = last = -1;
        }
    }
    if (first >= 0)
        buckets.push_back({first, last});
    return buckets;
}

GatherSlots::GatherSlots(int unitCount, int blockSlots)
    : m_unitCount(unitCount), m_slots(static_cast<std::size_t>(1 + blockSlots)) {}

void GatherSlots::wait(int slot, std::vector<Action>& out) {
    Slot& s = m_slots[static_cast<std::size_t>(slot)];
    if (s.pending)
        out.push_back({ActionKind::Wait, slot});
    s.pending = false;
}

void GatherSlots::gather(int slot, int unit, std::vector<Action>& out) {
    Slot& s = m_slots[static_cast<std::size_t>(slot)];
    s.unit = unit;
    s.pending = true;
    out.push_back({ActionKind::Gather, slot, unit});
}

void GatherSlots::prefetchAfter(int unit, std::vector<Action>& out) {
    if (m_slots.size() < 3 || unit == 0)
        return;
    const int next = m_backward ? unit - 1 : unit + 1;
    if (next < 1 || next >= m_unitCount)
        return;
    for (std::size_t s = 1; s < m_slots.size(); ++s)
        if (m_slots[s].unit == next)
            return; // already there, or on its way
    for (std::size_t s = 1; s < m_slots.size(); ++s) {
        if (!m_slots[s].held && m_slots[s].unit != unit) {
            wait(static_cast<int>(s), out);
            gather(static_cast<int>(s), next, out);
            return;
        }
    }
}

GatherSlots::Acquire GatherSlots::acquire(int unit) {
    Acquire a;
    int found = -1;
    if (unit == 0) {
        found = 0;
        if (m_slots[0].held && m_slots[0].unit != 0)
            throw std::logic_error("ParamGather: embedding slot held by another unit");
        if (m_slots[0].unit != 0)
            gather(0, 0, a.before);
    } else {
        for (std::size_t s = 1; s < m_slots.size(); ++s)
            if (m_slots[s].unit == unit)
                found = static_cast<int>(s);
        if (found < 0) {
            // A free block slot: prefer one without an all-gather in flight.
            for (std::size_t s = 1; s < m_slots.size(); ++s)
                if (!m_slots[s].held && (found < 0 || !m_slots[s].pending))
                    found = static_cast<int>(s);
            if (found < 0)
                throw std::logic_error("ParamGather: unit " + std::to_string(unit) +
                                       " requested while every block slot is held");
            wait(found, a.before);
            gather(found, unit, a.before);
        }
    }
    wait(found, a.before); // the caller's wait counts as exposed communication
    m_slots[static_cast<std::size_t>(found)].held = true;
    a.slot = found;
    prefetchAfter(unit, a.after);
    return a;
}

void GatherSlots::release(int unit) {
    for (Slot& s : m_slots)
        if (s.unit == unit)
            s.held = false;
}

void GatherSlots::invalidate() {
    for (Slot& s : m_slots)
        s = Slot{};
}

} // namespace zerolab
