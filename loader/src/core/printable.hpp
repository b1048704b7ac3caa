#pragma once
#include <string>
#include <string_view>

namespace loader
{
/// Free text (a reason, a rejection's detail, a source or header name, a
/// URL) made safe for a terminal and a log line, the same way everywhere
/// and like ingest.printable in SQL: C0 controls (newline and tab too)
/// and DEL as \xNN, C1 controls and the bidirectional and line-separator
/// controls (U+061C, U+200E, U+200F, U+2028-U+202E, U+2066-U+2069) as
/// \uNNNN, and each byte that is not valid UTF-8 as \xNN.  Everything
/// else is copied as is, so ordinary text comes back unchanged.
std::string printable(std::string_view text);
} // namespace loader
