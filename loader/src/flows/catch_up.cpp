#include "flows/catch_up.hpp"

#include <cstdio>
#include <ctime>

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "db/load_steps.hpp"
#include "net/transport.hpp"

namespace loader::flows
{
// days_of / date_of: Howard Hinnant's days_from_civil and civil_from_days
// (public domain, http://howardhinnant.github.io/date_algorithms.html);
// C++17 has no calendar, and timegm would depend on the process's TZ rules.
std::int64_t days_of(std::string const &date)
{
  int y = 0;
  unsigned m = 0, d = 0;
  if (std::sscanf(date.c_str(), "%4d-%2u-%2u", &y, &m, &d) != 3)
    throw LoaderError{ErrorKind::internal, "not a date: " + date};
  y -= m <= 2;
  std::int64_t const era = (y >= 0 ? y : y - 399) / 400;
  auto const yoe = static_cast<unsigned>(y - era * 400);
  unsigned const doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  unsigned const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::string date_of(std::int64_t z)
{
  z += 719468;
  std::int64_t const era = (z >= 0 ? z : z - 146096) / 146097;
  auto const doe = static_cast<unsigned>(z - era * 146097);
  unsigned const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
  unsigned const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned const mp = (5 * doy + 2) / 153;
  unsigned const d = doy - (153 * mp + 2) / 5 + 1;
  unsigned const m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02u",
                static_cast<long long>(y), m, d);
  return buffer;
}

std::string yesterday_utc()
{
  return date_of(static_cast<std::int64_t>(std::time(nullptr)) / 86400 - 1);
}

namespace
{
/// A load's summary without its final line end.
std::string trimmed(std::string s)
{
  while (not s.empty() and s.back() == '\n') s.pop_back();
  return s;
}

/// The first word(s) of a date's line.
char const *state_word(LoadReport const &r)
{
  switch (r.result.outcome)
  {
  case Outcome::done:
    return r.already_published ? "already published" : "published";
  case Outcome::quarantined: return "quarantined";
  case Outcome::waiting: return "waiting";
  case Outcome::not_delivered: return "not delivered";
  case Outcome::no_input: return "not delivered";
  case Outcome::busy: return "busy";
  case Outcome::refused: return "refused";
  }
  return "failed";
}
} // namespace

namespace
{
/// The source's settings, read under the run's retry layer.
db::SourceConfig read_source(std::string const &dsn, CatchUpRequest const &rq,
                             Logger const &log)
{
  db::LoadSteps steps{dsn};
  Retrier retry{rq.retry, log};
  return retry.run(
    "connect",
    [&] {
      throw_if_interrupted("connecting");
      steps.connect();
      return steps.get_source(rq.source);
    },
    [&steps] { steps.disconnect(); });
}

/// The first business date due: the day after the watermark, else the
/// start date.  A source without a feed URL or without either date cannot
/// be caught up (config).
std::int64_t first_due(CatchUpRequest const &rq,
                       db::SourceConfig const &source)
{
  if (not source.feed_url)
    throw LoaderError{ErrorKind::config,
                      "source " + rq.source +
                        " has no feed URL, so there "
                        "is nothing to catch up from; an operator sets one "
                        "with: invoice-loader source add " +
                        rq.source +
                        " --feed-url 'https://host/path/{date}.csv'"};
  if (source.watermark) return days_of(*source.watermark) + 1;
  if (source.start_date) return days_of(*source.start_date);
  throw LoaderError{ErrorKind::config,
                    "source " + rq.source +
                      " has published nothing and "
                      "has no start date, so catch-up does not know its "
                      "first business date; load the first one with "
                      "'invoice-loader load', or set one with: "
                      "invoice-loader source add " +
                      rq.source + " --start-date YYYY-MM-DD"};
}

/// The line when no date is due.
void nothing_due(CatchUpRequest const &rq, db::SourceConfig const &source,
                 std::int64_t first, std::string const &until,
                 std::ostream &out)
{
  if (source.watermark)
    out << "nothing to catch up: " << rq.source << " is published up to "
        << *source.watermark << ", at or after " << until << "\n";
  else
    out << "nothing to catch up: " << rq.source << " starts on "
        << date_of(first) << ", after " << until << "\n";
  out << std::flush;
}

/// Load one date exactly as `load --source S --business-date D --input URL`
/// does, and write its line.
LoadReport load_one(std::string const &dsn, CatchUpRequest const &rq,
                    std::string const &feed_url, std::string const &date,
                    Logger const &run_log, std::ostream &out)
{
  LoadRequest one;
  one.source = rq.source;
  one.business_date = date;
  one.input = net::expand_feed_template(feed_url, date);
  one.retry = rq.retry;
  one.feed = rq.feed;
  LoadReport report;
  try
  {
    report = load_batch(dsn, one, run_log);
  }
  catch (LoaderError const &e)
  {
    out << date << " failed (exit " << exit_code_of(e.kind) << ", "
        << name_of(e.kind) << "): " << one_line(e.what(), false) << "\n"
        << std::flush;
    throw;
  }
  out << date << " " << state_word(report) << ": "
      << trimmed(report.result.output) << "\n"
      << std::flush;
  return report;
}
} // namespace

Result catch_up(std::string const &dsn, CatchUpRequest const &rq,
                Logger const &run_log, std::ostream &out)
{
  Logger const log{run_log.with({{"source", rq.source}})};
  install_interrupt_handlers();
  db::SourceConfig const source{read_source(dsn, rq, log)};
  std::int64_t const first = first_due(rq, source);
  std::string const until{rq.until ? *rq.until : yesterday_utc()};
  std::int64_t const last = days_of(until);
  log.info("catching up",
           {{"feed", net::redact_url(*source.feed_url)},
            {"watermark", source.watermark ? *source.watermark : "none"},
            {"from", date_of(first)},
            {"until", until},
            {"dry_run", rq.dry_run}});
  if (first > last)
  {
    nothing_due(rq, source, first, until, out);
    return {Outcome::done, ""};
  }
  for (std::int64_t day = first; day <= last; ++day)
  {
    throw_if_interrupted("catch-up");
    std::string const date{date_of(day)};
    if (rq.dry_run)
    {
      out << date << " would fetch "
          << net::redact_url(net::expand_feed_template(*source.feed_url, date))
          << "\n";
      continue;
    }
    LoadReport const report{
      load_one(dsn, rq, *source.feed_url, date, run_log, out)};
    if (report.result.outcome != Outcome::done)
    {
      log.warn("catch-up stopped at the first date that did not publish",
               {{"business_date", date},
                {"batch", report.batch_id},
                {"dates_left", last - day}});
      return {report.result.outcome, ""};
    }
  }
  out << std::flush;
  if (not rq.dry_run) log.info("caught up", {{"until", until}});
  return {Outcome::done, ""};
}
} // namespace loader::flows
