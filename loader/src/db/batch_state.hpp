#pragma once
#include <string>
#include <string_view>

namespace loader::db
{
/// A batch's checkpoint (docs/design/data-model.md), parsed once here from the
/// database's text; the legal moves live in ingest.batch_transition.
enum class BatchState
{
  received,
  staged,
  validated,
  published,
  quarantined,
  reverted,
};

/// Throws LoaderError{internal} for a state the binary does not know.
BatchState parse_batch_state(std::string_view s);
std::string_view name_of(BatchState s) noexcept;
} // namespace loader::db
