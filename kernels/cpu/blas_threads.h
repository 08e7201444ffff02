// OpenBLAS single-threaded for a parallel region whose tasks each call sgemm (attention's
// (batch, head) tasks): nested BLAS threads would oversubscribe the cores.
#pragma once

#include <cblas.h>

namespace zerolab::cpu {

// Sets OpenBLAS to one thread for the guard's lifetime and back to `restoreTo` after.
class BlasSingleThreaded {
public:
    explicit BlasSingleThreaded(int restoreTo) : m_restore(restoreTo) {
        if (m_restore > 1)
            openblas_set_num_threads(1);
    }
    ~BlasSingleThreaded() {
        if (m_restore > 1)
            openblas_set_num_threads(m_restore);
    }
    BlasSingleThreaded(const BlasSingleThreaded&) = delete;
    BlasSingleThreaded& operator=(const BlasSingleThreaded&) = delete;

private:
    int m_restore;
};

} // namespace zerolab::cpu
