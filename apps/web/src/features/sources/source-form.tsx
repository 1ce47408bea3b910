"use client";

import { sourceLimits, sourceSslModes } from "@seed/model";
import type { FormEvent } from "react";
import { saveSource } from "@/app/admin/sources/actions";
import { FormMessages, SelectField } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";

export interface SourceFormValues {
  id: string;
  version: number;
  name: string;
  host: string;
  port: number;
  database: string;
  user: string;
  sslMode: string;
  statementTimeoutMs: number;
  rowCap: number;
  cacheTtlSeconds: number;
}

/** New or edit: "Test connection" tries the settings as typed; "Save" stores them. */
export function SourceForm({ source }: { source?: SourceFormValues }) {
  const { state, pending, submit } = useContentForm(saveSource);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    submit(new FormData(event.currentTarget, submitter));
  };
  const errors = state.fieldErrors ?? {};
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Connection">
      {source ? (
        <>
          <input type="hidden" name="sourceId" value={source.id} />
          <input type="hidden" name="version" value={source.version} />
        </>
      ) : null}
      <FormMessages state={state} />
      <FormField
        name="name"
        label="Name"
        id="source-name"
        required
        maxLength={sourceLimits.maxNameLength}
        defaultValue={source?.name}
        errors={errors.name}
      />
      <FormField
        name="host"
        label="Host"
        id="source-host"
        required
        maxLength={sourceLimits.maxHostLength}
        defaultValue={source?.host}
        errors={errors.host}
      />
      <FormField
        name="port"
        label="Port"
        id="source-port"
        inputMode="numeric"
        defaultValue={source?.port ?? 5432}
        errors={errors.port}
      />
      <FormField
        name="database"
        label="Database"
        id="source-database"
        required
        maxLength={sourceLimits.maxIdentifierLength}
        defaultValue={source?.database}
        errors={errors.database}
      />
      <FormField
        name="user"
        label="User (a read-only role)"
        id="source-user"
        required
        autoComplete="off"
        maxLength={sourceLimits.maxIdentifierLength}
        defaultValue={source?.user}
        errors={errors.user}
      />
      <FormField
        name="password"
        label="Password"
        id="source-password"
        type="password"
        autoComplete="new-password"
        required={!source}
        maxLength={sourceLimits.maxPasswordLength}
        hint={
          source
            ? "Leave blank to keep the saved password; it is asked for again if the host, port, database or user changes."
            : "Kept encrypted; never shown again."
        }
        errors={errors.password}
      />
      <SelectField
        id="source-ssl"
        name="sslMode"
        label="SSL"
        defaultValue={source?.sslMode ?? "require"}
        errors={errors.sslMode}
      >
        {sourceSslModes.map((mode) => (
          <option key={mode} value={mode}>
            {mode}
          </option>
        ))}
      </SelectField>
      <FormField
        name="statementTimeoutMs"
        label="Statement timeout (ms)"
        id="source-timeout"
        inputMode="numeric"
        hint={`${sourceLimits.minStatementTimeoutMs}–${sourceLimits.maxStatementTimeoutMs.toLocaleString("en-US")} ms`}
        defaultValue={source?.statementTimeoutMs ?? sourceLimits.defaultStatementTimeoutMs}
        errors={errors.statementTimeoutMs}
      />
      <FormField
        name="rowCap"
        label="Row cap"
        id="source-row-cap"
        inputMode="numeric"
        hint={`Most rows one query returns (up to ${sourceLimits.maxRowCap.toLocaleString("en-US")}).`}
        defaultValue={source?.rowCap ?? sourceLimits.defaultRowCap}
        errors={errors.rowCap}
      />
      <FormField
        name="cacheTtlSeconds"
        label="Cache time-to-live (seconds)"
        id="source-ttl"
        inputMode="numeric"
        hint={`Published pages reading this source are rendered again at most this long after the last render (0–${sourceLimits.maxCacheTtlSeconds.toLocaleString("en-US")}).`}
        defaultValue={source?.cacheTtlSeconds ?? sourceLimits.defaultCacheTtlSeconds}
        errors={errors.cacheTtlSeconds}
      />
      <div className="button-row">
        <button
          type="submit"
          name="intent"
          value="test"
          className="button button-secondary"
          disabled={pending}
        >
          Test connection
        </button>
        <button type="submit" name="intent" value="save" className="button" disabled={pending}>
          {pending ? "Working…" : source ? "Save source" : "Add source"}
        </button>
      </div>
    </form>
  );
}
