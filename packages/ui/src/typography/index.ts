export { Heading, type HeadingLevel, type HeadingProps } from "./heading";
export { Text, type TextProps, type TextSize } from "./text";
