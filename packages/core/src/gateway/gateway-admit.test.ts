/**
 * A registration's budget, through real HTTP with the scripted model upstream: the gateway
 * asks the registration before each request and refuses with 403 USER.BUDGET.EXCEEDED, the
 * refusal's own message and nothing sent upstream, once the meter it charged says the limit
 * is reached.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createBudgetMeter, emptySpend } from "../governance";
import {
  anthropicCall,
  cleanup,
  REAL_KEY,
  scripted,
  startHarness,
  upstreamBase,
} from "@switchyard/testing/gateway";

const later = cleanup();
afterEach(() => later.run());

describe("the gateway's admit check", () => {
  it("forwards until the step's token limit is reached, then refuses the next request with the limit", async () => {
    const m = later.add(
      await scripted({
        turns: [{ text: "one", usage: { inputTokens: 900, outputTokens: 200 } }, { text: "two" }],
      }),
    );
    const h = later.add(await startHarness());
    const budget = createBudgetMeter([
      { limit: { scope: "step", name: "review", tokens: 1000 }, spentBefore: emptySpend() },
    ]);
    const reg = h.gateway.register({
      vendor: "anthropic",
      upstream: { baseUrl: upstreamBase(m, "anthropic"), apiKey: REAL_KEY },
      meter: (event) =>
        budget.chargeModel({
          tokens: event.inputTokens + event.outputTokens,
          costUsd: event.costUsd,
        }),
      admit: () => budget.admitModel(),
    });
    const call = anthropicCall("claude-sonnet-4-5-20250929", false);
    const first = await call.send(reg.baseUrl!, reg.token);
    expect(first.status, await first.text()).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const second = await call.send(reg.baseUrl!, reg.token);
    expect(second.status).toBe(403);
    const json = (await second.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe("USER.BUDGET.EXCEEDED");
    expect(json.error.message).toContain(
      'the token limit of 1000 set on step "review" is reached (1100 tokens used)',
    );
    expect(m.requests).toHaveLength(1);
    expect(budget.exceeded()?.code).toBe("USER.BUDGET.EXCEEDED");
  });
});
