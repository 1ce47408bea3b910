import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JWK,
  SignJWT,
} from "jose";
import Provider from "oidc-provider";

// A real OpenID Connect provider for the single sign-on tests (the `oidc-provider` package, the
// certified implementation many identity servers build on), on loopback. Its own sign-in and
// consent pages (devInteractions) take any login name; the accounts below give each name its
// claims. A test may set `tamper` to change what the provider answers, the way a hostile network
// or provider would: the authorization request without its nonce, or the ID token re-signed with
// other claims (with the provider's own key, or with a key it never published).

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
  /** An attribute row limits compare with (SEED_OIDC_ATTRIBUTE_CLAIMS=region). */
  region?: string;
}

export type IdTokenClaims = Record<string, unknown>;

export type Tamper =
  | { kind: "none" }
  | { kind: "drop-nonce" }
  /** The ID token re-signed with the provider's published key, its claims changed. */
  | { kind: "claims"; change: (claims: IdTokenClaims) => IdTokenClaims }
  /** The ID token re-signed by a key the provider never published (same key id). */
  | { kind: "foreign-key" }
  /** One character of the ID token's signature changed. */
  | { kind: "broken-signature" }
  /** The ID token's claims with `alg: none` and no signature. */
  | { kind: "unsigned" }
  /**
   * The provider rotated its signing key: its JWKS publishes only a new key (another key id),
   * which signs every ID token from then on; the old key is retired.
   */
  | { kind: "rotated-key" }
  /** After that rotation, an ID token still signed by the retired key (its key id no longer published). */
  | { kind: "retired-key" };

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, ProviderAccount>;
  tamper: Tamper;
  /** Authorization codes the provider issued, newest last. */
  issuedCodes: string[];
  /** When its JWKS was asked for (Date.now()), newest last. */
  keyFetches: number[];
  close(): Promise<void>;
}

export async function startTestProvider(options: {
  port: number;
  redirectUri: string;
}): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const clientId = "seed-charts-e2e";
  const clientSecret = `secret-${crypto.randomUUID()}`;
  const signing = await generateKeyPair("RS256", { extractable: true });
  const foreign = await generateKeyPair("RS256", { extractable: true });
  const rotated = await generateKeyPair("RS256", { extractable: true });
  const rotatedPublicJwk: JWK = {
    ...(await exportJWK(rotated.publicKey)),
    kid: "e2e-2",
    alg: "RS256",
    use: "sig",
  };
  const privateJwk: JWK = {
    ...(await exportJWK(signing.privateKey)),
    kid: "e2e-1",
    alg: "RS256",
    use: "sig",
  };
  const accounts = new Map<string, ProviderAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [privateJwk] },
    cookies: { keys: [crypto.randomUUID()] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "region"],
      groups: ["groups"],
    },
    scopes: ["openid", "email", "profile", "groups", "offline_access"],
    // Every released claim goes into the ID token too, as Keycloak and Authentik do by default.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_context, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  // oidc-provider warns about its development pages; they are what this test provider is for.
  provider.on("server_error", (_context, error) => console.error("[test provider]", error));

  const state: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamper: { kind: "none" },
    issuedCodes: [],
    keyFetches: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  async function resign(idToken: string): Promise<string> {
    const tamper = state.tamper;
    if (tamper.kind === "broken-signature") {
      const [head, body, signature = ""] = idToken.split(".");
      const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
      return `${head}.${body}.${flipped}`;
    }
    if (tamper.kind === "unsigned") {
      const [, body] = idToken.split(".");
      const head = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
      return `${head}.${body}.`;
    }
    const claims = decodeJwt(idToken) as IdTokenClaims;
    const header = decodeProtectedHeader(idToken);
    const changed = tamper.kind === "claims" ? tamper.change({ ...claims }) : claims;
    if (tamper.kind === "rotated-key") {
      return new SignJWT(changed)
        .setProtectedHeader({ alg: "RS256", kid: rotatedPublicJwk.kid })
        .sign(rotated.privateKey);
    }
    const key = tamper.kind === "foreign-key" ? foreign.privateKey : signing.privateKey;
    return new SignJWT(changed)
      .setProtectedHeader({ alg: "RS256", kid: header.kid ?? "e2e-1" })
      .sign(key);
  }

  const callback = provider.callback();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", issuer);
    if (url.pathname === "/auth" && state.tamper.kind === "drop-nonce") {
      url.searchParams.delete("nonce");
      request.url = `${url.pathname}${url.search}`;
    }
    if (url.pathname === "/jwks") state.keyFetches.push(Date.now());
    if (
      url.pathname === "/jwks" &&
      (state.tamper.kind === "rotated-key" || state.tamper.kind === "retired-key")
    ) {
      rewriteJson(response, async () => ({ keys: [rotatedPublicJwk] }));
    }
    if (
      url.pathname === "/token" &&
      [
        "claims",
        "foreign-key",
        "broken-signature",
        "unsigned",
        "rotated-key",
        "retired-key",
      ].includes(state.tamper.kind)
    ) {
      rewriteJson(response, async (body) => {
        if (typeof body.id_token === "string") body.id_token = await resign(body.id_token);
        return body;
      });
    }
    if (url.pathname.startsWith("/interaction/") || url.pathname === "/auth") {
      // Codes reach the app through the browser; the test keeps them to replay.
      const writeHead = response.writeHead.bind(response);
      response.writeHead = ((status: number, ...rest: unknown[]) => {
        const location = response.getHeader("location");
        if (typeof location === "string") {
          const code = new URL(location, issuer).searchParams.get("code");
          if (code) state.issuedCodes.push(code);
        }
        return (writeHead as (...args: unknown[]) => ServerResponse)(status, ...rest);
      }) as typeof response.writeHead;
    }
    callback(request, response);
  });
  await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
  return state;
}

/** Holds a JSON response back, lets `change` rewrite it, then sends it with its new length. */
function rewriteJson(
  response: ServerResponse,
  change: (body: Record<string, unknown>) => Promise<Record<string, unknown>>,
): void {
  const chunks: Buffer[] = [];
  const write = response.write.bind(response);
  const end = response.end.bind(response);
  response.write = ((chunk: unknown) => {
    if (chunk) chunks.push(Buffer.from(chunk as Buffer));
    return true;
  }) as typeof response.write;
  response.end = ((chunk?: unknown) => {
    if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk as Buffer));
    const text = Buffer.concat(chunks).toString("utf8");
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      write(text);
      return end();
    }
    void change(body).then((changed) => {
      const out = JSON.stringify(changed);
      if (!response.headersSent) response.setHeader("content-length", Buffer.byteLength(out));
      write(out);
      end();
    });
    return response;
  }) as typeof response.end;
}
