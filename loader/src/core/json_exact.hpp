#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace loader
{
/// Parse JSON keeping every non-integer number as the text it was written
/// in ("4200.00" stays "4200.00", a string), integers as integers.  For
/// money the database sends as numeric: nlohmann's own parser would turn
/// it into a double and print 4200.0.  Returns a discarded value
/// (is_discarded()) when the text is not JSON.
nlohmann::ordered_json parse_exact(std::string const &text);
} // namespace loader
