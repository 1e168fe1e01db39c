export { checkSchedule, nextFireTimes } from "./cron-schedule";
export { checkInputMap, mapInputs, resolvePointer } from "./json-pointer";
export { newSigningSecret, SIGNATURE_HEADER, signatureHeader, verifySignature } from "./signature";
export type { SignedDelivery } from "./signature";
export {
  openSigningSecret,
  sealSigningSecret,
  signingSecretHolder,
} from "./signing-secret-envelope";
export {
  budgetOfKey,
  budgetWarningKey,
  eventOfRunStatus,
  NOTIFICATION_ATTEMPTS,
  NOTIFICATION_BACKOFF_MS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_QUEUE,
  NOTIFICATION_TIMEOUT_MS,
  notificationJobSchema,
  TRIGGER_QUEUE,
  waitAnnouncementJobId,
  waitAnnouncementJobSchema,
  triggerJobSchema,
  triggerSchedulerId,
} from "./trigger-jobs";
export type {
  NotificationEvent,
  NotificationJob,
  NotificationPayload,
  NotificationQueueJob,
  TriggerJob,
} from "./trigger-jobs";
export { checkEndpointUrl } from "./endpoint-url";
