#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace loader::db
{
/// What `source add` asks for; an option left out keeps the stored value
/// (or the default for a new source).
struct SourceSettings
{
  std::string name;
  std::optional<std::string> policy;             ///< all-or-nothing|partial
  std::optional<std::string> max_rejected_share; ///< decimal in [0,1]
  std::optional<std::string> start_date;         ///< YYYY-MM-DD
  std::optional<std::string> feed_url;
  std::optional<bool> allow_unknown_columns;
  std::optional<std::string> deadline;         ///< HH:MM, UTC, on D+1
  std::optional<int> retention_days;           ///< staging kept, days
  std::optional<std::int64_t> max_input_bytes; ///< the source's input limit
  /// The largest decompressed size of a compressed input.
  std::optional<std::int64_t> max_decompressed_bytes;
  /// --format-file: the format's canonical JSON (io::format_json).
  std::optional<std::string> format_json;
  /// Four eyes (ingest.set_source_approval): batches wait for approve,
  /// recovery actions for a second operator's confirm.
  std::optional<bool> require_approval;
  std::optional<std::string> extract;          ///< delta|full
  std::optional<std::string> max_absent_share; ///< decimal in [0,1]
};

/// The source as stored after `source add`; absent values are nullopt.
struct StoredSource
{
  std::string name;
  std::string policy;
  std::optional<std::string> max_rejected_share;
  std::optional<std::string> start_date;
  std::optional<std::string> feed_url;
  bool allow_unknown_columns = false;
  std::optional<std::string> deadline;
  int retention_days = 30;
  std::optional<std::int64_t> max_input_bytes; ///< nullopt: the loader's
  /// nullopt: the default (20 times the delivered size, at most 10 GiB).
  std::optional<std::int64_t> max_decompressed_bytes;
  /// The version of its file format (nullopt: the contract's) and the
  /// format's stored JSON.
  std::optional<int> format_version;
  std::optional<std::string> format_json;
  bool require_approval = false;
  std::string extract{"delta"};         ///< delta|full
  std::string max_absent_share{"0.10"}; ///< with full: the guard's share
};

/// ingest.add_source (operator): register or update a source.
StoredSource add_source(Database &db, SourceSettings const &s);

/// What ingest.replay_batch recorded: an unused authorization for the next
/// load, superseding the batch's latest attempt.
struct Replayed
{
  std::int64_t action_id = 0;
  std::int64_t batch_id = 0;
  std::optional<int> superseded_attempt_no;
  std::optional<std::string> superseded_run_id;
  bool created = true; ///< false: an unused authorization was already there
  /// Four eyes: recorded as a request (action_id) awaiting a second
  /// operator's confirm; nothing else changed.
  bool pending = false;
};

/// ingest.replay_batch (operator; IV401 otherwise, IV305 a batch that is
/// neither quarantined nor reverted, IV307 no reason, IV208 no batch).
/// `allow_absent_share`: the replayed full extract may close more than the
/// source's max absent share (IV312 while an authorization without it is
/// unused).
Replayed replay_batch(Database &db, std::int64_t batch_id,
                      std::string const &reason,
                      bool allow_absent_share = false);

/// What ingest.revert_batch did.
struct Reverted
{
  std::int64_t action_id = 0;
  std::int64_t batch_id = 0;
  long reverted_versions = 0;
  long restored_versions = 0;
  std::optional<std::string> watermark; ///< the source's now, or none
  std::optional<int> superseded_attempt_no;
  std::optional<std::string> superseded_run_id;
  bool pending = false; ///< a request awaiting confirm (four eyes)
};

/// ingest.revert_batch (operator; IV305 not published, IV306 a later
/// publication must be reverted first).
Reverted revert_batch(Database &db, std::int64_t batch_id,
                      std::string const &reason);

/// What ingest.set_period_lock did: the action (none when nothing changed)
/// and the lock date before and after (none: no closed period).
struct PeriodLock
{
  std::optional<std::int64_t> action_id;
  std::optional<std::string> before;
  std::optional<std::string> now;
  bool pending = false; ///< a request awaiting confirm (four eyes)
};

/// ingest.set_period_lock (operator): close the source's period through
/// `through` (close), or reopen it back to `through` (none: entirely).
/// IV301 unknown source, IV309 the wrong direction, IV307 no reason.
PeriodLock set_period_lock(Database &db, std::string const &source, bool close,
                           std::optional<std::string> const &through,
                           std::string const &reason);

/// One batch ingest.revert_to_date undid.
struct RevertedToDate
{
  std::int64_t action_id = 0;
  std::int64_t batch_id = 0;
  std::string business_date;
  long reverted_versions = 0;
  long restored_versions = 0;
  std::optional<std::string> watermark; ///< after this batch's revert
  /// Four eyes: the only row, a request (action_id) awaiting confirm.
  bool pending = false;
};

/// ingest.revert_to_date (operator): every publication of the source after
/// the date, newest first, in one transaction; errors as revert_batch.
std::vector<RevertedToDate> revert_to_date(Database &db,
                                           std::string const &source,
                                           std::string const &date,
                                           std::string const &reason);

/// What ingest.approve_batch did: the batch published.
struct Approved
{
  std::int64_t action_id = 0;
  std::int64_t batch_id = 0;
  std::optional<std::string> watermark;
  std::string counts_json;
};

/// ingest.approve_batch (operator; IV315 not awaiting approval).
Approved approve_batch(Database &db, std::int64_t batch_id,
                       std::string const &reason);

/// What ingest.reject_batch did: the batch quarantined, its write undone.
struct Rejected
{
  std::int64_t action_id = 0;
  std::int64_t batch_id = 0;
  long withdrawn_versions = 0;
  long restored_versions = 0;
};

/// ingest.reject_batch (operator; IV315 not awaiting approval).
Rejected reject_batch(Database &db, std::int64_t batch_id,
                      std::string const &reason);

/// What ingest.confirm_action carried out.
struct Confirmed
{
  std::int64_t action_id = 0;
  std::string requested_action; ///< replay|revert|revert_to_date|period_reopen
  std::string requested_by;
  std::string confirmed_by;
  std::string result_json; ///< the entry point's rows, as JSON
};

/// ingest.confirm_action (operator; IV402 the requester, IV316 no such
/// request, IV317 already confirmed).
Confirmed confirm_action(Database &db, std::int64_t action_id);
} // namespace loader::db
