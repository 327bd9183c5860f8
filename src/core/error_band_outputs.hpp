// The rows of the output table (outputs.cpp) that carry a figure's error band, written next to
// the figure: VRC_ERROR_BAND_ROWS("performance.step_seconds", "Step time", S::compute, for_training) adds
// performance.step_seconds_error_band.{low, high, cases, regime}; the figure each workload's band
// comes from is listed once, in banded_outputs() (error_bands.cpp).
#pragma once

#include "error_bands.hpp"

// The output's row of banded_outputs(), looked up once per call site (a string search per read
// was a sixth of the JS API's estimate()).
#define VRC_BANDED(figure)                                                        \
    [] {                                                                          \
        static const ::vramcalc::BandedOutput* row = ::vramcalc::find_banded_output(figure); \
        return row;                                                               \
    }()

#define VRC_ERROR_BAND_ROWS(figure, label, section, workloads)                                                         \
    {figure "_error_band.low", label ": error band, low", "Error band low", Unit::ratio, ValueKind::number,        \
     section, show_none, nullptr,                                                                                   \
     "10th percentile of the signed error (predicted / measured - 1) of held-out measured runs of the same "       \
     "regime (docs/accuracy.md, Error bands); 0 when `cases` is 0.",                                                \
     [](const Estimate& e) -> double { return output_error_band(VRC_BANDED(figure), e).low; }, nullptr, nullptr, workloads},  \
    {figure "_error_band.high", label ": error band, high", "Error band high", Unit::ratio, ValueKind::number,     \
     section, show_none, nullptr,                                                                                   \
     "90th percentile of the signed error of the same held-out runs; 0 when `cases` is 0.",                        \
     [](const Estimate& e) -> double { return output_error_band(VRC_BANDED(figure), e).high; }, nullptr, nullptr, workloads}, \
    {figure "_error_band.cases", label ": error band, cases", "Error band cases", Unit::count, ValueKind::integer, \
     section, show_none, nullptr,                                                                                   \
     "Held-out measured runs the band is made of; 0: no comparable case (`regime` says why), no band.",            \
     [](const Estimate& e) -> double { return output_error_band(VRC_BANDED(figure), e).cases; }, nullptr, nullptr, workloads}, \
    {figure "_error_band.regime", label ": error band, regime", "Error band regime", Unit::text, ValueKind::text,  \
     section, show_none, nullptr,                                                                                   \
     "The regime the runs share (GPU, one node or several, framework or engine, size, sequence), or why there "    \
     "is no band.",                                                                                                 \
     [](const Estimate& e) -> double { return output_error_band(VRC_BANDED(figure), e).cases; }, nullptr,                      \
     [](const Estimate& e) -> const char* { return output_error_band(VRC_BANDED(figure), e).regime; }, workloads}
