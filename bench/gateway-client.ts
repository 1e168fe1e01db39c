/**
 * The client side of the budget bench, in a process of its own as an agent CLI is: sends
 * Chat Completions requests to each registration given (name=baseUrl token, as JSON in argv),
 * taking turns, and prints their timings as JSON. A client in the gateway's own process
 * would also wait for what the gateway does after a response (its meter, the ledger write).
 */
import { chatCall } from "@switchyard/testing/gateway";
import { timeInTurns } from "./measure";

/** Between requests, as a CLI reads an answer before it asks again: what the gateway does after a response (the meter, the ledger write) ends before the next one. */
const PAUSE_MS = 5;
const [requests, warmup, model, targets] = process.argv.slice(2);
const registrations = JSON.parse(targets!) as Record<string, { baseUrl: string; token: string }>;
const call = chatCall(model!, false);
const send = (r: { baseUrl: string; token: string }) => async () => {
  const response = await call.send(r.baseUrl, r.token);
  const body = await response.text();
  if (response.status !== 200) throw new Error(`gateway answered ${response.status}: ${body}`);
};
const timing = await timeInTurns(
  Number(requests),
  Object.fromEntries(Object.entries(registrations).map(([name, r]) => [name, send(r)])),
  Number(warmup),
  PAUSE_MS,
);
process.stdout.write(`${JSON.stringify(timing)}\n`);
