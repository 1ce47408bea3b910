import type { MailSubscription } from "@seed/store";
import { escapeHtml } from "@/server/reports/report-render";
import { getStore } from "@/server/store";

// A report's or an alert's recipient's own unsubscribe link. GET shows whom it is for and a button (mail
// scanners open links, so a GET changes nothing); POST unsubscribes: the button, or a mail
// client's RFC 8058 one-click POST ("List-Unsubscribe=One-Click"). The token is the only key,
// and an unknown one says so without telling anything else.

export const dynamic = "force-dynamic";

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{margin:0;font-family:Geist,Arial,sans-serif;color:#18181b;background:#fff}main{max-width:32rem;margin:0 auto;padding:2rem 1rem;overflow-wrap:anywhere}button{font:inherit;padding:.5rem 1rem;border-radius:.375rem;border:1px solid #18181b;background:#18181b;color:#fff;cursor:pointer}button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}

const unknown = () =>
  page(
    404,
    "Link not found",
    "<p>This unsubscribe link is not known here. The report or alert may have been deleted.</p>",
  );

const left = (found: MailSubscription) =>
  page(
    200,
    "You are unsubscribed",
    `<p>${escapeHtml(found.address)} no longer gets the ${found.kind} “${escapeHtml(found.name)}”. Its owner can see that you left.</p>`,
  );

export async function GET(
  _request: Request,
  { params }: { params: Promise<{ token: string }> },
): Promise<Response> {
  const { token } = await params;
  const found = await (await getStore()).mailSubscription(token);
  if (!found) return unknown();
  if (found.unsubscribed) return left(found);
  return page(
    200,
    `Unsubscribe from ${found.kind === "report" ? "a report" : "an alert"}`,
    `<p>Stop sending the ${found.kind} “${escapeHtml(found.name)}” to ${escapeHtml(found.address)}?</p><form method="post"><button type="submit">Unsubscribe</button></form>`,
  );
}

export async function POST(
  _request: Request,
  { params }: { params: Promise<{ token: string }> },
): Promise<Response> {
  const { token } = await params;
  const done = await (await getStore()).unsubscribeMail(token);
  if (!done) return unknown();
  return left(done);
}
