import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { datasetTableName, migrations } from "@seed/store";
import autocannon from "autocannon";
import { createAdminWithCli } from "../e2e/server-process";
import { startSmtpSink, stopSmtpSink, sunkMail } from "../e2e/smtp-sink.mjs";
import { randomPassword } from "../e2e/support";
import { startWebhookReceiver } from "../e2e/webhook-receiver";
import { startCluster } from "../scripts/cluster.mjs";
import { type Cluster, cookieHeader, importCsv, signedIn, sql } from "./cluster-support";

// Two instances of the app on one PostgreSQL behind nginx with deploy/nginx.conf: what one
// instance writes, the other serves at once; sessions, conflicts and the sign-in throttle are
// shared; and the balancer hides an instance's death from all but the requests it was serving.

test.describe.configure({ mode: "serial" });

const port = Number(process.env.SEED_CLUSTER_PORT ?? 3700);
let cluster: Cluster;
let smtp: { dir: string; port: number } | null = null;
const admin = {
  email: "cluster-admin@e2e.seed-charts.test",
  name: "Admin",
  password: randomPassword(),
};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const instanceOrigins = [1, 2].map((i) => `http://localhost:${port + i}`).join(",");
  smtp = startSmtpSink();
  // Both instances start at the same moment on an empty database.
  cluster = await startCluster({
    port,
    // The tests also talk to each instance directly, past the balancer.
    // Both send scheduled reports to a real SMTP server, looking for due ones every second.
    env: {
      BETTER_AUTH_TRUSTED_ORIGINS: instanceOrigins,
      SEED_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SEED_SMTP_TLS: "off",
      SEED_MAIL_FROM: "Seed reports <reports@cluster.seed-charts.test>",
      SEED_REPORT_TICK_SECONDS: "1",
      // A job whose instance died is taken over after 10 s (900 s by default), and retried 2 s
      // after that (60 s by default).
      SEED_JOB_LEASE_SECONDS: "10",
      SEED_JOB_RETRY_SECONDS: "2",
      // The alerts test's webhook receiver listens on loopback.
      SEED_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8",
    },
  });
  await createAdminWithCli(
    { dataDir: cluster.dataDirs[0] ?? "", databaseUrl: cluster.databaseUrl },
    admin,
  );
});

test.afterAll(async () => {
  await cluster?.stop();
  if (smtp) stopSmtpSink(smtp.dir);
});

const instanceA = () => cluster.instances[0]?.url ?? "";
const instanceB = () => cluster.instances[1]?.url ?? "";

test("two instances started together on an empty database migrate it once, and neither fails", () => {
  const applied = sql(cluster, "select name from seed_store_migration order by name").map(
    ([name]) => name,
  );
  expect(applied).toEqual(Object.keys(migrations).sort());
  // better-auth's tables were made once too (its migration runs under the same lock).
  expect(
    sql(
      cluster,
      `select to_regclass('public."user"') is not null, to_regclass('public.session') is not null`,
    ),
  ).toEqual([["t", "t"]]);
  for (const instance of cluster.instances) {
    expect(instance.exited()).toBe(false);
    // pino's error level is 50; nothing at error level or above, no uncaught exception.
    expect(instance.output()).not.toMatch(/"level":(?:50|60)|Unhandled|uncaught/i);
  }
});

test("a session made through A works through B, and signing out through B ends it on A", async ({
  browser,
}) => {
  const { context, page } = await signedIn(browser, instanceA(), admin);
  await page.goto(`${instanceB()}/admin`);
  await expect(page).toHaveURL(`${instanceB()}/admin`);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);
  await page.goto(`${instanceA()}/admin`);
  await expect(page).toHaveURL(/\/login/);
  await context.close();
});

test("a write through A is on the very next page B serves: rows, chart and dashboard", async ({
  browser,
}) => {
  const { context, page } = await signedIn(browser, instanceA(), admin);
  const cookie = await cookieHeader(context);
  const datasetName = `Shared cache ${Date.now()}`;
  const created = await importCsv(
    instanceA(),
    cookie,
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "region,amount\nAlfa,1100\nBravo,2200\nAlfa,3300\n",
  );
  const { publishSummedBarChart } = await import("../e2e/content-support");
  const { chartUrl, dashboardTitle, dashboardUrl, slug } = await publishSummedBarChart(page, {
    datasetName,
    x: "region",
    measure: "amount",
  });
  const fromB = async () => {
    const response = await fetch(`${instanceB()}/d/${slug}`, { headers: { RSC: "1" } });
    return {
      status: response.status,
      cache: response.headers.get("x-nextjs-cache"),
      body: await response.text(),
    };
  };
  expect((await fromB()).body).toContain("4400");
  // B now serves the page from its cache...
  const cached = await fromB();
  expect(cached.cache).toBe("HIT");
  expect(cached.body).toContain("4400");

  // ...until A writes. Rows, appended through A's streamed import:
  await importCsv(
    instanceA(),
    cookie,
    `/api/datasets/import?datasetId=${created.datasetId}&version=${created.version}&mode=append`,
    "region,amount\nAlfa,5500\n",
  );
  const afterRows = await fromB();
  expect(afterRows.body).toContain("9900");
  expect(afterRows.body).not.toContain("4400");

  // The chart, renamed through A's editor:
  const newTitle = `Renamed across ${Date.now()}`;
  // (Without the ?saved=1 it was created with, so the wait below waits for this save.)
  await page.goto(new URL(chartUrl).pathname);
  await page.getByRole("textbox", { name: "Title" }).fill(newTitle);
  await page.getByRole("button", { name: "Save chart" }).click();
  await page.waitForURL(/\?saved=1$/);
  expect((await fromB()).body).toContain(newTitle);

  // The dashboard, unpublished through A: B answers 404 at once.
  await page.goto(dashboardUrl);
  await page.getByRole("button", { name: `Unpublish ${dashboardTitle}` }).click();
  // (exact: "Unpublish …" contains "publish …", and names match by substring otherwise.)
  await expect(
    page.getByRole("button", { name: `Publish ${dashboardTitle}`, exact: true }),
  ).toBeVisible();
  expect((await fetch(`${instanceB()}/d/${slug}`)).status).toBe(404);
  await context.close();
});

test("100 concurrent conflicting saves of one chart over A and B: one wins per version, none is lost", async ({
  browser,
}) => {
  const { context, page } = await signedIn(browser, instanceA(), admin);
  const cookie = await cookieHeader(context);
  const datasetName = `Conflicts ${Date.now()}`;
  await importCsv(
    instanceA(),
    cookie,
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "region,amount\nAlfa,1\nBravo,2\n",
  );
  const { publishSummedBarChart } = await import("../e2e/content-support");
  const { chartUrl } = await publishSummedBarChart(page, {
    datasetName,
    x: "region",
    measure: "amount",
  });
  const chartId = new URL(chartUrl).pathname.split("/").at(-1) ?? "";
  const versionOf = () =>
    Number(sql(cluster, `select version from charts where id = '${chartId}'`)[0]?.[0]);
  const updatesOf = () =>
    Number(
      sql(
        cluster,
        `select count(*) from audit_events where entity_id = '${chartId}' and action = 'chart.update'`,
      )[0]?.[0],
    );

  // One real save from the editor, recorded to be replayed by 100 clients at once.
  await page.goto(new URL(chartUrl).pathname);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const actionRequest = page.waitForRequest(
    (request) => request.method() === "POST" && Boolean(request.headers()["next-action"]),
  );
  await page.getByRole("textbox", { name: "Title" }).fill(`Contested ${Date.now()}`);
  await page.getByRole("button", { name: "Save chart" }).click();
  const recorded = await actionRequest;
  await page.waitForURL(/\?saved=1$/);
  const savedVersion = versionOf();
  const updatesBefore = updatesOf();

  // The recorded body carries the version it was edited at; make it the current one, so every
  // replay is a save of the same version.
  const body = (recorded.postDataBuffer() ?? Buffer.alloc(0))
    .toString("latin1")
    .replace(/(name="(?:_\d+_)?version"\r\n\r\n)\d+/, `$1${savedVersion}`);
  expect(body, body.match(/name="[^"]*"/g)?.join(" ")).toMatch(
    new RegExp(`name="(?:_\\d+_)?version"\r\n\r\n${savedVersion}\r\n`),
  );
  const outcomes = await Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      const target = i % 2 === 0 ? instanceA() : instanceB();
      const response = await fetch(`${target}${new URL(recorded.url()).pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Next-Action": recorded.headers()["next-action"] ?? "",
          "Content-Type": recorded.headers()["content-type"] ?? "",
          Accept: "text/x-component",
          Origin: target,
          Cookie: cookie,
        },
        body: new Uint8Array(Buffer.from(body, "latin1")),
      });
      const text = await response.text();
      if (
        response.headers.get("x-action-redirect") ||
        (response.status >= 300 && response.status < 400)
      ) {
        return "saved";
      }
      if (text.includes("was changed by someone else")) return "conflict";
      return `unexpected ${response.status}: ${text.slice(0, 200)}`;
    }),
  );
  const counts = outcomes.reduce<Record<string, number>>((all, outcome) => {
    all[outcome] = (all[outcome] ?? 0) + 1;
    return all;
  }, {});
  expect(counts).toEqual({ saved: 1, conflict: 99 });
  // Exactly one new version, and the audit log has exactly the one update that won.
  expect(versionOf()).toBe(savedVersion + 1);
  expect(updatesOf()).toBe(updatesBefore + 1);
  await context.close();
});

test("the sign-in throttle counts failures made through both instances together", async ({
  browser,
}) => {
  // A client address of its own (the balancer is trusted, so its X-Forwarded-For is believed).
  const address = `203.0.113.${10 + (Date.now() % 200)}`;
  const context = await browser.newContext({
    baseURL: cluster.url,
    extraHTTPHeaders: { "X-Forwarded-For": address },
  });
  const page = await context.newPage();
  const { signInThrottlePolicy } = await import("@seed/store");
  for (let i = 0; i < signInThrottlePolicy.addressLimit; i += 1) {
    await page.goto("/login");
    await page.getByLabel("Email").fill(`nobody-${i}@e2e.seed-charts.test`);
    await page.getByLabel("Password").fill("not the password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#sign-in-error")).toHaveText("The email or password is not right.");
  }
  // The balancer sent those over both instances; the next try is refused, through either, even
  // with the right password.
  for (const instance of cluster.instances) {
    expect(instance.output()).toMatch(/"method":"POST","path":"\/login"/);
  }
  for (const target of [instanceA(), instanceB()]) {
    const direct = await browser.newContext({
      baseURL: target,
      extraHTTPHeaders: { "X-Forwarded-For": address },
    });
    const directPage = await direct.newPage();
    await directPage.goto("/login");
    await directPage.getByLabel("Email").fill(admin.email);
    await directPage.getByLabel("Password").fill(admin.password);
    await directPage.getByRole("button", { name: "Sign in" }).click();
    await expect(directPage.locator("#sign-in-error")).toContainText(
      "Too many failed sign-ins from your network",
    );
    await direct.close();
  }
  await context.close();
});

/** Load through the balancer until `during` resolves, then for `tail` more requests; counts. */
async function loadWhile(
  url: string,
  during: (progress: { responses: number }) => Promise<void>,
): Promise<{ requests: number; errors: number; non2xx: number }> {
  const progress = { responses: 0 };
  let finish: (result: autocannon.Result) => void = () => {};
  const finished = new Promise<autocannon.Result>((resolve) => {
    finish = resolve;
  });
  const instance = autocannon({ url, connections: 20, duration: 120 }, (error, result) => {
    if (error) throw error;
    finish(result);
  });
  instance.on("response", () => {
    progress.responses += 1;
  });
  try {
    await during(progress);
  } finally {
    instance.stop();
  }
  const result = await finished;
  return { requests: result.requests.total, errors: result.errors, non2xx: result.non2xx };
}

/** Resolves once `progress.responses` has grown by `count` from now. */
function afterResponses(progress: { responses: number }, count: number): Promise<void> {
  const target = progress.responses + count;
  return expect.poll(() => progress.responses, { timeout: 60_000 }).toBeGreaterThanOrEqual(target);
}

/** The next whole UTC minute at least `leadMs` away, and its "hh:mm". */
function nextMinute(leadMs: number): { at: number; time: string } {
  const at = Math.ceil((Date.now() + leadMs) / 60_000) * 60_000;
  return { at, time: new Date(at).toISOString().slice(11, 16) };
}

test("both instances work the schedule, yet each report goes out once; with A killed and then both down, the run goes out once when B is back", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const smtpDir = smtp?.dir ?? "";
  const mailsToAdmin = (from: number) =>
    sunkMail(smtpDir)
      .slice(from)
      .filter((mail) => mail.to.includes(admin.email));
  /** A daily report of the demo (UTC) at `time`, made through `base`; its id. */
  const makeReport = async (base: string, name: string, time: string) => {
    const { context, page } = await signedIn(browser, base, admin);
    await page.goto("/admin/reports/new");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("How often").selectOption("day");
    await page.getByLabel("At", { exact: true }).fill(time);
    await page.getByLabel("Recipients").fill(admin.email);
    await page.getByRole("button", { name: "Create report" }).click();
    await page.waitForURL(/\/admin\/reports$/);
    await context.close();
    const [row] = sql(cluster, `select id from reports where name = '${name}'`);
    return row?.[0] ?? "";
  };
  const statusOf = (ids: string[]) =>
    sql(
      cluster,
      `select last_status from reports where id in (${ids.map((id) => `'${id}'`).join(",")}) order by id`,
    ).map(([status]) => status);
  const sendEvents = (ids: string[]) =>
    Number(
      sql(
        cluster,
        `select count(*) from audit_events where action = 'report.send' and entity_id in (${ids
          .map((id) => `'${id}'`)
          .join(",")})`,
      )[0]?.[0],
    );

  // Three reports due in the same minute, made through both instances.
  const first = nextMinute(50_000);
  const before = sunkMail(smtpDir).length;
  const ids = [
    await makeReport(instanceA(), "Cluster report 1", first.time),
    await makeReport(instanceB(), "Cluster report 2", first.time),
    await makeReport(instanceA(), "Cluster report 3", first.time),
  ];
  await expect
    .poll(() => statusOf(ids), { timeout: 150_000, intervals: [1_000] })
    .toEqual(["sent", "sent", "sent"]);
  // Each went out once: one message each, one run each, and nothing due again today.
  expect(mailsToAdmin(before)).toHaveLength(3);
  expect(sendEvents(ids)).toBe(3);
  for (const mail of mailsToAdmin(before)) {
    expect(mail.raw.toString("latin1")).toContain("application/pdf");
  }

  // A dies; a report falls due while B is down too; B comes back and sends it, once.
  await cluster.instances[0]?.kill();
  const second = nextMinute(40_000);
  const lone = await makeReport(instanceB(), "Cluster report 4", second.time);
  await cluster.instances[1]?.kill();
  await expect.poll(() => Date.now() > second.at + 5_000, { timeout: 120_000 }).toBe(true);
  const afterKill = sunkMail(smtpDir).length;
  expect(mailsToAdmin(afterKill)).toHaveLength(0);
  await cluster.restartInstance(1);
  await expect
    .poll(() => statusOf([lone]), { timeout: 60_000, intervals: [1_000] })
    .toEqual(["sent"]);
  expect(mailsToAdmin(afterKill)).toHaveLength(1);
  expect(sendEvents([lone])).toBe(1);
  await cluster.restartInstance(0);
});

test("an instance killed in the middle of sending a report: the other takes the run over after its lease and tells only whoever was not told", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const smtpDir = smtp?.dir ?? "";
  const stalledFile = path.join(smtpDir, "stalled");
  const staller = "stall-once@stall.e2e.example";
  const mailsTo = (address: string, from: number) =>
    sunkMail(smtpDir)
      .slice(from)
      .filter((mail) => mail.to.includes(address));
  const { context, page } = await signedIn(browser, instanceA(), admin);
  await page.goto("/admin/reports");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const domains = page.getByRole("form", { name: "Allowed mail domains" });
  await domains.getByLabel("Domains reports and alerts may go to").fill("stall.e2e.example");
  await domains.getByRole("button", { name: "Save domains" }).click();
  await expect(domains.getByText(/may also go to stall\.e2e\.example/)).toBeVisible();

  // Only A is up when the run falls due, so A takes it: the admin first, then the staller.
  await cluster.instances[1]?.kill();
  const due = nextMinute(40_000);
  const name = "Cluster report killed mid-run";
  await page.goto("/admin/reports/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("How often").selectOption("day");
  await page.getByLabel("At", { exact: true }).fill(due.time);
  await page.getByLabel("Recipients").fill(`${admin.email}\n${staller}`);
  await page.getByRole("button", { name: "Create report" }).click();
  await page.waitForURL(/\/admin\/reports$/);
  await context.close();
  const [row] = sql(cluster, `select id from reports where name = '${name}'`);
  const id = row?.[0] ?? "";
  const before = sunkMail(smtpDir).length;

  // A hangs in the middle of the run (the admin told, the staller not); B comes up; A dies.
  await expect
    .poll(() => existsSync(stalledFile), { timeout: 120_000, intervals: [500] })
    .toBe(true);
  expect(mailsTo(admin.email, before)).toHaveLength(1);
  await cluster.restartInstance(1);
  await cluster.instances[0]?.kill();

  // After the lease, B takes the run over and tells only the staller.
  const statusOf = () => sql(cluster, `select last_status from reports where id = '${id}'`)[0]?.[0];
  try {
    await expect.poll(statusOf, { timeout: 150_000, intervals: [1_000] }).toBe("sent");
  } catch (error) {
    console.log(
      "The run's jobs when the wait ended:",
      JSON.stringify(
        sql(
          cluster,
          "select state, retry_count, started_on, start_after, expire_in, singleton_key, output from pgboss.job where name = 'reports' order by created_on",
        ),
      ),
      new Date().toISOString(),
    );
    throw error;
  }
  expect(mailsTo(staller, before)).toHaveLength(1);
  expect(mailsTo(admin.email, before)).toHaveLength(1);
  const sends = sql(
    cluster,
    `select count(*) from audit_events where action = 'report.send' and entity_id = '${id}'`,
  );
  expect(sends[0]?.[0]).toBe("1");
  await cluster.restartInstance(0);
});

test("pushes through both instances at once cross an alert's threshold: its webhook is called once", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const receiver = await startWebhookReceiver();
  const hook = `${receiver.origin}/hook`;
  const { context, page } = await signedIn(browser, instanceA(), admin);
  const cookie = await cookieHeader(context);
  const datasetName = `Alerted across ${Date.now()}`;
  const created = await importCsv(
    instanceA(),
    cookie,
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "month,amount\n2026-01-01,100\n2026-02-01,150\n",
  );
  const { publishSummedBarChart } = await import("../e2e/content-support");
  const { chartTitle } = await publishSummedBarChart(page, {
    datasetName,
    x: "month",
    measure: "amount",
  });
  // The alert is made through B, the token through A.
  const { context: onB, page: pageB } = await signedIn(browser, instanceB(), admin);
  await pageB.goto("/admin/alerts/new");
  await pageB.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await pageB.getByLabel("Name").fill(datasetName);
  const measure = pageB.locator("#alert-target option", { hasText: chartTitle }).first();
  await pageB.getByLabel("Watches").selectOption((await measure.getAttribute("value")) ?? "");
  await pageB.getByLabel("Threshold").fill("500");
  await pageB.getByLabel("Email recipients").fill("");
  await pageB.getByLabel("Webhook address (optional)").fill(hook);
  await pageB.getByRole("button", { name: "Create alert" }).click();
  await expect(pageB.getByRole("link", { name: "Open the alert" })).toBeVisible();
  await onB.close();
  const { createPushToken } = await import("../e2e/content-support");
  const token = await createPushToken(page, created.datasetId, {
    name: "Cluster feed",
    scope: "append",
  });
  await context.close();

  // Four pushes at once, two to each instance, each checking the alert on its own instance.
  const pushTo = (base: string, month: string) =>
    fetch(`${base}/api/datasets/${created.datasetId}/rows`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify([{ month, amount: 900 }]),
    });
  const answers = await Promise.all([
    pushTo(instanceA(), "2026-03-01"),
    pushTo(instanceB(), "2026-03-01"),
    pushTo(instanceA(), "2026-03-01"),
    pushTo(instanceB(), "2026-03-01"),
  ]);
  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
  await expect.poll(() => receiver.calls.length, { timeout: 60_000 }).toBe(1);
  // Every check has run (none waiting or running on either instance), and none told again.
  await expect
    .poll(
      () =>
        sql(
          cluster,
          "select count(*) from pgboss.job where name in ('alert-checks', 'alert-deliveries') and state in ('created', 'retry', 'active')",
        )[0]?.[0],
      { timeout: 60_000, intervals: [500] },
    )
    .toBe("0");
  const checks = Number(
    sql(cluster, "select count(*) from pgboss.job where name = 'alert-checks'")[0]?.[0],
  );
  expect(checks).toBeGreaterThanOrEqual(4);
  expect(receiver.calls).toHaveLength(1);
  // Fired by whichever check first saw a March over 500 (900 to 3,600, as the pushes landed).
  const fired = JSON.parse(receiver.calls[0]?.body ?? "{}");
  expect(fired.type).toBe("alert.fired");
  expect(fired.value).toBeGreaterThanOrEqual(900);
  const events = sql(
    cluster,
    `select e.kind from alert_events e join alerts a on a.id = e.alert_id where a.name = '${datasetName}'`,
  );
  expect(events).toEqual([["fired"]]);
  await receiver.close();
});

test("kill -9 of A under load: the balancer sends the rest to B; only requests in flight on A fail", async () => {
  const publicPage = `${cluster.url}/d/demo`;
  const result = await loadWhile(publicPage, async (progress) => {
    await afterResponses(progress, 500);
    await cluster.instances[0]?.kill();
    await afterResponses(progress, 1000);
  });
  console.log(
    `kill -9 under load: ${result.requests} requests, ${result.errors} errors, ${result.non2xx} non-2xx`,
  );
  // 20 connections: at most the 20 requests A was serving when it died can fail.
  expect(result.errors + result.non2xx).toBeLessThanOrEqual(20);
  expect(result.requests).toBeGreaterThan(1500);
  // A comes back on its port and serves again.
  const restarted = await cluster.restartInstance(0);
  expect((await fetch(`${restarted.url}/d/demo`)).status).toBe(200);
});

test("PostgreSQL restarted under load: both instances reconnect without a restart of their own", async ({
  browser,
}) => {
  const result = await loadWhile(`${cluster.url}/api/ready`, async (progress) => {
    await afterResponses(progress, 200);
    cluster.postgres.restart();
    await afterResponses(progress, 200);
  });
  console.log(
    `PostgreSQL restart under load: ${result.requests} requests, ${result.errors} errors, ${result.non2xx} non-2xx`,
  );
  for (const instance of cluster.instances) {
    expect(instance.exited()).toBe(false);
    await expect
      .poll(async () => (await fetch(`${instance.url}/api/ready`)).status, { timeout: 20_000 })
      .toBe(200);
  }
  // nginx counted the 503s as failures (max_fails=1, fail_timeout=5s): it takes both back in turn.
  await expect
    .poll(async () => (await fetch(`${cluster.url}/login`)).status, { timeout: 20_000 })
    .toBe(200);
  // Sessions (better-auth) and content (the store) both work again.
  const { context, page } = await signedIn(browser, cluster.url, admin);
  await page.goto("/admin/datasets");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await context.close();
});

test("kill -9 in the middle of a 1,000,000-row import: the dataset holds the old rows or all the new", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { context } = await signedIn(browser, instanceA(), admin);
  const cookie = await cookieHeader(context);
  const datasetName = `Interrupted ${Date.now()}`;
  const created = await importCsv(
    instanceA(),
    cookie,
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "day,region,revenue\n2026-01-01,Alfa,10\n2026-01-02,Bravo,20\n2026-01-03,Alfa,30\n",
  );
  await context.close();

  // A million rows of a random walk over skewed regions, streamed (never all in memory).
  const total = 1_000_000;
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const regions = ["Alfa", "Alfa", "Alfa", "Bravo", "Bravo", "Charlie", "Delta"];
  let written = 0;
  let level = 1000;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (written === 0) controller.enqueue(encoder.encode("day,region,revenue\n"));
      let chunk = "";
      for (let i = 0; i < 5000 && written < total; i += 1, written += 1) {
        level = Math.max(0, level + (random() - 0.5) * 20);
        const day = new Date(Date.UTC(2000, 0, 1) + (written % 9000) * 86_400_000);
        chunk += `${day.toISOString().slice(0, 10)},${regions[Math.floor(random() * regions.length)]},${level.toFixed(2)}\n`;
      }
      controller.enqueue(encoder.encode(chunk));
      if (written >= total) controller.close();
    },
  });
  const response = await fetch(
    `${instanceA()}/api/datasets/import?datasetId=${created.datasetId}&version=${created.version}&mode=replace`,
    {
      method: "POST",
      headers: {
        Origin: instanceA(),
        Cookie: cookie,
        "Content-Type": "text/csv",
        "x-seed-import": "1",
      },
      body,
      duplex: "half",
    } as RequestInit,
  );
  expect(response.status).toBe(200);
  // Read progress until the import is well under way, then kill the instance doing it.
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  let importedSoFar = 0;
  while (reader && importedSoFar < 200_000) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value, { stream: true });
    for (const line of seen.split("\n")) {
      const event = line.startsWith("{")
        ? (JSON.parse(line) as { type: string; rows?: number })
        : null;
      if (event?.type === "progress") importedSoFar = Math.max(importedSoFar, event.rows ?? 0);
      if (event?.type === "done")
        throw new Error("The import finished before it could be interrupted.");
    }
    seen = seen.slice(seen.lastIndexOf("\n") + 1);
  }
  expect(importedSoFar).toBeGreaterThanOrEqual(200_000);
  await cluster.instances[0]?.kill();
  await reader?.cancel().catch(() => undefined);

  const restarted = await cluster.restartInstance(0);
  expect((await fetch(`${restarted.url}/api/ready`)).status).toBe(200);
  const [row] = sql(
    cluster,
    `select row_count, version from datasets where id = '${created.datasetId}'`,
  );
  // The old three rows, at the old version: nothing of the interrupted import is kept, in the
  // dataset's record or in its own table of rows.
  expect(row).toEqual(["3", String(created.version)]);
  const tableRows = sql(cluster, `select count(*) from "${datasetTableName(created.datasetId)}"`);
  expect(tableRows).toEqual([["3"]]);
});
