import { statusNames } from "@/lib/http-status";

/** Next's wording for an unexpected failure: a digest means the server threw, so point at its logs. */
export function ApplicationError({ digest, onRetry }: { digest?: string; onRetry?: () => void }) {
  const serverSide = Boolean(digest);
  return (
    <main id="main" className="status-page">
      <p className="status-code">500</p>
      <p className="muted">{statusNames[500]}</p>
      <h1>
        Application error: a {serverSide ? "server-side" : "client-side"} exception has occurred
      </h1>
      <p>
        {serverSide
          ? "See the server logs for more information."
          : "See the browser console for more information."}
      </p>
      {digest ? (
        <p className="digest">
          Digest: <code data-testid="error-digest">{digest}</code>
        </p>
      ) : null}
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </main>
  );
}
