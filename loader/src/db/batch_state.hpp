#pragma once
#include <string>
#include <string_view>

namespace loader::db
{
/// The words the database stores for a batch and its attempts, each enum
/// with its one table of text (batch_state.cpp): parsed once when read,
/// written only from the enum, never compared as strings in a flow.

/// A batch's checkpoint (docs/design/data-model.md); the legal moves live
/// in ingest.batch_transition.
enum class BatchState
{
  received,
  staged,
  validated,
  published,
  quarantined,
  reverted,
};

/// How an attempt ended (ingest.attempt.outcome, its check constraint).
enum class AttemptOutcome
{
  published,
  already_published,
  quarantined,
  waiting, ///< validated; waits for an earlier date or another batch
  failed,
  abandoned,   ///< its process died (closed by a later run)
  interrupted, ///< SIGTERM/SIGINT
  busy,        ///< another run held the batch
};

/// How ingest.publish_batch ended.
enum class PublishOutcome
{
  published,
  already_published,
  waiting,     ///< validated; an earlier business date is not published
  restage,     ///< staged rows lost in a crash: back to received
  quarantined, ///< the second reconciliation failed
  /// written, unseen; the source requires an operator's approve (four eyes)
  awaiting_approval,
};

/// Each parse throws LoaderError{internal} for a word the binary does not
/// know; each name_of returns the stored word ("unknown" for no value).
BatchState parse_batch_state(std::string_view s);
std::string_view name_of(BatchState s) noexcept;
AttemptOutcome parse_attempt_outcome(std::string_view s);
std::string_view name_of(AttemptOutcome o) noexcept;
PublishOutcome parse_publish_outcome(std::string_view s);
std::string_view name_of(PublishOutcome o) noexcept;
} // namespace loader::db
