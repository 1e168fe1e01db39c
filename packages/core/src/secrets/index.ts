export { Scrubber } from "./scrubber";
