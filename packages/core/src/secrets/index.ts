export { mapStrings } from "./map-strings";
export { Scrubber } from "./scrubber";
export { ScrubStream } from "./scrub-stream";
export { scrubbedCapture } from "./scrubbed-capture";
export { checkSecretLength } from "./secret-length";
export { checkVariable } from "./variable-rules";
