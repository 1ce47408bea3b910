import type { DatasetColumn } from "@seed/model";
import Link from "next/link";

/** Sort, search and page controls: a GET form and links, so the server reads only one page. */
export function RowsView(props: {
  datasetId: string;
  columns: DatasetColumn[];
  total: number;
  pageSize: number;
  page: number;
  sort?: string;
  descending: boolean;
  search?: string;
  /** The reader's locale, for the counts. */
  locale: string;
}) {
  const pageCount = Math.max(1, Math.ceil(props.total / props.pageSize));
  const href = (page: number) => {
    const params = new URLSearchParams();
    if (page > 1) params.set("page", String(page));
    if (props.sort) params.set("sort", props.sort);
    if (props.descending) params.set("dir", "desc");
    if (props.search) params.set("q", props.search);
    const query = params.toString();
    return `/admin/datasets/${props.datasetId}${query ? `?${query}` : ""}`;
  };
  return (
    <div className="stack">
      <form method="get" className="inline-list" aria-label="Sort and search rows">
        <div className="field">
          <label htmlFor="rows-sort">Sort by</label>
          <select id="rows-sort" name="sort" defaultValue={props.sort ?? ""}>
            <option value="">Order added</option>
            {props.columns.map((column) => (
              <option key={column.name} value={column.name}>
                {column.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rows-dir">Direction</label>
          <select id="rows-dir" name="dir" defaultValue={props.descending ? "desc" : "asc"}>
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="rows-search">Search text columns</label>
          <input
            id="rows-search"
            name="q"
            type="search"
            maxLength={200}
            defaultValue={props.search ?? ""}
          />
        </div>
        <button type="submit" className="button button-secondary">
          Show rows
        </button>
      </form>
      <nav aria-label="Row pages" className="inline-list">
        <span className="muted">
          {props.total.toLocaleString(props.locale)} rows
          {props.search ? " match" : ""}, page{" "}
          {Math.min(props.page, pageCount).toLocaleString(props.locale)} of{" "}
          {pageCount.toLocaleString(props.locale)}
        </span>
        {props.page > 1 ? <Link href={href(1)}>First page</Link> : null}
        {props.page > 1 ? <Link href={href(props.page - 1)}>Previous page</Link> : null}
        {props.page < pageCount ? <Link href={href(props.page + 1)}>Next page</Link> : null}
        {props.page < pageCount ? <Link href={href(pageCount)}>Last page</Link> : null}
      </nav>
      {pageCount > 1 ? (
        <form method="get" className="inline-list" aria-label="Go to a page of rows">
          {props.sort ? <input type="hidden" name="sort" value={props.sort} /> : null}
          {props.descending ? <input type="hidden" name="dir" value="desc" /> : null}
          {props.search ? <input type="hidden" name="q" value={props.search} /> : null}
          <div className="field">
            <label htmlFor="rows-page">Page (1 to {pageCount.toLocaleString(props.locale)})</label>
            <input
              id="rows-page"
              name="page"
              type="number"
              min={1}
              max={pageCount}
              required
              defaultValue={Math.min(props.page, pageCount)}
            />
          </div>
          <button type="submit" className="button button-secondary">
            Go to page
          </button>
        </form>
      ) : null}
    </div>
  );
}
