import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { openApiDocument } from "@/lib/openapi";

// The REST API's reference, read from the same OpenAPI document /api/v1/openapi.json serves: each
// operation with its parameters, body and answers, and each schema's fields. Static: the document
// is the build's.

export const metadata: Metadata = { title: "API reference" };

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};
type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Schema;
};
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};
type PathItem = { parameters?: Parameter[] } & Partial<Record<(typeof methods)[number], Operation>>;

const methods = ["get", "put", "post", "delete"] as const;
const schemaAnchor = (name: string) => `schema-${name}`;

/** A schema in a few words, a named schema as a link to its fields. */
function typeOf(schema: Schema | undefined): ReactNode {
  if (!schema) return "any";
  if (schema.$ref) {
    const name = schema.$ref.split("/").at(-1) as string;
    return <a href={`#${schemaAnchor(name)}`}>{name}</a>;
  }
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    return union.map((part, index) => (
      <Fragment key={index}>
        {index > 0 ? " | " : ""}
        {typeOf(part)}
      </Fragment>
    ));
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  if (type === "array") return <>array of {typeOf(schema.items)}</>;
  const limits = [
    schema.format,
    schema.minimum !== undefined ? `from ${schema.minimum}` : null,
    schema.maximum !== undefined ? `to ${schema.maximum}` : null,
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : null,
  ].filter(Boolean);
  return limits.length > 0 ? `${type} (${limits.join(", ")})` : type;
}

function OperationEntry({ method, path, item }: { method: string; path: string; item: PathItem }) {
  const operation = item[method as (typeof methods)[number]] as Operation;
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
  const id = `op-${operation.operationId}`;
  return (
    <section aria-labelledby={id} className="api-operation stack">
      <Heading level={3} id={id}>
        <span className="api-method">{method.toUpperCase()}</span> <code>/api/v1{path}</code>
      </Heading>
      <Text>{operation.summary}</Text>
      {operation.description ? <Text muted>{operation.description}</Text> : null}
      {parameters.length > 0 ? (
        <>
          <Heading level={4}>Parameters</Heading>
          <dl className="api-fields">
            {parameters.map((parameter) => (
              <div key={`${parameter.in}-${parameter.name}`}>
                <dt>
                  <code>{parameter.name}</code> <span className="api-muted">in {parameter.in}</span>
                  {parameter.required ? <span className="api-muted">, required</span> : null}
                </dt>
                <dd>
                  {typeOf(parameter.schema)}
                  {parameter.description ? `: ${parameter.description}` : null}
                </dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      {operation.requestBody ? (
        <>
          <Heading level={4}>Body</Heading>
          <ul className="api-list">
            {Object.entries(operation.requestBody.content).map(([type, media]) => (
              <li key={type}>
                <code>{type}</code>: {typeOf(media.schema)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <Heading level={4}>Answers</Heading>
      <dl className="api-fields">
        {Object.entries(operation.responses).map(([status, response]) => (
          <div key={status}>
            <dt>
              <code>{status}</code>
            </dt>
            <dd>
              {response.description}
              {Object.entries(response.content ?? {}).map(([type, media]) => (
                <Fragment key={type}>
                  {" "}
                  (<code>{type}</code>: {typeOf(media.schema)})
                </Fragment>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function SchemaEntry({ name, schema }: { name: string; schema: Schema }) {
  const id = schemaAnchor(name);
  const fields = Object.entries(schema.properties ?? {});
  return (
    <section aria-labelledby={id} className="api-operation stack">
      <Heading level={3} id={id}>
        {name}
      </Heading>
      {schema.description ? <Text muted>{schema.description}</Text> : null}
      {fields.length === 0 ? (
        <Text>{typeOf(schema)}</Text>
      ) : (
        <dl className="api-fields">
          {fields.map(([field, fieldSchema]) => (
            <div key={field}>
              <dt>
                <code>{field}</code>
                {schema.required?.includes(field) ? null : (
                  <span className="api-muted"> (optional)</span>
                )}
              </dt>
              <dd>
                {typeOf(fieldSchema)}
                {fieldSchema.description ? `: ${fieldSchema.description}` : null}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

export default function ApiReferencePage() {
  const document = openApiDocument("") as {
    info: { title: string; description: string };
    paths: Record<string, PathItem>;
    components: { schemas: Record<string, Schema> };
  };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => ({ path, method, item })),
  );
  return (
    <>
      <SiteHeader />
      <main id="main" className="site-main stack api-reference">
        <Heading level={1}>API reference</Heading>
        <Text>{document.info.description}</Text>
        <Text>
          Make a token on <Link href="/admin/tokens">API tokens</Link> in the admin area. The
          document itself is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI
          3.1) for generated clients, and a dashboard file's JSON Schema at{" "}
          <a href="/api/v1/schemas/dashboard-file.json">/api/v1/schemas/dashboard-file.json</a>.
        </Text>
        <nav aria-label="Operations" className="stack">
          <Heading level={2}>Operations</Heading>
          <ul className="api-list">
            {operations.map(({ path, method, item }) => {
              const operation = item[method] as Operation;
              return (
                <li key={operation.operationId}>
                  <a href={`#op-${operation.operationId}`}>
                    {method.toUpperCase()} /api/v1{path}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <section aria-labelledby="operations-heading" className="stack">
          <Heading level={2} id="operations-heading">
            Each operation
          </Heading>
          {operations.map(({ path, method, item }) => (
            <OperationEntry key={`${method} ${path}`} method={method} path={path} item={item} />
          ))}
        </section>
        <section aria-labelledby="schemas-heading" className="stack">
          <Heading level={2} id="schemas-heading">
            Schemas
          </Heading>
          {Object.entries(document.components.schemas).map(([name, schema]) => (
            <SchemaEntry key={name} name={name} schema={schema} />
          ))}
        </section>
      </main>
    </>
  );
}
