"use client";

import { apiTokenLimits } from "@seed/model";
import { useActionState } from "react";
import { type ApiTokenFormState, createApiToken, revokeApiToken } from "@/app/admin/tokens/actions";
import { FormMessages, SelectField } from "@/components/admin/form-controls";
import { RevokeTokenButton, TokenSecret } from "@/components/admin/token-secret";
import { FormField } from "@/components/form-field";
import { TableRegion } from "@/components/table-region";
import { minuteText } from "@/lib/minute-text";

/** A listed token as the page hands it over: no secret, no hash. */
export interface PersonalTokenRow {
  id: string;
  name: string;
  prefix: string;
  scope: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  status: "active" | "expired" | "revoked";
}

const scopeLabels: Record<string, string> = {
  read: "Read: what your account can see",
  write: "Write: also change content, as your account may",
};

function NewToken({ secret, name }: { secret: string; name: string }) {
  return (
    <TokenSecret
      secret={secret}
      name={name}
      usage="Use it with the API, for example:"
      example={`curl -H 'Authorization: Bearer ${secret}' \\\n  '${window.location.origin}/api/v1/dashboards'`}
    />
  );
}

export function CreatePersonalTokenForm() {
  const [state, action, pending] = useActionState<ApiTokenFormState, FormData>(createApiToken, {});
  return (
    <div className="stack">
      <FormMessages state={state} />
      {state.secret ? (
        <NewToken key={state.secret} secret={state.secret} name={state.tokenName ?? ""} />
      ) : null}
      <form action={action} className="form" noValidate aria-label="Create a personal API token">
        <FormField
          name="name"
          label="Token name"
          id="api-token-name"
          required
          maxLength={apiTokenLimits.maxNameLength}
          hint="Say what uses it, e.g. the dashboards repository's CI."
          errors={state.fieldErrors?.name}
        />
        <SelectField
          id="api-token-scope"
          name="scope"
          label="Scope"
          defaultValue="read"
          errors={state.fieldErrors?.scope}
        >
          <option value="read">{scopeLabels.read}</option>
          <option value="write">{scopeLabels.write}</option>
        </SelectField>
        <FormField
          name="expiresInDays"
          label="Days until it expires"
          id="api-token-days"
          type="number"
          required
          defaultValue="90"
          min={1}
          max={apiTokenLimits.maxLifetimeDays}
          hint={`Every token expires: 1 to ${apiTokenLimits.maxLifetimeDays} days.`}
          errors={state.fieldErrors?.expiresInDays}
        />
        <div>
          <button type="submit" className="button" disabled={pending}>
            {pending ? "Creating…" : "Create token"}
          </button>
        </div>
      </form>
    </div>
  );
}

export function PersonalTokenList({ tokens }: { tokens: PersonalTokenRow[] }) {
  if (tokens.length === 0) return <p className="muted">No tokens yet.</p>;
  return (
    <TableRegion label="Token list">
      <table>
        <caption className="muted">Your tokens; the secret itself is never shown again.</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Starts with</th>
            <th scope="col">Scope</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <td>{token.name}</td>
              <td>
                <code>{token.prefix}…</code>
              </td>
              <td>{token.scope}</td>
              <td>{minuteText(token.expiresAt)}</td>
              <td>{minuteText(token.lastUsedAt)}</td>
              <td>
                {token.status === "active"
                  ? "Active"
                  : token.status === "expired"
                    ? "Expired"
                    : "Revoked"}
              </td>
              <td>
                <RevokeTokenButton
                  action={revokeApiToken}
                  name={token.name}
                  revoked={token.status === "revoked"}
                  fields={{ tokenId: token.id }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
