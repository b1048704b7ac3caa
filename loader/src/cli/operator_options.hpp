#pragma once
#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include "flows/operator_actions.hpp"

namespace loader::cli
{
/// --batch ID and --reason TEXT, shared by replay and revert.
boost::program_options::options_description operator_action_options(
  char const *command);

/// Both required (usage error otherwise); a positive batch id and a reason
/// that is not blank (configuration errors).
flows::OperatorActionRequest bind_operator_action(
  boost::program_options::variables_map const &vm, char const *command);
} // namespace loader::cli
