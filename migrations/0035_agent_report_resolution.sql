-- Administrators work through owners' reports of agents as a queue (issue 38): a report is open until an
-- administrator dismisses it or deactivates the agent (which closes every open report of that agent).
ALTER TABLE agent_reports ADD COLUMN resolved_at timestamptz;
ALTER TABLE agent_reports ADD COLUMN resolution text CHECK (resolution IN ('dismissed', 'deactivated'));
CREATE INDEX agent_reports_open ON agent_reports (created_at) WHERE resolved_at IS NULL;
