// The one list of the kit's icon names. React-free, so it is also published on its own as
// "@seed/ui/icon-names" for code that validates names without rendering (e.g. @seed/model).

export const iconNames = [
  "crown",
  "folder",
  "building",
  "handshake",
  "shopping-cart",
  "circle-play",
  "bug",
  "database",
  "bookmark",
  "heart-handshake",
  "message-square-reply",
  "github",
  "arrow-down",
  "circle-x",
  "grid",
  "thumbs-up",
  "instagram",
] as const;

export type IconName = (typeof iconNames)[number];
