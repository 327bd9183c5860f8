// Least-squares fit of the throughput model's free constants (log step-time error) on the cases
// marked "fit"; shared by the fit tool and the test that checks the shipped constants are the fit.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/training/performance.hpp"
#include "throughput_cases.hpp"

namespace vramcalc::throughput_fit {

inline double objective(const std::vector<throughput_cases::Case>& cases, const ThroughputConstants& c) {
    double sum = 0;
    for (const auto& k : cases) {
        if (!k.fit) continue;
        Estimate e = estimate(k.scenario);
        predict_performance(k.scenario, e, c);
        double err = std::log(e.performance.step_seconds / k.measured_step_seconds);
        sum += err * err;
    }
    return sum;
}

// Coordinate descent with golden-section search per constant, inside physical bounds.
inline ThroughputConstants fit(const std::vector<throughput_cases::Case>& cases, ThroughputConstants c) {
    struct Param {
        double ThroughputConstants::*member;
        double lo, hi;
    };
    const Param params[] = {
        {&ThroughputConstants::compute_factor, 0.8, 1.6},
        {&ThroughputConstants::inter_node_efficiency, 0.5, 1.0},  // NCCL reaches at least half the line rate on large messages
        {&ThroughputConstants::overlap_fraction, 0.0, 1.0},
        {&ThroughputConstants::step_overhead_seconds, 0.0, 2.0},
        {&ThroughputConstants::deepspeed_zero3_efficiency, 0.02, 1.0},
    };
    const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
    for (int round = 0; round < 12; ++round) {
        for (const auto& p : params) {
            double a = p.lo, b = p.hi;
            auto f = [&](double x) {
                ThroughputConstants trial = c;
                trial.*(p.member) = x;
                return objective(cases, trial);
            };
            double x1 = b - golden * (b - a), x2 = a + golden * (b - a);
            double f1 = f(x1), f2 = f(x2);
            for (int i = 0; i < 40; ++i) {
                if (f1 < f2) {
                    b = x2, x2 = x1, f2 = f1;
                    x1 = b - golden * (b - a), f1 = f(x1);
                } else {
                    a = x1, x1 = x2, f1 = f2;
                    x2 = a + golden * (b - a), f2 = f(x2);
                }
            }
            c.*(p.member) = (a + b) / 2.0;
        }
    }
    return c;
}

struct Summary {
    double fit_median = 0, fit_max = 0, held_out_median = 0, held_out_max = 0;
    int fit_count = 0, held_out_count = 0, partly_specified_count = 0;
};

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// |relative error| statistics with the shipped constants.
inline Summary summarize(const std::vector<throughput_cases::Case>& cases) {
    std::vector<double> fit, held;
    Summary s;
    for (const auto& k : cases) {
        Estimate e = estimate(k.scenario);
        double err = std::fabs(throughput_cases::relative_error(k, e));
        (k.fit ? fit : held).push_back(err);
        if (k.partly_specified) ++s.partly_specified_count;
    }
    s.fit_median = median(fit);
    s.held_out_median = median(held);
    s.fit_max = fit.empty() ? 0 : *std::max_element(fit.begin(), fit.end());
    s.held_out_max = held.empty() ? 0 : *std::max_element(held.begin(), held.end());
    s.fit_count = int(fit.size());
    s.held_out_count = int(held.size());
    return s;
}

}  // namespace vramcalc::throughput_fit
