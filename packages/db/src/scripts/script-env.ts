// Environment for the db command-line scripts (an entry point, so it may read process.env).
export function requireDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "DATABASE_URL is missing: set it to the PostgreSQL URL, e.g. postgresql://secondshift:PASSWORD@localhost:5432/secondshift",
    );
    process.exit(2);
  }
  return url;
}
