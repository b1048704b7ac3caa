#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "core/log.hpp"
#include "flows/load.hpp"
#include "flows/outcome.hpp"

namespace loader::flows
{
/// `catch-up --source S [--until D]`.
struct CatchUpRequest
{
  std::string source;
  /// The last business date to load; nothing: yesterday (UTC).
  std::optional<std::string> until;
  /// What each date's load gets besides its date, input and manifest:
  /// the retry bounds (each date is a run with its own budget) and the
  /// feed options.
  RetryPolicy retry;
  FeedOptions feed;
  /// --dry-run: write the URL each due date resolves to ("D would fetch
  /// <url>", userinfo removed) and load nothing.
  bool dry_run = false;
};

/// Every business date after the source's watermark (or from its start
/// date when nothing is published yet) up to `until`, in date order, each
/// loaded by load_batch from the source's feed URL template ({date}) with
/// the manifest next to it; stops at the first date that does not
/// publish.  Writes one line per date to `out` as it goes: "D published:
/// batch N published: <counts>", "D already published: ...", "D not
/// delivered: <url> is not delivered yet ...", "D quarantined: batch N is
/// quarantined ...:" and its first reasons (indented lines), "D waiting:
/// ...", or "D failed (exit C, class): <error>".  Returns done only if every
/// date up to `until` is published (by this run or an earlier one); otherwise
/// the first failing date's outcome, or rethrows its LoaderError.  A source
/// without a feed URL, or with neither a watermark nor a start date:
/// LoaderError config.  Rerunning is always safe: published dates are behind
/// the watermark and are not fetched again.
Result catch_up(std::string const &dsn, CatchUpRequest const &request,
                Logger const &log, std::ostream &out);

/// Calendar helpers (UTC, proleptic Gregorian), for catch-up and tests:
/// days since 1970-01-01 of a valid "YYYY-MM-DD", and back.
std::int64_t days_of(std::string const &date);
std::string date_of(std::int64_t days);
/// Yesterday in UTC, YYYY-MM-DD.
std::string yesterday_utc();
} // namespace loader::flows
