-- The ticket list filtered by status reads in index order for every sort, and the dashboard's
-- overdue count reads only the index. Without these, SQLite looked up every ticket of the status
-- (tens of thousands at scale) and sorted them to return one page.
-- The CASE expressions must stay identical to SORT_SQL in src/worker/provider/db/tickets.ts;
-- test/worker/query-plans.test.ts fails when they drift.
CREATE INDEX tickets_status ON tickets (status);
CREATE INDEX tickets_status_updated ON tickets (status, updated_at);
CREATE INDEX tickets_status_due ON tickets (status, due_at);
CREATE INDEX tickets_status_priority ON tickets (status, (CASE priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 ELSE 3 END));
CREATE INDEX tickets_priority_rank ON tickets ((CASE priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 ELSE 3 END));
CREATE INDEX tickets_status_rank ON tickets ((CASE status WHEN 'open' THEN 0 WHEN 'in_progress' THEN 1 WHEN 'on_hold' THEN 2 WHEN 'resolved' THEN 3 ELSE 4 END));
CREATE INDEX tickets_title ON tickets (title COLLATE NOCASE);
CREATE INDEX tickets_status_title ON tickets (status, title COLLATE NOCASE);
