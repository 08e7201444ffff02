// This rank's view of its GPUs for the GPU choice (gpu_choice.h): the UUID (else the PCI
// bus id) of each device CUDA shows it, and its CUDA_VISIBLE_DEVICES.
#pragma once

#include "runtime/comm/gpu_choice.h"

#include <string>

namespace zerolab {

// Throws CommError naming the CUDA call that failed.
RankGpus visibleGpus(const std::string& host);

} // namespace zerolab
