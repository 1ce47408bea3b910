"use client";

import { embedLimits, refreshIntervals } from "@seed/model";
import { useActionState, useState } from "react";
import {
  createEmbedLink,
  type EmbedLinkState,
  updateDashboardEmbedding,
} from "@/app/admin/dashboards/actions";
import styles from "@/components/admin/admin.module.css";
import { FormMessages, SelectField, TextAreaField } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { RecordFields } from "./record-fields";

const refreshLabels: Record<(typeof refreshIntervals)[number], string> = {
  30: "Every 30 seconds",
  60: "Every minute",
  300: "Every 5 minutes",
  900: "Every 15 minutes",
};

/** Who may frame the dashboard's embeds, and how often its pages refresh themselves. */
export function DashboardEmbeddingForm({
  initial,
}: {
  initial: { embedOrigins: string[]; refreshSeconds: number | null };
}) {
  const { state, pending, onSubmit } = useContentForm(updateDashboardEmbedding);
  const errors = state.fieldErrors ?? {};
  return (
    <form
      onSubmit={onSubmit}
      className={styles.wideForm}
      noValidate
      aria-label="Embedding and refresh"
    >
      <RecordFields />
      <FormMessages state={state} />
      <TextAreaField
        id="dashboard-embed-origins"
        name="embedOrigins"
        label="Sites allowed to embed this dashboard (one origin per line)"
        hint={`Up to ${embedLimits.maxOrigins}, e.g. https://intranet.example.com or https://*.example.com (its subdomains). Plain http only for localhost. Empty: no site can embed it.`}
        rows={4}
        defaultValue={initial.embedOrigins.join("\n")}
        errors={errors.embedOrigins}
      />
      <SelectField
        id="dashboard-refresh"
        name="refreshSeconds"
        label="Auto-refresh"
        hint="How often the public page and its embeds fetch new data while they are on screen."
        defaultValue={initial.refreshSeconds === null ? "" : String(initial.refreshSeconds)}
        errors={errors.refreshSeconds}
      >
        <option value="">Off</option>
        {refreshIntervals.map((seconds) => (
          <option key={seconds} value={seconds}>
            {refreshLabels[seconds]}
          </option>
        ))}
      </SelectField>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save embedding and refresh"}
        </button>
      </div>
    </form>
  );
}

const linkLifetimes = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "1 day" },
  { seconds: 604_800, label: "7 days" },
  { seconds: 2_592_000, label: "30 days" },
] as const;

/** Makes a signed link (and its <iframe> snippet) that embeds the dashboard even as a draft. */
export function EmbedLinkForm({
  dashboardId,
  title,
  charts,
}: {
  dashboardId: string;
  title: string;
  charts: { id: string; title: string }[];
}) {
  const [state, action, pending] = useActionState<EmbedLinkState, FormData>(createEmbedLink, {});
  const [copied, setCopied] = useState(false);
  const url = state.url;
  const snippet = url
    ? `<iframe src="${url}" title="${title.replace(/["&<>]/g, "")}" width="100%" height="600" style="border:0" loading="lazy"></iframe>`
    : "";
  return (
    <form action={action} className={styles.wideForm} aria-label="Signed embed link">
      <input type="hidden" name="dashboardId" value={dashboardId} />
      <FormMessages state={state} withFieldErrors />
      <SelectField id="embed-link-target" name="target" label="Embed" defaultValue="dashboard">
        <option value="dashboard">The whole dashboard</option>
        {charts.map((chart) => (
          <option key={chart.id} value={`chart:${chart.id}`}>
            Chart: {chart.title}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="embed-link-expiry"
        name="expiresIn"
        label="Link works for"
        defaultValue="604800"
      >
        {linkLifetimes.map((lifetime) => (
          <option key={lifetime.seconds} value={lifetime.seconds}>
            {lifetime.label}
          </option>
        ))}
      </SelectField>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Signing…" : "Make signed link"}
        </button>
      </div>
      {url ? (
        <>
          <TextAreaField
            id="embed-link-snippet"
            label="Embed code"
            hint={`Works until ${new Date(state.expiresAt ?? "").toLocaleString()}, on the sites allowed above.`}
            readOnly
            rows={3}
            value={snippet}
          />
          <div className={styles.checkRow}>
            <button
              type="button"
              className="button"
              onClick={() => {
                void navigator.clipboard.writeText(snippet).then(() => setCopied(true));
              }}
            >
              Copy embed code
            </button>
            <a href={url} target="_blank" rel="noopener noreferrer">
              Open the signed link
            </a>
            <span role="status">{copied ? "Copied." : ""}</span>
          </div>
        </>
      ) : null}
    </form>
  );
}
