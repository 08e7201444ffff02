// The grad_accum_dtype rule's messages (config_choices.h).
#include "runtime/config/config_choices.h"

#include <string>

namespace zerolab {

std::optional<Message> gradAccumDtypeRefusal(GradAccumDtype dtype, Precision precision,
                                             std::string_view bf16_setting) {
    if (dtype == GradAccumDtype::Fp16)
        return Message(ZEROLAB_TR("ConfigCheck", "fp16 gradients are not implemented; use "
                                                 "\"fp32\" or \"bf16\""));
    if (dtype == GradAccumDtype::Bf16 && precision != Precision::Bf16Mixed)
        return Message(ZEROLAB_TR("ConfigCheck", "bf16 gradients need bf16 training (%1); fp32 "
                                                 "training accumulates in fp32"),
                       {std::string(bf16_setting)});
    return std::nullopt;
}

} // namespace zerolab
