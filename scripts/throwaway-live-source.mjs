// @ts-check
// A second throwaway database acting as a live source (issue 13's live sources), for the store's
// tests and the web app's e2e: a read-only role that must give its password (the throwaway
// cluster trusts every other role), a table, views, a slow view and a table past a small row cap.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createThrowawayDatabase } from "./throwaway-postgres.mjs";

/** Members of this group sign in with their password; the test cluster trusts everyone else. */
const passwordGroup = "seed_password_readers";

/**
 * Runs SQL through psql (synchronously) and returns its unaligned output.
 * @param {string} url
 * @param {string} text
 */
export function runSql(url, text) {
  return execFileSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-q", "-t", "-A", "-c", text], {
    stdio: "pipe",
  })
    .toString()
    .trim();
}

/** @param {string} adminUrl */
function requirePasswordsForGroup(adminUrl) {
  runSql(
    adminUrl,
    `do $$ begin create role ${passwordGroup} nologin; exception when duplicate_object then null; end $$`,
  );
  const file = runSql(adminUrl, "show hba_file").replaceAll("'", "''");
  const rules = [
    "local all all trust",
    `host all +${passwordGroup} 127.0.0.1/32 scram-sha-256`,
    "host all all 127.0.0.1/32 trust",
    "host all all ::1/128 trust",
  ];
  runSql(
    adminUrl,
    `copy (select line from (values ${rules.map((rule, index) => `(${index}, '${rule}')`).join(", ")}) as hba(n, line) order by n) to '${file}'`,
  );
  runSql(adminUrl, "select pg_reload_conf()");
}

/**
 * @typedef {{ host: string; port: number; database: string; user: string; password: string;
 *   url: string; exec: (text: string) => string; drop: () => void }} LiveSourceDatabase
 */

/**
 * Creates the source database on the cluster at `adminUrl`. `url` is the owner's URL (to change
 * rows under the source); the source itself signs in as `user` with `password`.
 * @param {string} adminUrl
 * @returns {LiveSourceDatabase}
 */
export function createLiveSourceDatabase(adminUrl) {
  requirePasswordsForGroup(adminUrl);
  const url = createThrowawayDatabase(adminUrl, "live_source");
  const database = new URL(url).pathname.slice(1);
  const user = `seed_ro_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const password = `pw-${randomUUID()}`;
  runSql(adminUrl, `create role ${user} login password '${password}' in role ${passwordGroup}`);
  runSql(
    url,
    `create table sales (month date, region text, revenue numeric, orders integer,
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
    grant connect on database ${database} to ${user};
    grant usage on schema public to ${user};
    grant select on sales, revenue_by_region, slow_sales, readings to ${user};`,
  );
  const admin = new URL(adminUrl);
  return {
    host: admin.hostname,
    port: Number(admin.port),
    database,
    user,
    password,
    url,
    exec: (text) => runSql(url, text),
    drop: () => {
      runSql(adminUrl, `drop database if exists ${database} with (force)`);
      runSql(adminUrl, `drop role if exists ${user}`);
    },
  };
}
