import pg from "pg";

/** The SQL questions' reader role of the test clusters: a plain login role (trust auth). */
export const sqlReaderRole = "seed_sql_reader";

/**
 * A new, empty database on the test cluster (see postgres-global-setup.ts), how to drop it, and
 * the URL of the cluster's SQL reader role on it.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; readerUrl: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
    // Test files run in parallel: the role is made once per cluster, whoever comes first.
    await admin.query(
      `DO $$ BEGIN CREATE ROLE ${sqlReaderRole} LOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const readerUrl = new URL(url);
  readerUrl.username = sqlReaderRole;
  return {
    url: url.toString(),
    readerUrl: readerUrl.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        // A closed pg pool resolves before its connections have left. A forced drop would end
        // a leaving connection with an error its closed pool reports as unhandled, so first wait
        // (bounded) until the database has no sessions; the force is for a test that leaked one.
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline) {
          const sessions = await cleanup.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where datname = $1",
            [name],
          );
          if (sessions.rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
