#include "flows/load_spool.hpp"

#include "core/errors.hpp"
#include "net/spool.hpp"
#include "net/spool_policy.hpp"

namespace loader::flows::load_detail
{
Limit tidy_before_download(LoadRequest const &rq, Limit const &input,
                           Logger const &log)
{
  std::string const dir{spool_dir_of(rq)};
  net::SpoolLimits limits;
  limits.max_bytes = rq.feed.spool_max_bytes;
  limits.max_input_bytes = input.bytes;
  net::SpoolPlan const plan{net::tidy_spool(dir, limits)};
  if (not plan.expired.empty() or not plan.evicted.empty())
    log.info("spool tidied",
             {{"spool", dir},
              {"expired", static_cast<std::int64_t>(plan.expired.size())},
              {"evicted", static_cast<std::int64_t>(plan.evicted.size())},
              {"kept_bytes", static_cast<std::int64_t>(plan.kept_bytes)}});
  std::string const bound{"--spool-max-bytes " +
                          std::to_string(rq.feed.spool_max_bytes)};
  if (plan.room == 0)
    throw LoaderError{ErrorKind::config,
                      "the spool " + dir + " is full: it holds " +
                        std::to_string(plan.kept_bytes) + " bytes under " +
                        bound +
                        " and every file in it was used within the hour; "
                        "nothing was downloaded or registered. Raise "
                        "--spool-max-bytes, or load again once the other "
                        "runs are done"};
  if (plan.room < input.bytes)
    return {plan.room,
            "the room left in the spool " + dir + " under " + bound};
  return input;
}

net::Downloaded download_into_spool(Retrier &retry, LoadRequest const &rq,
                                    Limit const &input, Logger const &log)
{
  net::remove_stale_temporaries(spool_dir_of(rq), std::chrono::hours{24});
  Limit const limit{tidy_before_download(rq, input, log)};
  net::Downloaded file{fetch(retry, rq.input, "download", rq, log, limit)};
  if (file.not_modified) net::mark_used(file.path);
  return file;
}

void settle_spooled(LoadRequest const &rq, net::Downloaded const &file,
                    Outcome outcome, int retention_days, Logger const &log)
{
  std::string const dir{spool_dir_of(rq)};
  if (outcome == Outcome::done)
  {
    net::release_spooled(dir, file.sha256);
    log.info("spooled file removed: its batch is published",
             {{"spool", dir}, {"sha256", file.sha256}});
  }
  else if (outcome == Outcome::quarantined)
  {
    net::hold_spooled(dir, file.sha256, retention_days);
    log.info("spooled file kept while its batch is quarantined",
             {{"spool", dir},
              {"sha256", file.sha256},
              {"days", static_cast<std::int64_t>(retention_days)}});
  }
}
} // namespace loader::flows::load_detail
