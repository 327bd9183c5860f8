// The held-out measured comparisons the error bands are made of: every case of tests/data that
// was not in a fitted set, estimated, with its signed error (predicted / measured − 1) per figure.
#pragma once

#include <string>
#include <vector>

#include "core/error_bands.hpp"
#include "core/estimate.hpp"

namespace vramcalc::error_band_tool {

struct Sample {
    std::string id;
    ErrorFigure figure;
    ErrorRegime regime;
    double error;
};

// `problems` names each case that did not decode (the tool then stops).
std::vector<Sample> held_out_samples(const std::string& source_dir, std::vector<std::string>& problems);

}  // namespace vramcalc::error_band_tool
