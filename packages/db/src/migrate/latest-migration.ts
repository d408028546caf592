// The newest migration in prisma/migrations, built into every service: `/readyz` is not ready
// until the database has it applied. `npm run db:new-migration` rewrites this file, and
// latest-migration.test.ts fails when it names anything but the newest folder. A constant,
// not a directory listing, because the bundled services do not know the repository layout.
export const LATEST_MIGRATION = "20261204123238_trigger_event_occurred_at";
