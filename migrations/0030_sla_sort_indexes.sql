-- The tickets list sorted by the next service-level due time (`sort=slaDueAt`, no running clock
-- last) reads these in order, alone or within one status, instead of sorting every matching ticket
-- (the expression is the list's own ORDER BY, src/worker/provider/db/tickets.ts).
CREATE INDEX tickets_sla_due_order ON tickets (coalesce(sla_due_at, '9'));
CREATE INDEX tickets_status_sla_due ON tickets (status, coalesce(sla_due_at, '9'));
