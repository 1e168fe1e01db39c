export { mapStrings } from "./map-strings";
export { REDACTED, Scrubber, type Span } from "./scrubber";
export { ScrubStream } from "./scrub-stream";
export { scrubbedCapture, type ScrubbedCapture } from "./scrubbed-capture";
export { checkSecretLength, MIN_SECRET_LENGTH } from "./secret-length";
export { checkVariable } from "./variable-rules";
