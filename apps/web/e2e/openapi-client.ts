import {
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  request as playwrightRequest,
} from "@playwright/test";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { signedInPage, uniqueName } from "./content-support";
import { appBaseURL, type TestRole } from "./support";

// A client of /api/v1 for the e2e suite that checks every answer against the OpenAPI document
// the app serves: the operation (path template and method) must be documented, the status must
// be one of its responses, the content type one that response names, and a JSON body must fit
// its schema (ajv, JSON Schema 2020-12, formats checked). No answer of the API goes unchecked.

type Schema = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export interface CheckedApi {
  document: OpenApiDocument;
  get(path: string, headers?: Record<string, string>): Promise<APIResponse>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<APIResponse>;
  put(path: string, body: string, headers?: Record<string, string>): Promise<APIResponse>;
  delete(path: string, headers?: Record<string, string>): Promise<APIResponse>;
  /** Checks an answer got some other way (a raw request) against its operation. */
  check(method: string, response: APIResponse): Promise<void>;
  dispose(): Promise<void>;
}

let loaded: Promise<{ document: OpenApiDocument; ajv: Ajv2020 }> | null = null;

async function loadDocument() {
  const client = await playwrightRequest.newContext({ baseURL: appBaseURL() });
  const answer = await client.get("/api/v1/openapi.json");
  expect(answer.status()).toBe(200);
  const document = (await answer.json()) as OpenApiDocument;
  await client.dispose();
  expect(document.openapi).toBe("3.1.0");
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    ajv.addSchema(schema, `#/components/schemas/${name}`);
  }
  return { document, ajv };
}

/** The document's path template a concrete path fits ("/charts/abc" -> "/charts/{id}"). */
function templateOf(document: OpenApiDocument, path: string): string | undefined {
  return Object.keys(document.paths).find((template) => {
    const pattern = template
      .split(/(\{\w+\})/)
      .map((part) => (/^\{\w+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
      .join("");
    return new RegExp(`^${pattern}$`).test(path);
  });
}

const validators = new Map<string, ValidateFunction>();

async function checkAnswer(
  document: OpenApiDocument,
  ajv: Ajv2020,
  method: string,
  response: APIResponse,
): Promise<void> {
  const url = new URL(response.url());
  expect(url.pathname.startsWith("/api/v1/"), url.pathname).toBe(true);
  const path = url.pathname.slice("/api/v1".length);
  const template = templateOf(document, path);
  expect(template, `${path} is not in the OpenAPI document`).toBeDefined();
  const operation = document.paths[template as string]?.[method.toLowerCase()];
  expect(operation, `${method} ${template} is not in the OpenAPI document`).toBeDefined();
  const status = String(response.status());
  const documented = operation?.responses[status] ?? operation?.responses.default;
  expect(
    documented,
    `${method} ${template} answered ${status}, which is not documented`,
  ).toBeDefined();
  const body = await response.body();
  if (!documented?.content) {
    expect(
      body.length,
      `${method} ${template} ${status} has a body the document does not name`,
    ).toBe(0);
    return;
  }
  const type = (response.headers()["content-type"] ?? "").split(";")[0]?.trim() ?? "";
  const media = documented.content[type];
  expect(
    media,
    `${method} ${template} ${status} answered ${type}, not one documented`,
  ).toBeDefined();
  if (!type.endsWith("json") || !media?.schema) return;
  const key = JSON.stringify(media.schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(media.schema);
    validators.set(key, validate);
  }
  const value = JSON.parse(body.toString("utf8")) as unknown;
  const fits = validate(value);
  expect(fits, `${method} ${url.pathname} ${status}: ${JSON.stringify(validate.errors)}`).toBe(
    true,
  );
}

/** A client with `secret` as its Bearer token (none: anonymous) whose every answer is checked. */
export async function checkedApi(secret?: string): Promise<CheckedApi> {
  loaded ??= loadDocument();
  const { document, ajv } = await loaded;
  const http: APIRequestContext = await playwrightRequest.newContext({
    baseURL: appBaseURL(),
    extraHTTPHeaders: secret ? { Authorization: `Bearer ${secret}` } : {},
  });
  const checked = async (method: string, response: APIResponse) => {
    await checkAnswer(document, ajv, method, response);
    return response;
  };
  return {
    document,
    get: async (path, headers) => checked("GET", await http.get(`/api/v1${path}`, { headers })),
    post: async (path, body, headers) =>
      checked(
        "POST",
        await http.post(`/api/v1${path}`, {
          // A string is sent as it is (Playwright would send it as a JSON string).
          data: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
          headers: { "Content-Type": "application/json", ...headers },
        }),
      ),
    put: async (path, body, headers) =>
      checked(
        "PUT",
        await http.put(`/api/v1${path}`, {
          data: Buffer.from(body),
          headers: { "Content-Type": "application/yaml", ...headers },
        }),
      ),
    delete: async (path, headers) =>
      checked("DELETE", await http.delete(`/api/v1${path}`, { headers })),
    check: (method, response) => checkAnswer(document, ajv, method, response),
    dispose: () => http.dispose(),
  };
}

/** A personal API token made in /admin/tokens by a signed-in `role`; its page stays open. */
export async function apiTokenOf(
  browser: Browser,
  role: TestRole,
  scope: "read" | "write",
): Promise<{ secret: string; name: string; context: BrowserContext; page: Page }> {
  const { context, page } = await signedInPage(browser, role);
  await page.goto("/admin/tokens");
  const name = uniqueName(`API ${scope}`);
  await page.getByRole("textbox", { name: "Token name" }).fill(name);
  await page.getByLabel("Scope").selectOption(scope);
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = await page.getByLabel(`Token for ${name}`).inputValue();
  expect(secret).toMatch(/^seed_pat_/);
  return { secret, name, context, page };
}
