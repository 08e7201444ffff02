// The names a config's enumerated settings go by (offload device, gradient accumulation
// dtype) and the rule between grad_accum_dtype and the training precision: one table and
// one rule for the config, a lesson's plan and zerolab-plan's options (name_table.h).
#pragma once

#include "runtime/config/config.h"
#include "runtime/text/message.h"
#include "runtime/text/name_table.h"

#include <optional>
#include <string_view>

namespace zerolab {

// zero_optimization.offload_optimizer / offload_param "device".
inline constexpr NameTable<OffloadDevice, 3> kOffloadDeviceNames = {{
    {"none", OffloadDevice::None},
    {"cpu", OffloadDevice::Cpu},
    {"nvme", OffloadDevice::Nvme},
}};

// data_types.grad_accum_dtype, as DeepSpeed names it (fp16 is named to be refused).
enum class GradAccumDtype { Fp32, Bf16, Fp16 };

inline constexpr NameTable<GradAccumDtype, 3> kGradAccumDtypeNames = {{
    {"fp32", GradAccumDtype::Fp32},
    {"bf16", GradAccumDtype::Bf16},
    {"fp16", GradAccumDtype::Fp16},
}};

// Why `dtype` cannot go with `precision`, or nullopt: "fp32" or "bf16", and "bf16" needs
// bf16 training. `bf16_setting` says how the reader's file or command line turns bf16
// training on (`"bf16": {"enabled": true}`, `--precision bf16`), for the message.
std::optional<Message> gradAccumDtypeRefusal(GradAccumDtype dtype, Precision precision,
                                             std::string_view bf16_setting);

// Whether gradients accumulate in fp32 beside bf16 weights: the one choice that changes
// the plan (under fp32 training they are fp32 already, whatever the dtype says).
constexpr bool gradAccumFp32(GradAccumDtype dtype, Precision precision) {
    return dtype == GradAccumDtype::Fp32 && precision == Precision::Bf16Mixed;
}

} // namespace zerolab
