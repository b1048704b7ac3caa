#pragma once
#include <string>

namespace loader::flows
{
/// How a flow ended when it did not throw.  Only main() turns it into an
/// exit code (docs/reference/exit-codes.md); a failure is a LoaderError
/// instead, whose ErrorKind main() maps the same way.
enum class Outcome
{
  done,          ///< what was asked is done (published, migrated, shown)
  quarantined,   ///< the batch is (or would be) quarantined: data error
  no_input,      ///< the input or its manifest is not there
  waiting,       ///< validated; waits for an earlier business date
  busy,          ///< another run holds the batch
  not_delivered, ///< the sender has not delivered the file yet
  refused,       ///< the batch's state does not allow this (configuration)
};

/// What a flow returns: its outcome and the text for stdout (the final
/// summary, a table, a document), printed whatever the outcome.
struct Result
{
  Outcome outcome = Outcome::done;
  std::string output;
};
} // namespace loader::flows
