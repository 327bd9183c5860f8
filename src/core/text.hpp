// What a text field (model.name, hardware.gpu, …) may hold: UTF-8 (RFC 3629), at most 200
// characters, and no characters that are invisible or act on the text around them (controls,
// bidirectional overrides, zero-width and other format characters). validate() applies it to
// every text field of the field table, so the JSON, link, CLI, JS API and page all share it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace vramcalc {

inline constexpr std::size_t max_text_length = 200;  // characters (Unicode code points)

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlongs, surrogates or
// code points above U+10FFFF), or 0.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);
bool valid_utf8(std::string_view text);
// The code point of the well-formed sequence of `length` bytes at text[i].
char32_t utf8_code_point(std::string_view text, std::size_t i, std::size_t length);
// Code points of well-formed UTF-8 text.
std::size_t utf8_length(std::string_view text);

// C0 and C1 controls and DEL (Unicode category Cc), the line and paragraph separators (Zl, Zp)
// and the format characters (Cf: bidirectional embeddings, overrides, isolates and marks,
// zero-width space/joiners, word joiner, BOM, interlinear annotation, tag characters, …), per
// Unicode 15.1 DerivedGeneralCategory.txt. None is visible; several reorder or hide the text
// around them (U+202E turns "$39,950" into "059,93$").
bool is_control_or_format(char32_t code_point);

// "" when `text` may be the value of a text field; otherwise the rule it breaks, e.g.
// "must not contain control or invisible formatting characters (U+202E at character 4)".
std::string text_field_problem(std::string_view text);
// text_field_problem(text).empty(), without building a message.
bool text_field_ok(std::string_view text);

// `text` for display where the rule may not have been applied yet (the page's text summary while a
// field is being edited): bytes that are not UTF-8 and control and format characters become U+FFFD,
// so nothing invisible reaches the page, a terminal or a screen reader.
std::string visible_text(std::string_view text);

}  // namespace vramcalc
