-- One backup at a time (docs/operations.md#backups): the run's own INSERT is refused while
-- another run is under way, so two clicks, or a click and the schedule, never start two sets of
-- copies. The index holds at most one row with status 'running'.
--
-- Runs that were going at once before this migration would break the index: all but the oldest
-- are ended here. Their state is kept, so the next minute's trigger aborts their uploads and
-- drops their copies (abandonStuckRuns, src/worker/provider/db/backup/write.ts).
UPDATE backup_runs
SET status = 'failed', lease_until = 0, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
    error = 'ended by migration 0017: only one backup runs at a time'
WHERE status = 'running' AND id <> (SELECT id FROM backup_runs WHERE status = 'running' ORDER BY started_at, id LIMIT 1);

CREATE UNIQUE INDEX backup_runs_one_running ON backup_runs (status) WHERE status = 'running';
