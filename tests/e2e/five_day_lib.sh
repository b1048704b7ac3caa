# tests/e2e/five_day_lib.sh: readers shared by the five-day tests.  Source
# it after lib.sh with $src set to the source under test.

# batch_of FILE: the batch id of a file (by its name; every file is distinct).
batch_of() { q "select batch_id from ingest.batch_overview where source = '$src' and file_name = '$1'"; }
# current_view: reporting.invoice as "number rREV gross" items, in key order.
current_view() {
  q "select coalesce(string_agg(invoice_number || ' r' || revision || ' ' || gross_amount, ', '
                                order by invoice_number), '')
     from reporting.invoice where source = '$src'"
}
totals() { q "select count(*) || ' invoices, ' || coalesce(sum(gross_amount), 0) || ' gross'
              from reporting.invoice where source = '$src'"; }
# versions INVOICE: every published version, lowest revision first:
# "rREV STATUS GROSS current|history bBATCH sup:BATCH|-".
versions() {
  q "select string_agg(format('r%s %s %s %s b%s sup:%s', revision, status, gross_amount,
                              case when is_current then 'current' else 'history' end, batch_id,
                              coalesce('b' || superseded_by_batch_id, '-')), '; ' order by revision)
     from reporting.invoice_version where source = '$src' and invoice_number = '$1'"
}
# counts BATCH: the merge counts the publication recorded.
counts() {
  q "select format('ins=%s amd=%s void=%s unch=%s late=%s dup=%s rej=%s rec=%s gross=%s',
                   c->>'inserted', c->>'amended', c->>'voided', c->>'unchanged', c->>'late',
                   c->>'duplicates', c->>'rejected', c->>'records', c->>'accepted_gross')
     from (select merge_counts as c from ingest.batch_overview where batch_id = $1) as x"
}
# published_batches: the batches with a batch_published notification, in order;
# notif_counts BATCH: the counts that notification carries (must equal counts).
published_batches() {
  q "select coalesce(string_agg('b' || batch_id, ' ' order by notification_id), '')
     from ingest.notification where kind = 'batch_published'"
}
notif_counts() {
  q "select format('ins=%s amd=%s void=%s unch=%s late=%s dup=%s rej=%s rec=%s gross=%s',
                   c->>'inserted', c->>'amended', c->>'voided', c->>'unchanged', c->>'late',
                   c->>'duplicates', c->>'rejected', c->>'records', c->>'accepted_gross')
     from (select payload->'counts' as c from ingest.notification
           where kind = 'batch_published' and batch_id = $1) as x"
}
# state_of BATCH: its state.
state_of() { q "select state from ingest.batch_overview where batch_id = $1"; }
# quarantined_batches: the batches with a batch_quarantined notification.
quarantined_batches() {
  q "select coalesce(string_agg('b' || batch_id, ' ' order by notification_id), '')
     from ingest.notification where kind = 'batch_quarantined'"
}
# version_count: published versions of the source.
version_count() { q "select count(*) from reporting.invoice_version where source = '$src'"; }
# load_day FILE DATE: load a fixture of tests/fixtures/five_day ($fx).
load_day() {  # load_day FILE DATE
  load --source "$src" --business-date "$2" --input "$fx/$1"
}
