// Helpers of the Lab tests: a minimal valid teacher lesson as JSON to break one field at a
// time, and the message a parse of it throws.
#pragma once

#include "runtime/lab/lesson_parse.h"

#include <nlohmann/json.hpp>

#include <string>

namespace zerolab::test {

// One step, one run of the nano model at N = 2, stage 1, one value check and a plan step.
inline nlohmann::json minimalLesson() {
    return nlohmann::json::parse(R"({
      "format": 1, "id": "mini-lesson", "order": 99,
      "title": {"en": "A lesson"}, "summary": {"en": "Summary"},
      "base_config": {
        "train_micro_batch_size_per_gpu": 1,
        "optimizer": {"type": "AdamW", "params": {"lr": 1e-3}},
        "bf16": {"enabled": true},
        "zero_optimization": {"stage": 1},
        "model": {"preset": "nano", "seq_len": 16, "recompute": "full"},
        "data": {"type": "synthetic"}
      },
      "steps": [
        {"id": "one", "title": {"en": "Step"}, "text": {"en": "Text"},
         "predictions": [{"id": "guess", "prompt": {"en": "Guess"}, "unit": "psi"}],
         "experiment": {"steps": 1, "runs": [{"id": "n2", "world": 2}]},
         "checks": [{"id": "states", "label": {"en": "States"}, "unit": "psi",
                     "quantity": "model_states", "run": "n2", "formula": "4 + 12/N",
                     "prediction": "guess"}],
         "chart": {"kind": "memory"}},
        {"id": "plan", "title": {"en": "Plan"}, "text": {"en": "Text"},
         "plan": {"params": 6.7e9, "world": 8, "stage": 1, "precision": "bf16",
                  "convention": "chapter"},
         "checks": [{"id": "total", "kind": "erratum", "topic": "stage-1 total",
                     "label": {"en": "Total"}, "unit": "GB",
                     "formula": "(10*psi + 8*psi/N)/GB"},
                    {"id": "states", "label": {"en": "States"}, "unit": "GB",
                     "quantity": "model_states", "stage": 0, "formula": "18*psi/GB"}]}
      ]
    })");
}

// The LessonError message of parsing `doc`; "" when it parses.
inline std::string parseError(const nlohmann::json& doc, bool both_languages = false) {
    try {
        parseLesson(doc.dump(), "t.json", both_languages);
    } catch (const LessonError& e) {
        return e.what();
    }
    return "";
}

} // namespace zerolab::test
