#pragma once
// The load flow and the spool (internal to flows/load*.cpp): tidy it
// before a download and settle the run's file when its batch ends, by the
// rules of net/spool_policy.hpp.
#include "core/log.hpp"
#include "flows/load.hpp"
#include "flows/load_input.hpp"
#include "flows/outcome.hpp"
#include "net/transport.hpp"

namespace loader::flows::load_detail
{
/// Remove what the spool no longer needs and make room for one input;
/// returns the limit of the download: --max-input-bytes, or the room left
/// when that is less.  A spool with no room at all: LoaderError config,
/// nothing downloaded.
Limit tidy_before_download(LoadRequest const &rq, Limit const &input,
                           Logger const &log);

/// A URL input into the spool: stale partial files removed, the spool
/// tidied (tidy_before_download), the body fetched under the run's retry
/// layer within `input` or the room left; a 304's earlier file marked in
/// use again.
net::Downloaded download_into_spool(Retrier &retry, LoadRequest const &rq,
                                    Limit const &input, Logger const &log);

/// The batch of the spooled file ended with outcome: published (done)
/// removes the file, quarantined holds it for retention_days; anything
/// else leaves it as a cache.
void settle_spooled(LoadRequest const &rq, net::Downloaded const &file,
                    Outcome outcome, int retention_days, Logger const &log);
} // namespace loader::flows::load_detail
