import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { extname, join, normalize } from "node:path";

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

/** Serves a production build folder on 127.0.0.1, like any static host would. */
export async function serveStatic(root: string, port: number): Promise<Server> {
  const server = createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    const relative = normalize(pathname === "/" ? "/index.html" : pathname).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    try {
      const body = await readFile(join(root, relative));
      response.writeHead(200, {
        "content-type": contentTypes[extname(relative)] ?? "application/octet-stream",
      });
      response.end(body);
    } catch {
      response.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolvePromise());
  });
  return server;
}
