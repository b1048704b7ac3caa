-- 0001: the four roles (docs/reference/database.md, "Roles") and the schemas,
-- owned by the NOLOGIN invoice_owner from the start.  Runs as the migrating
-- role (a superuser, or a CREATEROLE role that owns the database).
-- Never edit after merge; follow-ups go in 0002+.

do $$
declare
  v_role record;
begin
  for v_role in
    select * from (values
      ('invoice_owner',    'nologin'),
      ('invoice_loader',   'login'),
      ('invoice_operator', 'login'),
      ('invoice_reader',   'login')) as r(name, login)
  loop
    if not exists (select from pg_catalog.pg_roles where rolname = v_role.name) then
      begin
        execute format('create role %I %s', v_role.name, v_role.login);
      exception when duplicate_object or unique_violation then
        null; -- another database of this cluster created it concurrently
      end;
    end if;
  end loop;
  -- A non-superuser migrator must be able to act as the owner.
  if not (select rolsuper from pg_catalog.pg_roles where rolname = current_user) then
    execute format('grant invoice_owner to %I', current_user);
  end if;
  -- Only our roles connect; PUBLIC has CONNECT and TEMP by default.
  execute format('revoke all on database %I from public', current_database());
  execute format('grant connect on database %I to invoice_loader, invoice_operator, invoice_reader',
                 current_database());
end
$$;

revoke all on schema public from public;

alter schema loader_meta owner to invoice_owner;
alter table loader_meta.schema_migration owner to invoice_owner;

create schema ingest authorization invoice_owner;
create schema staging authorization invoice_owner;
create schema core authorization invoice_owner;
create schema reporting authorization invoice_owner;

comment on schema ingest is 'Control plane: sources, batches, attempts, events, watermark, outbox, rejections, and the entry points.';
comment on schema staging is 'COPY targets: raw text rows per batch, and the typed rows validation accepted.';
comment on schema core is 'Merged, versioned invoices (history).';
comment on schema reporting is 'What consumers read: views only.';

-- Functions are executable by PUBLIC by default; not ours.
alter default privileges for role invoice_owner revoke execute on functions from public;

grant usage on schema ingest to invoice_loader, invoice_operator;
grant usage on schema staging to invoice_loader;
grant usage on schema reporting to invoice_reader, invoice_loader, invoice_operator;
