// Everything the codec offers, for code that wants it all (the CLI, the JS API, tests). The page
// includes only what it needs (codec/link.hpp, codec/field_text.hpp), never nlohmann-json headers.
//   text.hpp        UTF-8 validity, user text quoted safely in messages
//   percent.hpp     percent-encoding of link keys and values
//   numbers.hpp     shortest round-trip number printing, strict number parsing
//   field_text.hpp  one field set from text (links, CLI flags)
//   typed.hpp       what a person types into a number field ("1.5K", "300B") as strict number text
//   decoded.hpp     what the scenario decoders return (the scenario, its issues and notes)
//   scenario_json.hpp  Scenario ⇄ JSON, the estimate as JSON (nlohmann-json)
//   plan_json.hpp   the planner's results as JSON (nlohmann-json)
//   link.hpp        Scenario ⇄ link fragment, versioned against frozen preset editions
//   view.hpp        view settings in a link (units, theme, embed): never part of the scenario
//   import_hf.hpp, import_deepspeed.hpp   foreign configs (nlohmann-json)
#pragma once

#include "codec/field_text.hpp"
#include "codec/scenario_json.hpp"
#include "codec/link.hpp"
#include "codec/view.hpp"
#include "codec/numbers.hpp"
#include "codec/text.hpp"
