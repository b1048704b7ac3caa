#include "db/batch_state.hpp"

#include <array>
#include <utility>

#include "core/errors.hpp"

namespace loader::db
{
namespace
{
constexpr std::array<std::pair<BatchState, std::string_view>, 6> names{{
  {BatchState::received, "received"},
  {BatchState::staged, "staged"},
  {BatchState::validated, "validated"},
  {BatchState::published, "published"},
  {BatchState::quarantined, "quarantined"},
  {BatchState::reverted, "reverted"},
}};
} // namespace

BatchState parse_batch_state(std::string_view s)
{
  for (auto const &[state, name] : names)
    if (name == s) return state;
  throw LoaderError{ErrorKind::internal,
                    "the database reports an unknown batch state '" +
                      std::string{s} + "'"};
}

std::string_view name_of(BatchState s) noexcept
{
  for (auto const &[state, name] : names)
    if (state == s) return name;
  return "unknown";
}
} // namespace loader::db
