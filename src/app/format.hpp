// Number formatting for the page: bytes in GiB (default) or GB, counts with B/M/T suffixes,
// FLOPs in scientific notation, durations and money. Formatting only: no formula lives here.
#pragma once

#include <string>

namespace vramcalc::app {

enum class ByteUnits { gib, gb };  // GiB = 2^30 bytes (default), GB = 10^9 bytes

const char* unit_name(ByteUnits units);                   // "GiB" / "GB"
std::string format_bytes(double bytes, ByteUnits units);  // "71.3 GiB", "512 MiB", "1.20 TiB"
double bytes_in_unit(double bytes, ByteUnits units);      // 71.3 (GiB or GB)
std::string format_count(double value);                   // "6.66 B", "124 M", "300 B", "1.2 T"
std::string format_grouped(double value);                 // "1,790" (rounded)
std::string format_sci(double value);                     // "1.21 × 10²²"
std::string format_duration(double seconds);              // "9.3 days", "14.2 hours", "2.1 years"
std::string format_money(double value);                   // "$3,222", "$1.52 M"
std::string format_percent(double fraction);              // "10.9 %"
std::string format_sig(double value, int digits = 3);     // 3 significant digits, no exponent below 1e6

}  // namespace vramcalc::app
