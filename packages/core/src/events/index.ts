export { createEventBus } from "./event-bus";
export type { EventBus, EventEmitter } from "./event-bus";
export type {
  AttemptEventBus,
  AttemptEvents,
  ChannelEventEmitter,
  ChannelEvents,
} from "./attempt-events";
