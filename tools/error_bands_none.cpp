// The generator's own table: empty. vramcalc_gen_error_bands makes the table, so it cannot link it;
// its estimates carry no band, and it reads none.
#include "core/error_bands.hpp"

namespace vramcalc {

std::span<const ErrorBandRow> measured_error_bands() { return {}; }

}  // namespace vramcalc
