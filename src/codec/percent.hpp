// Percent-encoding of link fragment keys and values (RFC 3986: unreserved characters stay).
#pragma once

#include <string>
#include <string_view>

namespace vramcalc::codec {

std::string percent_encode(std::string_view text);
// False on a malformed escape: "%" must be followed by exactly two hex digits ("%", "%4", "%ZZ",
// "%-1" are malformed).
bool percent_decode(std::string_view text, std::string& out);

}  // namespace vramcalc::codec
