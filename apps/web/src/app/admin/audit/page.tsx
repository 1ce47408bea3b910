import { auditEntityTypes } from "@seed/model";
import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { actorOf } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { fieldErrorsFromZod } from "@/lib/form-state";
import {
  auditFilterChoices,
  auditFilterSchema,
  canSeeUserRecords,
  findAuditEvents,
} from "@/server/audit-log";
import { requirePermission } from "@/server/auth";
import { requestLocale } from "@/server/request-locale";

export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Record<string, string | string[] | undefined>;

function firstValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text : undefined;
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requirePermission("audit.read");
  const role = session.user.role;
  const params = await searchParams;
  const locale = await requestLocale();
  const raw = {
    actor: firstValue(params.actor),
    entityType: firstValue(params.entityType),
    action: firstValue(params.action),
    from: firstValue(params.from),
    to: firstValue(params.to),
    cursor: firstValue(params.cursor),
    after: firstValue(params.after),
  };
  const parsed = auditFilterSchema.safeParse(raw);
  const fieldErrors = parsed.success ? {} : fieldErrorsFromZod(parsed.error.issues);
  const [choices, page] = await Promise.all([
    auditFilterChoices(role),
    parsed.success ? findAuditEvents(parsed.data, actorOf(session)) : Promise.resolve(null),
  ]);
  const filterOnly = { ...raw, cursor: undefined, after: undefined };
  const queryWith = (extra: Record<string, string | undefined>) =>
    new URLSearchParams(
      Object.entries({ ...filterOnly, ...extra }).filter((entry): entry is [string, string] =>
        Boolean(entry[1]),
      ),
    ).toString();
  const nextQuery = page?.nextCursor ? queryWith({ cursor: page.nextCursor }) : null;
  const previousQuery = page?.previousCursor ? queryWith({ after: page.previousCursor }) : null;
  const exportQuery = queryWith({});

  return (
    <>
      <Heading level={1}>Audit log</Heading>
      <Card title="Filter" titleAs="h2">
        <form method="get" className="filters" aria-describedby="audit-filter-errors">
          <div className="field">
            <label htmlFor="audit-actor">Actor</label>
            <select id="audit-actor" name="actor" defaultValue={raw.actor ?? ""}>
              <option value="">Anyone</option>
              {choices.actors.map((actor) => (
                <option key={actor.id} value={actor.id}>
                  {actor.email ? `${actor.name} (${actor.email})` : actor.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-entity">Entity type</label>
            <select id="audit-entity" name="entityType" defaultValue={raw.entityType ?? ""}>
              <option value="">Any</option>
              {auditEntityTypes.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-action">Action</label>
            <select id="audit-action" name="action" defaultValue={raw.action ?? ""}>
              <option value="">Any</option>
              {choices.actions.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-from">From</label>
            <input
              id="audit-from"
              name="from"
              type="date"
              defaultValue={raw.from ?? ""}
              aria-invalid={fieldErrors.from ? true : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="audit-to">To</label>
            <input
              id="audit-to"
              name="to"
              type="date"
              defaultValue={raw.to ?? ""}
              aria-invalid={fieldErrors.to ? true : undefined}
            />
          </div>
          <button type="submit" className="button">
            Apply
          </button>
          <Link href="/admin/audit">Clear</Link>
        </form>
        <div id="audit-filter-errors" role="alert">
          {Object.entries(fieldErrors).map(([field, messages]) => (
            <p key={field} className="field-error">
              {field}: {messages.join(" ")}
            </p>
          ))}
        </div>
      </Card>
      {page ? (
        <TableRegion label="Audit events">
          <table>
            <caption className="muted">
              {page.total === 0
                ? "No events match."
                : `${page.total.toLocaleString(locale)} ${page.total === 1 ? "event" : "events"} match; newest first.`}
            </caption>
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Entity</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {page.events.map((event) => (
                <tr key={event.id}>
                  <td>
                    <time dateTime={event.at}>{event.at.replace("T", " ").slice(0, 19)}</time>
                  </td>
                  <td>
                    {event.actor.name}
                    {event.actor.email ? <span className="muted"> {event.actor.email}</span> : null}
                  </td>
                  <td>{event.action}</td>
                  <td>
                    {event.entityType}{" "}
                    {event.entity?.href ? (
                      <Link href={event.entity.href}>{event.entity.name}</Link>
                    ) : event.entity ? (
                      event.entity.name
                    ) : (
                      <span className="muted">
                        {event.entityType === "user" && !canSeeUserRecords(role)
                          ? "(hidden)"
                          : "(deleted)"}
                      </span>
                    )}
                  </td>
                  <td>
                    {event.detail ? (
                      <DetailList detail={event.detail} />
                    ) : (
                      <span className="muted">Only admins see these details.</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : (
        <Text>Fix the filter to see events.</Text>
      )}
      <nav aria-label="Audit pages" className="inline-list">
        {previousQuery ? <Link href={`/admin/audit?${previousQuery}`}>Newer events</Link> : null}
        {nextQuery ? <Link href={`/admin/audit?${nextQuery}`}>Older events</Link> : null}
        {page && page.total > 0 ? (
          <a href={`/admin/api/audit/export${exportQuery ? `?${exportQuery}` : ""}`} download>
            Download these events (CSV)
          </a>
        ) : null}
      </nav>
    </>
  );
}

function showValue(value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/**
 * An event's detail as a readable list: "field: before → after" where the detail holds
 * before/after pairs, "field: value" otherwise.
 */
function DetailList({ detail }: { detail: Record<string, unknown> }) {
  const entries = Object.entries(detail);
  if (entries.length === 0) return <span className="muted">–</span>;
  return (
    <dl className="detail-list">
      {entries.map(([field, value]) => {
        const pair =
          value !== null && typeof value === "object" && !Array.isArray(value)
            ? (value as Record<string, unknown>)
            : null;
        const changed = pair && ("before" in pair || "after" in pair);
        return (
          <div key={field}>
            <dt>{field}</dt>
            <dd>
              {changed ? `${showValue(pair.before)} → ${showValue(pair.after)}` : showValue(value)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
