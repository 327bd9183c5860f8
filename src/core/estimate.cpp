// The entry points: estimate() runs the stages of a workload in order, each a pure function of
// what it names, and gathers their values into one Estimate; evaluate() validates first.
//   training: layout → parameter counts (model/architecture) → fine-tuning counts (training/finetune)
//             → memory (training/memory_model) → compute (training/compute) → step time
//             (training/performance) → warnings (warnings.cpp)
//   inference: layout → parameter counts → the serving estimate (serving/serving) → warnings
#include "estimate.hpp"

#include <cmath>

#include "core/error_bands.hpp"
#include "core/formulas.hpp"
#include "core/model/architecture.hpp"
#include "core/model/presets.hpp"
#include "core/serving/serving.hpp"
#include "core/training/compute.hpp"
#include "core/training/finetune.hpp"
#include "core/training/memory_model.hpp"
#include "core/training/performance.hpp"
#include "core/warnings.hpp"
#include "outputs.hpp"

namespace vramcalc {
namespace f = formulas;

namespace {

// Serving (docs/serving.md): the shared rows of the estimate come from the serving estimate.
Estimate estimate_serving(const Scenario& sc) {
    Estimate e;
    e.workload = Workload::inference;
    e.layout = resolve_layout(sc);
    e.parameters = count_model_parameters(sc.model, e.layout);
    e.parameters.trainable = 0;
    e.params_per_gpu = e.parameters.total / double(sc.parallel.tensor * sc.parallel.pipeline);
    e.inference = estimate_inference(sc, e.layout, e.parameters);
    const auto& m = e.inference.memory;
    auto& mem = e.memory_per_gpu_bytes;
    mem.weights = m.weights;
    mem.kv_cache = m.kv_cache;
    mem.activations = m.activations;
    mem.overhead = m.overhead;
    mem.total = m.total;
    mem.peak_allocated = m.weights + m.kv_cache + m.activations;
    mem.peak_reserved = mem.peak_allocated;
    e.host_memory_bytes.per_gpu = e.inference.host_bytes;
    e.host_memory_bytes.total = e.inference.host_bytes;
    e.capacity_bytes = sc.hardware.memory_gib * bytes_per_gib;
    e.headroom_bytes = e.inference.kv_pool_bytes - m.kv_cache;
    e.fits = e.inference.fits;
    e.warnings = raised_warnings(sc, e);
    e.error_regime = error_regime_of(sc, e);
    return e;
}

// Bytes per parameter of weights, gradients and optimizer states for the precision and optimizer.
BytesPerParameter bytes_per_parameter(const TrainingConfig& tr) {
    BytesPerParameter b;
    b.weights = f::weight_bytes_per_param(tr.precision);
    b.gradients = f::gradient_bytes_per_param(tr.precision, tr.grad_dtype);
    b.optimizer = f::optimizer_bytes_per_param(tr.precision, tr.optimizer);
    return b;
}

// Training: the stages in order, each writing its rows of the one Estimate that is returned.
Estimate estimate_training(const Scenario& sc) {
    Estimate e;
    const auto& tr = sc.training;
    e.layout = resolve_layout(sc);
    e.parameters = count_model_parameters(sc.model, e.layout);
    count_fine_tuning(sc, e.layout, e.parameters);
    e.scenario_method = tr.method;
    e.bytes_per_parameter = bytes_per_parameter(tr);

    training_memory(sc, e.layout, e.parameters, e.bytes_per_parameter,
                    {e.params_per_gpu, e.model_states_bytes, e.activations, e.memory_timeline, e.memory_per_gpu_bytes,
                     e.host_memory_bytes});
    e.capacity_bytes = sc.hardware.memory_gib * bytes_per_gib;
    e.headroom_bytes = e.capacity_bytes - e.memory_per_gpu_bytes.total;
    e.fits = e.memory_per_gpu_bytes.total <= e.capacity_bytes;

    e.compute = training_compute(sc, e.layout, e.parameters);
    bool predicted = sc.hardware.throughput_model == ThroughputModel::predicted;
    predict_performance(sc, e, throughput_constants(predicted ? gpu_family(sc.hardware.gpu) : GpuFamily::generic));
    e.warnings = raised_warnings(sc, e);
    e.error_regime = error_regime_of(sc, e);
    return e;
}

}  // namespace

// Each workload's estimate is built in the caller's result (one named Estimate per function, so
// no copy of its ~1.5 KB on the way out).
Estimate estimate(const Scenario& sc) {
    return sc.workload == Workload::inference ? estimate_serving(sc) : estimate_training(sc);
}

Evaluation evaluate(const Scenario& scenario) {
    Evaluation result;
    result.errors = validate(scenario);
    if (!result.errors.empty()) return result;
    result.estimate = estimate(scenario);
    // A last guard: the rules keep every output finite (the fuzz targets check it on every input
    // they make); should one not be, the input is rejected instead of showing "inf" or "—".
    for (const auto& o : outputs()) {
        if (std::isfinite(o.value(result.estimate))) continue;
        result.errors.push_back({"scenario", std::string("gives a non-finite ") + o.label + " (" + o.path +
                                                 "): some input is outside the range the estimate covers"});
        break;
    }
    return result;
}

}  // namespace vramcalc
