"use client";

import { pushLimits } from "@seed/model";
import { useActionState } from "react";
import {
  createDatasetToken,
  type DatasetTokenFormState,
  revokeDatasetToken,
} from "@/app/admin/datasets/actions";
import { FormMessages, SelectField } from "@/components/admin/form-controls";
import { RevokeTokenButton, TokenSecret } from "@/components/admin/token-secret";
import { FormField } from "@/components/form-field";
import { TableRegion } from "@/components/table-region";
import { minuteText } from "@/lib/minute-text";

/** A listed token as the page hands it over: no secret, no hash. */
export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scope: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  status: "active" | "expired" | "revoked";
}

const scopeLabels: Record<string, string> = {
  append: "Append rows",
  replace: "Replace or append rows",
};

/** The example a token's owner copies: the real URL, their token, the dataset's columns. */
function curlExample(origin: string, datasetId: string, secret: string, csvHeader: string) {
  const url = `${origin}/api/datasets/${datasetId}/rows`;
  return [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer ${secret}' \\`,
    `  -H 'Content-Type: text/csv' \\`,
    `  -H 'Idempotency-Key: '"$(uuidgen)" \\`,
    `  --data-binary @rows.csv`,
    "",
    `# rows.csv starts with the header: ${csvHeader}`,
  ].join("\n");
}

function NewToken({
  secret,
  name,
  datasetId,
  csvHeader,
}: {
  secret: string;
  name: string;
  datasetId: string;
  csvHeader: string;
}) {
  return (
    <TokenSecret
      secret={secret}
      name={name}
      usage="Push rows with it, for example:"
      example={curlExample(window.location.origin, datasetId, secret, csvHeader)}
    />
  );
}

export function CreateTokenForm({
  datasetId,
  csvHeader,
}: {
  datasetId: string;
  csvHeader: string;
}) {
  const [state, action, pending] = useActionState<DatasetTokenFormState, FormData>(
    createDatasetToken,
    {},
  );
  return (
    <div className="stack">
      <FormMessages state={state} />
      {state.secret ? (
        <NewToken
          key={state.secret}
          secret={state.secret}
          name={state.tokenName ?? ""}
          datasetId={datasetId}
          csvHeader={csvHeader}
        />
      ) : null}
      <form action={action} className="form" noValidate aria-label="Create an API token">
        <input type="hidden" name="datasetId" value={datasetId} />
        <FormField
          name="name"
          label="Token name"
          id="token-name"
          required
          maxLength={pushLimits.maxTokenNameLength}
          hint="Say what uses it, e.g. the nightly sales export."
          errors={state.fieldErrors?.name}
        />
        <SelectField
          id="token-scope"
          name="scope"
          label="Scope"
          defaultValue="append"
          errors={state.fieldErrors?.scope}
        >
          <option value="append">{scopeLabels.append}</option>
          <option value="replace">{scopeLabels.replace}</option>
        </SelectField>
        <FormField
          name="expiresAt"
          label="Expires on (optional)"
          id="token-expires"
          type="date"
          maxLength={10}
          hint="The token stops working at 00:00 UTC that day; at most a year ahead."
          errors={state.fieldErrors?.expiresAt}
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

export function TokenList({ datasetId, tokens }: { datasetId: string; tokens: TokenRow[] }) {
  if (tokens.length === 0) return <p className="muted">No tokens yet.</p>;
  return (
    <TableRegion label="Token list">
      <table>
        <caption className="muted">
          Tokens of this dataset; the secret itself is never shown again.
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Starts with</th>
            <th scope="col">Scope</th>
            <th scope="col">Created by</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id} data-token-name={token.name}>
              <td>{token.name}</td>
              <td>
                <code>{token.prefix}…</code>
              </td>
              <td>{scopeLabels[token.scope] ?? token.scope}</td>
              <td>
                {token.createdBy}
                <span className="muted"> {minuteText(token.createdAt)}</span>
              </td>
              <td>{token.expiresAt ? minuteText(token.expiresAt) : "Never"}</td>
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
                  action={revokeDatasetToken}
                  name={token.name}
                  revoked={token.status === "revoked"}
                  fields={{ datasetId, tokenId: token.id }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
