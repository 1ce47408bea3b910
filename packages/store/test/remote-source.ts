import pg from "pg";
import { createPostgresDatabase } from "./postgres-database.js";

// A second throwaway database on the test cluster acting as a live source: a read-only role that
// signs in with a password (the cluster trusts everyone else), a table, views, a slow view.

/** Members of this group must give their password: the test cluster trusts every other role. */
const passwordGroup = "seed_password_readers";

export interface RemoteSource {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  /** Runs SQL on the remote database as its owner (to change data under the source). */
  exec(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Lets members of the password group in only with their password; everyone else as before. */
async function requirePasswordsForGroup(adminUrl: string) {
  await withClient(adminUrl, async (client) => {
    await client.query(`do $$ begin
      create role ${passwordGroup} nologin;
    exception when duplicate_object then null; end $$`);
    const rules = [
      "local all all trust",
      `host all +${passwordGroup} 127.0.0.1/32 scram-sha-256`,
      "host all all 127.0.0.1/32 trust",
      "host all all ::1/128 trust",
    ];
    const values = rules.map((_, index) => `($${index + 1})`).join(", ");
    const file = (await client.query<{ hba_file: string }>("show hba_file")).rows[0]?.hba_file;
    await client.query("create temporary table hba_lines (line text)");
    await client.query(`insert into hba_lines values ${values}`, rules);
    await client.query(`copy hba_lines to '${file?.replaceAll("'", "''")}'`);
    await client.query("select pg_reload_conf()");
  });
}

export async function createRemoteSource(adminUrl: string): Promise<RemoteSource> {
  await requirePasswordsForGroup(adminUrl);
  const database = await createPostgresDatabase(adminUrl, "remote");
  const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
  const user = `seed_ro_${suffix}`;
  const password = `pw-${crypto.randomUUID()}`;
  await withClient(adminUrl, async (client) => {
    await client.query(`create role ${user} login password '${password}' in role ${passwordGroup}`);
  });
  const exec = (text: string, values?: unknown[]) =>
    withClient(database.url, (client) => client.query(text, values));
  await exec(`
    create table sales (month date, region text, revenue numeric, orders integer,
      at timestamptz, tags text[], payload jsonb);
    insert into sales values
      ('2025-01-01', 'North', 100, 4, '2025-01-01T10:00:00Z', '{a}', '{}'),
      ('2025-02-01', 'South', 150, 6, '2025-02-01T10:00:00Z', '{b}', '{}'),
      ('2025-03-01', 'North', 120, 5, '2025-03-01T10:00:00Z', '{c}', '{}');
    create view revenue_by_region as select region, sum(revenue) as revenue from sales group by region;
    create view slow_sales as select s.* from sales s, pg_sleep(2);
    create table readings (n integer, value double precision);
    insert into readings select g, g * 2 from generate_series(1, 250) g;
    create table secrets (v text);
    grant connect on database ${new URL(database.url).pathname.slice(1)} to ${user};
    grant usage on schema public to ${user};
    grant select on sales, revenue_by_region, slow_sales, readings to ${user};
  `);
  const url = new URL(adminUrl);
  return {
    host: url.hostname,
    port: Number(url.port),
    database: new URL(database.url).pathname.slice(1),
    user,
    password,
    exec,
    drop: async () => {
      await database.drop();
      await withClient(adminUrl, (client) => client.query(`drop role if exists ${user}`));
    },
  };
}
