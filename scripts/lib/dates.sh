# scripts/lib/dates.sh: date helpers shared by the fixture generators
# (make-sample.sh, gen-invoices.sh).  Source it; needs awk.

# Date arithmetic in days since 1970-01-01 (H. Hinnant's civil algorithms),
# as awk functions to prepend to a program.
# shellcheck disable=SC2034  # used by the scripts that source this file
readonly awk_dates='
function days_from_civil(y, m, d,    era, yoe, doy, doe) {
  y -= (m <= 2)
  era = int(y / 400)
  yoe = y - era * 400
  doy = int((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  doe = yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy
  return era * 146097 + doe - 719468
}
function civil_from_days(z,    era, doe, yoe, y, doy, mp, d, m) {
  z += 719468
  era = int(z / 146097)
  doe = z - era * 146097
  yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
  y = yoe + era * 400
  doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
  mp = int((5 * doy + 2) / 153)
  d = doy - int((153 * mp + 2) / 5) + 1
  m = mp + (mp < 10 ? 3 : -9)
  y += (m <= 2)
  return sprintf("%04d-%02d-%02d", y, m, d)
}
function days_of(iso) {
  return days_from_civil(substr(iso, 1, 4) + 0, substr(iso, 6, 2) + 0,
                         substr(iso, 9, 2) + 0)
}
'

# require_real_date TOOL DATE: exit 65 unless DATE is a real YYYY-MM-DD
# date, 1900 or later.
require_real_date() {
  local tool=$1 date=$2
  if [[ ! $date =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] ||
    [[ $date < 1900-01-01 ]] ||
    [[ $(awk -v iso="$date" "$awk_dates"'
          BEGIN { print civil_from_days(days_of(iso)) }') != "$date" ]]; then
    echo "$tool: '$date' is not a real date YYYY-MM-DD (1900 or later)" >&2
    exit 65
  fi
}
