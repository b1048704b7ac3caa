#pragma once
#include <cstdint>
#include <string>

#include "flows/outcome.hpp"

namespace loader::flows
{
/// `replay` and `revert` (operator commands: docs/guide/recover.md): a
/// batch and why.
struct OperatorActionRequest
{
  std::int64_t batch_id = 0;
  std::string reason;
  /// replay only: the full extract may close more than the source's max
  /// absent share (kept with the action).
  bool allow_absent_share = false;
};

/// Authorize one new attempt of a quarantined or reverted batch; prints
/// the attempt it supersedes and what to run next.
Result replay(std::string const &dsn, OperatorActionRequest const &request);

/// Undo the latest publication of a source in one transaction; prints what
/// left and came back, and the watermark now.
Result revert(std::string const &dsn, OperatorActionRequest const &request);

/// `revert --source S --to-date D`: every publication of S after business
/// date D, newest first, in one transaction.
struct RevertToDateRequest
{
  std::string source;
  std::string to_date; ///< YYYY-MM-DD
  std::string reason;
};

/// Undo them (ingest.revert_to_date); prints one line per batch and the
/// watermark now.
Result revert_to_date(std::string const &dsn,
                      RevertToDateRequest const &request);

/// The line a recovery command prints when its source requires four eyes:
/// the request's action id and how a second operator confirms it.
std::string awaiting_confirmation(std::int64_t action_id,
                                  std::string const &what);

/// `approve` and `reject` of a batch awaiting approval (four eyes).
Result approve(std::string const &dsn, OperatorActionRequest const &request);
Result reject(std::string const &dsn, OperatorActionRequest const &request);

/// `confirm --action ID`: a second operator carries out a request.
Result confirm(std::string const &dsn, std::int64_t action_id);
} // namespace loader::flows
