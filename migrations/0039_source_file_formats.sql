-- 0039: a source's file format.  Deliveries come as their systems write
-- them (semicolons, windows-1252, 1.234,56, 28.11.2026, headers in the
-- ERP's language); a source declares how to read its files, and the
-- loader reads them so, inside the checksums, the rules and the
-- quarantine, instead of a converter outside them.
--
-- A format is stored as the loader's canonical JSON, versioned per source:
-- a batch records the version it was read with, so that a rerun of the
-- same bytes reads them the same way even after the source's format has
-- changed.  NULL (a source's or a batch's format_version): the contract's
-- own format.
set local role invoice_owner;

create table ingest.source_format (
  source     text not null references ingest.source,
  version    integer not null check (version >= 1),
  format     jsonb not null check (jsonb_typeof(format) = 'object'),
  created_at timestamptz not null default now(),
  created_by text not null default session_user,
  primary key (source, version)
);
comment on table ingest.source_format is
  'Every file format a source has declared (source add --format-file), by version; the source''s format_version names the current one.';

alter table ingest.source add column format_version integer;
alter table ingest.source add constraint source_format_version_fkey
  foreign key (source, format_version) references ingest.source_format (source, version);
comment on column ingest.source.format_version is
  'The version of the source''s file format (ingest.source_format) the next new file is read with; NULL: the contract''s own format.';

alter table ingest.batch
  add column format_version integer,
  add column defaults text[];
comment on column ingest.batch.format_version is
  'The version of its source''s file format the batch''s bytes were read with (ingest.source_format); NULL: the contract''s own format. A rerun reads them the same way.';
comment on column ingest.batch.defaults is
  'The contract columns the file lacked and the format gave a value, as column=value; NULL: none.';

-- What a rejected record's values were read from, when its source's
-- format converted them ("invoice_date \"31.11.2026\" read as ..."); the
-- rejection's detail ends with it.  Only rejected records carry one.
alter table staging.invoice_valid add column format_note text;
comment on column staging.invoice_valid.format_note is
  'For a record that failed a field rule under a source''s file format: its values as delivered and as read; NULL otherwise.';

-- Status shows each source's format: its version and what it declares.
create or replace view ingest.source_overview as
select s.source, s.policy, s.max_rejected_share, s.start_date, s.allow_unknown_columns,
       s.require_control_totals, s.created_at, s.updated_at, s.deadline, s.locked_through,
       s.format_version,
       (select f.format from ingest.source_format as f
        where f.source = s.source and f.version = s.format_version) as file_format
from ingest.source as s;
