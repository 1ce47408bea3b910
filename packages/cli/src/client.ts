// The REST API as the CLI uses it: a personal token as Bearer, problem details turned into lines.

export interface ApiProblem {
  status: number;
  detail: string;
  errors: { path: string; message: string; line?: number | null }[];
}

export class ApiError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.detail);
  }
}

export interface Client {
  listSlugs(): Promise<string[]>;
  /** The dashboard's file text and version, or null when there is none. */
  getFile(slug: string): Promise<{ text: string; etag: string } | null>;
  putFile(
    slug: string,
    text: string,
    ifMatch?: string,
  ): Promise<{ outcome: "created" | "updated" | "unchanged"; version: number }>;
}

async function problemOf(response: Response): Promise<ApiProblem> {
  try {
    const body = (await response.json()) as Partial<ApiProblem>;
    return {
      status: response.status,
      detail: body.detail ?? response.statusText,
      errors: body.errors ?? [],
    };
  } catch {
    return { status: response.status, detail: response.statusText, errors: [] };
  }
}

export function apiClient(baseUrl: string, token: string, fetcher: typeof fetch = fetch): Client {
  const root = `${baseUrl.replace(/\/+$/, "")}/api/v1`;
  const headers = { Authorization: `Bearer ${token}` };
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetcher(`${root}${path}`, {
      ...init,
      headers: { ...headers, ...(init.headers as Record<string, string>) },
    });
    return response;
  };
  return {
    async listSlugs() {
      const slugs: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const response = await call(`/dashboards${query}`);
        if (!response.ok) throw new ApiError(await problemOf(response));
        const page = (await response.json()) as {
          items: { slug: string }[];
          nextCursor: string | null;
        };
        slugs.push(...page.items.map((item) => item.slug));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return slugs;
    },
    async getFile(slug) {
      const response = await call(`/dashboards/${encodeURIComponent(slug)}`, {
        headers: { Accept: "application/yaml" },
      });
      if (response.status === 404) return null;
      if (!response.ok) throw new ApiError(await problemOf(response));
      return { text: await response.text(), etag: response.headers.get("etag") ?? "" };
    },
    async putFile(slug, text, ifMatch) {
      const response = await call(`/dashboards/${encodeURIComponent(slug)}`, {
        method: "PUT",
        body: text,
        headers: {
          "Content-Type": "application/yaml",
          ...(ifMatch ? { "If-Match": ifMatch } : {}),
        },
      });
      if (!response.ok) throw new ApiError(await problemOf(response));
      return (await response.json()) as {
        outcome: "created" | "updated" | "unchanged";
        version: number;
      };
    },
  };
}
