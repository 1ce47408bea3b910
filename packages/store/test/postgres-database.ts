import pg from "pg";

/** A new, empty database on the test cluster (see postgres-global-setup.ts), and how to drop it. */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
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
