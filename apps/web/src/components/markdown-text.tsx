import type { ComponentProps } from "react";
import Markdown, { defaultUrlTransform } from "react-markdown";

const safeSchemes = /^(https?|mailto):/i;

/** Only http(s), mailto and relative targets survive; anything else ("javascript:") becomes "". */
export function safeUrl(url: string): string {
  const checked = defaultUrlTransform(url);
  if (checked === "") return "";
  return /^[a-z][a-z0-9+.-]*:/i.test(checked) && !safeSchemes.test(checked) ? "" : checked;
}

type HeadingLevel = 2 | 3;

/**
 * A text tile's Markdown as React elements: raw HTML is dropped (never parsed into the page),
 * links keep only safe targets, images are not shown, and headings start below the page's own.
 */
export function MarkdownText({
  markdown,
  headingLevel = 2,
}: {
  markdown: string;
  headingLevel?: HeadingLevel;
}) {
  const heading = (depth: number) => {
    // "#" and "##" both become the first level under the page's own heading, deeper ones follow.
    const level = Math.min(6, Math.max(headingLevel, depth)) as 2 | 3 | 4 | 5 | 6;
    const Tag = `h${level}` as const;
    return ({ node: _node, ...props }: ComponentProps<"h2"> & { node?: unknown }) => (
      <Tag {...props} />
    );
  };
  return (
    <div className="dashboard-text">
      <Markdown
        skipHtml
        urlTransform={safeUrl}
        disallowedElements={["img"]}
        unwrapDisallowed
        components={{
          h1: heading(1),
          h2: heading(2),
          h3: heading(3),
          h4: heading(4),
          h5: heading(5),
          h6: heading(6),
          a: ({ node: _node, href, ...props }) =>
            href ? (
              <a href={href} rel="noopener noreferrer nofollow" {...props} />
            ) : (
              <span {...props} />
            ),
        }}
      >
        {markdown}
      </Markdown>
    </div>
  );
}
