-- Structured requests (issue 37): optional fields an agent may send with a proposal besides the free-text
-- description. Validated by the proposals service (src/modules/proposals/proposals.fields.ts); the checks here
-- only keep the store consistent. Absent fields are NULL.
ALTER TABLE proposals ADD COLUMN budget_amount numeric(15, 2) CHECK (budget_amount > 0);
-- ISO 4217, upper case
ALTER TABLE proposals ADD COLUMN budget_currency text CHECK (budget_currency ~ '^[A-Z]{3}$');
ALTER TABLE proposals ADD CONSTRAINT proposals_budget_complete CHECK ((budget_amount IS NULL) = (budget_currency IS NULL));
ALTER TABLE proposals ADD COLUMN needed_by date;
-- the place of the work, plain text on one line
ALTER TABLE proposals ADD COLUMN location text;
-- category-specific details: snake_case keys to plain text, numbers or booleans; json, not jsonb, so the keys keep the
-- order the agent gave them (the owner reads them in that order)
ALTER TABLE proposals ADD COLUMN details json CHECK (details IS NULL OR json_typeof(details) = 'object');
