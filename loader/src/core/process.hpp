#pragma once
#include <string>

namespace loader
{
/// This machine's name as attempts and claims record it ("unknown" when
/// gethostname fails).
std::string host_name();
} // namespace loader
