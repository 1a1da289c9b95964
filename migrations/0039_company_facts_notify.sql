-- Reachability (proposals, their messages, owners, invitation opt-outs) is read beside a company's profile on
-- every lookup. A statement that writes one of these tables notifies 'company_facts_changed', delivered on
-- commit, so an embedded (PGlite) process can keep what it read until the next such write
-- (platform/cache-generation.ts), as 'companies_changed' (0008) does for profiles.
CREATE FUNCTION company_facts_notify() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('company_facts_changed', '');
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER proposals_facts_notify AFTER INSERT OR UPDATE OR DELETE ON proposals
  FOR EACH STATEMENT EXECUTE FUNCTION company_facts_notify();
CREATE TRIGGER proposal_messages_facts_notify AFTER INSERT OR UPDATE OR DELETE ON proposal_messages
  FOR EACH STATEMENT EXECUTE FUNCTION company_facts_notify();
CREATE TRIGGER company_owners_facts_notify AFTER INSERT OR UPDATE OR DELETE ON company_owners
  FOR EACH STATEMENT EXECUTE FUNCTION company_facts_notify();
CREATE TRIGGER invitation_optouts_facts_notify AFTER INSERT OR UPDATE OR DELETE ON invitation_optouts
  FOR EACH STATEMENT EXECUTE FUNCTION company_facts_notify();
-- A published review that goes with its proposal or agent (a cascade) changes the company's rating; its
-- other changes already notify 'companies_changed' (0030).
CREATE TRIGGER reviews_facts_notify AFTER DELETE ON reviews
  FOR EACH STATEMENT EXECUTE FUNCTION company_facts_notify();
