// One scenario field set from text (a link value, a CLI flag value) or checked as a number, with
// messages that name the rule. Shared by the link, JSON and CLI decoders.
#pragma once

#include <string>
#include <string_view>

#include "core/fields.hpp"

namespace vramcalc::codec {

// Sets one field from text; returns an issue message, or "" on success.
std::string set_field_from_text(Scenario& scenario, const FieldSpec& field, std::string_view text);

// Sets one field from a value already of the field's type, with the field's rule (what every
// decoder does once it has read the value): integers and numbers checked by check_numeric,
// booleans (0 = false, else true), a choice by its index. Returns an issue message, or "".
std::string set_field_number(Scenario& scenario, const FieldSpec& field, double value);
// The same for text fields: text_field_problem, then the value.
std::string set_field_text(Scenario& scenario, const FieldSpec& field, std::string_view text);

// "" when `value` suits the field's kind (finite; integers whole and below 2^53), else the message.
std::string check_numeric(const FieldSpec& field, double value);
// The index of a choice name, or -1.
int choice_index(const FieldSpec& field, std::string_view name);
// "gelu, swiglu": the choices of a field for messages.
std::string choice_list(const FieldSpec& field);

}  // namespace vramcalc::codec
