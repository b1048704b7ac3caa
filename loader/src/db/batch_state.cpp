#include "db/batch_state.hpp"

#include <array>
#include <utility>

#include "core/errors.hpp"

namespace loader::db
{
namespace
{
template<typename E, std::size_t N>
using Words = std::array<std::pair<E, std::string_view>, N>;

constexpr Words<BatchState, 6> batch_states{{
  {BatchState::received, "received"},
  {BatchState::staged, "staged"},
  {BatchState::validated, "validated"},
  {BatchState::published, "published"},
  {BatchState::quarantined, "quarantined"},
  {BatchState::reverted, "reverted"},
}};

constexpr Words<AttemptOutcome, 8> attempt_outcomes{{
  {AttemptOutcome::published, "published"},
  {AttemptOutcome::already_published, "already_published"},
  {AttemptOutcome::quarantined, "quarantined"},
  {AttemptOutcome::waiting, "waiting"},
  {AttemptOutcome::failed, "failed"},
  {AttemptOutcome::abandoned, "abandoned"},
  {AttemptOutcome::interrupted, "interrupted"},
  {AttemptOutcome::busy, "busy"},
}};

constexpr Words<PublishOutcome, 6> publish_outcomes{{
  {PublishOutcome::published, "published"},
  {PublishOutcome::already_published, "already_published"},
  {PublishOutcome::waiting, "waiting"},
  {PublishOutcome::restage, "restage"},
  {PublishOutcome::quarantined, "quarantined"},
  {PublishOutcome::awaiting_approval, "awaiting_approval"},
}};

template<typename E, std::size_t N>
E parse(Words<E, N> const &words, std::string_view s, char const *what)
{
  for (auto const &[value, word] : words)
    if (word == s) return value;
  throw LoaderError{ErrorKind::internal, "the database reports an unknown " +
                                           std::string{what} + " '" +
                                           std::string{s} + "'"};
}

template<typename E, std::size_t N>
std::string_view name(Words<E, N> const &words, E e) noexcept
{
  for (auto const &[value, word] : words)
    if (value == e) return word;
  return "unknown";
}
} // namespace

BatchState parse_batch_state(std::string_view s)
{
  return parse(batch_states, s, "batch state");
}

std::string_view name_of(BatchState s) noexcept
{
  return name(batch_states, s);
}

AttemptOutcome parse_attempt_outcome(std::string_view s)
{
  return parse(attempt_outcomes, s, "attempt outcome");
}

std::string_view name_of(AttemptOutcome o) noexcept
{
  return name(attempt_outcomes, o);
}

PublishOutcome parse_publish_outcome(std::string_view s)
{
  return parse(publish_outcomes, s, "outcome of ingest.publish_batch");
}

std::string_view name_of(PublishOutcome o) noexcept
{
  return name(publish_outcomes, o);
}
} // namespace loader::db
