-- Live transcripts: every inserted run event notifies the web processes' shared listener
-- (channel secondshift_run_events, payload "<runId>:<seq>"). A trigger rather than a clause in
-- each inserting statement: the run lifecycle has four of them (appendRunEvent and the status
-- moves), and a writer added later cannot forget it. NOTIFY is delivered at commit, so a
-- listener that re-reads after a notification always sees the row. Not in schema.prisma
-- (Prisma does not model triggers); the stored events stay the source of truth.
CREATE FUNCTION "notify_run_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('secondshift_run_events', NEW."runId" || ':' || NEW."seq");
  RETURN NULL;
END;
$$;

CREATE TRIGGER "RunEvent_notify"
AFTER INSERT ON "RunEvent"
FOR EACH ROW EXECUTE FUNCTION "notify_run_event"();
