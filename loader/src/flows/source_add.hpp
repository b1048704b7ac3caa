#pragma once
#include <string>

#include "db/operator.hpp"
#include "flows/outcome.hpp"

namespace loader::flows
{
/// `source add`: what the operator asked for (unset options keep the
/// stored values).
using SourceAddRequest = db::SourceSettings;

Result source_add(std::string const &dsn, SourceAddRequest const &request);
} // namespace loader::flows
