#pragma once
#include <cstddef>
// What the load flow prints (internal to flows/load*.cpp): the merge
// sentence, the first rejections, the dry run's verdict.
#include <cstdint>
#include <string>
#include <vector>

#include "db/load_steps.hpp"
#include "flows/load_input.hpp"
#include "flows/outcome.hpp"

namespace loader::flows::load_detail
{
/// How many rejections a load or a dry run prints.
constexpr int rejections_shown = 10;

/// "20 records: 20 inserted, 0 amended, ...; gross 4200.00, control total
/// 4200.00", or the counts as the database gave them when they are not a
/// merge's (a waiting batch's reason).
std::string merge_sentence(db::Published const &p);

/// The rejections, one line each, as a load and a dry run print them: at
/// most `most` (a load's rows hold one more than it shows, so that it can
/// say there are more, with all_hint).
std::string describe_rejections(std::vector<db::Rejection> const &rows,
                                std::string const &all_hint,
                                std::size_t most = rejections_shown);

std::string describe_rejections(db::LoadSteps &steps, std::int64_t batch_id);

/// What --dry-run prints: the same rejection lines as a real load.
Result dry_run_result(db::DryRun const &d, Input const &in);
} // namespace loader::flows::load_detail
