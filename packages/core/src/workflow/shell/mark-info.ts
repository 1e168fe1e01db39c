/**
 * What the nested-shell check knows of one `{{ }}` value in a shell text: where it stands,
 * how often it is escaped and which variable carries it. Template rendering fills it in,
 * the check and its hints read it.
 */
export type MarkInfo = {
  /** Offset of the `{{` in the checked text. */
  at: number;
  /** The action's text, `.inputs.msg`. */
  source: string;
  /** How many times the value is shell-quoted (`escape`): how many more shells it survives. */
  escapes: number;
  /** A number, a boolean or nothing: harmless wherever it lands. */
  numeric: boolean;
  /** The environment variable the value travels in, when it has a stable name. */
  variable?: string;
};
