#pragma once
#include <string_view>

namespace loader
{
/// Test hook, built into the release binary (docs/reference/failpoints.md,
/// so that fault tests run the binary that ships): when
/// the environment variable INVOICE_LOADER_FAILPOINT names this point, the
/// process kills itself with SIGKILL right here: no cleanup, no rollback
/// sent, no log flushed beyond one line to stderr.  Names: after_received,
/// before_register_commit (begin_attempt done, e.g. a replay's
/// authorization consumed, not committed), mid_copy, after_staged,
/// after_validated, after_write_commit (the versions written, unseen, the
/// publishing transaction not begun), before_publish_commit,
/// after_publish_commit,
/// before_revert_commit, after_notify_send (notify: the sink accepted, the
/// row not yet marked) (see docs/reference/failpoints.md).
void failpoint(std::string_view name) noexcept;

/// True when INVOICE_LOADER_FAILPOINT names this point (for points that
/// must prepare before dying, such as sending COMMIT first).
bool failpoint_armed(std::string_view name) noexcept;
} // namespace loader
