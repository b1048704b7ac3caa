-- ingest.require_operator: the check every operator entry point makes
-- first.  The login that called (session_user, not current_user, which in a
-- SECURITY DEFINER function is the owner) must be a member of
-- invoice_operator.  A superuser is a member of every role.
-- Errors: IV401 not an operator (the loader exits 77).
create or replace function ingest.require_operator(p_what text)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not pg_catalog.pg_has_role(session_user, 'invoice_operator', 'member') then
    raise exception '% is reserved to members of invoice_operator; % is not one', p_what, session_user
      using errcode = 'IV401',
            detail  = 'Operator actions are authorized by membership of the invoice_operator role.',
            hint    = 'Connect as an operator''s login (a role granted invoice_operator).';
  end if;
end;
$$;
comment on function ingest.require_operator(text) is
  E'Raise unless session_user is a member of invoice_operator.\nErrors: IV401 not an operator.';
revoke all on function ingest.require_operator(text) from public;
