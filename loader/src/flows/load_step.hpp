#pragma once
// The load flow's steps (internal to flows/load*.cpp): one step from the
// batch's checkpoint (stage, validate, publish, or report a final state),
// and pass 2, the file's records into the COPY.
#include <optional>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "db/load_steps.hpp"
#include "flows/load.hpp"
#include "flows/load_input.hpp"
#include "io/file_scan.hpp"

namespace loader::flows::load_detail
{
/// Pass 2: the file's records into the staging session's COPY, checked
/// against pass 1; returns the records sent.  On a terminal, one updating
/// line: records sent of those counted in pass 1.
std::uint64_t write_records(Input const &in, io::FileScan const &scan,
                            db::StagingSession &staging, Logger const &log);

/// One step from the batch's current checkpoint; returns the result when
/// the run is over, nothing when there is a next step.
std::optional<Result> advance(db::LoadSteps &steps, LoadRequest const &rq,
                              Input const &in, io::FileScan const &scan,
                              db::Attempt &at, Logger const &log);

/// What the run was doing from a checkpoint, for "interrupted during ...".
std::string step_from(db::BatchState s);
} // namespace loader::flows::load_detail
