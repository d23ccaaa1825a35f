// The TypeScript client against the live service: run by tests/clients/test_typescript_client.py
// (PASS_SERVICE_URL, PASS_SERVICE_KEY, TEMPLATE_BODY and PNG_BASE64 in the environment) after
// `npm ci` and `tsc -p tsconfig.test.json` (strict: the calls below type-check against the
// generated types). The server arms faults on `POST /_faults` and lists what it saw at
// `GET /_seen` (tests/clients/live.py).
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";

import {
  AuthenticationError, InvalidRequestError, NotFoundError, RateLimitError,
  WebhookVerificationError,
  connect, ok, paginate, verifyWebhook, type components,
} from "../src/index.js";

type Pass = components["schemas"]["Pass"];
type Seen = { method: string; path: string; idempotencyKey: string | null };

const base = process.env.PASS_SERVICE_URL!;
const client = connect(process.env.PASS_SERVICE_KEY!, base, { baseDelayMs: 10 });
const templateBody: components["schemas"]["TemplateCreate"] = JSON.parse(process.env.TEMPLATE_BODY!);

const seen = async (): Promise<Seen[]> => (await fetch(`${base}/_seen`)).json() as Promise<Seen[]>;
const arm = (kind: string) => fetch(`${base}/_faults`, {
  method: "POST", body: JSON.stringify({ method: "POST", path: "/v1/passes", kind }),
  headers: { "Content-Type": "application/json" },
});
const passPosts = async () => (await seen())
  .filter((one) => one.method === "POST" && one.path === "/v1/passes");

async function template(images?: Record<string, string>): Promise<string> {
  const body = images ? { ...templateBody, definition: { ...templateBody.definition, images } }
    : templateBody;
  return ok(await client.POST("/v1/templates", { body })).id;
}

const issue = async (templateId: string, member = "Ada"): Promise<Pass> => ok(await client.POST("/v1/passes", {
  body: { templateId, fieldValues: { member } },
}));

async function all(templateId: string, limit = 25): Promise<{ items: Pass[]; pages: number }> {
  let pages = 0;
  const items: Pass[] = [];
  for await (const item of paginate((cursor) => {
    pages += 1;
    return client.GET("/v1/passes", { params: { query: { templateId, limit, cursor } } });
  })) items.push(item);
  return { items, pages };
}

test("upload, create, issue, list with cursors, update, void", async () => {
  const asset = ok(await client.POST("/v1/assets", {
    body: { slot: "icon", data: process.env.PNG_BASE64! },
  }));
  assert.match(asset.id, /^asset_/);
  const templateId = await template({ icon: asset.id });
  const issued: Pass[] = [];
  for (let n = 0; n < 5; n++) issued.push(await issue(templateId, `Member ${n}`));
  const { items, pages } = await all(templateId, 2);
  assert.deepEqual(items.map((p) => p.id), issued.map((p) => p.id).reverse());
  assert.equal(pages, 3);
  const updated = ok(await client.PATCH("/v1/passes/{pass_id}", {
    params: { path: { pass_id: issued[0].id } },
    body: { fieldValues: { member: "Grace" }, notificationMode: "notify" },
  }));
  assert.equal(updated.pass.fieldValues?.member, "Grace");
  assert.equal(updated.update.notificationMode, "notify");
  const voided = ok(await client.DELETE("/v1/passes/{pass_id}", {
    params: { path: { pass_id: issued[0].id } },
  }));
  assert.equal(voided.status, "voided");
  assert.ok(voided.voidedAt);
  // Every write carried a key of its own.
  const keys = (await seen()).filter((one) => one.method !== "GET").map((one) => one.idempotencyKey);
  assert.ok(keys.every(Boolean));
  assert.equal(new Set(keys).size, keys.length);
});

for (const kind of ["lost", "dropped"]) {
  test(`a retried POST makes one pass (first answer ${kind})`, async () => {
    const templateId = await template();
    const before = (await passPosts()).length;
    await arm(kind);
    const item = await issue(templateId);
    const attempts = (await passPosts()).slice(before);
    assert.equal(attempts.length, 2);
    assert.ok(attempts[0].idempotencyKey);
    assert.equal(attempts[0].idempotencyKey, attempts[1].idempotencyKey);
    assert.deepEqual((await all(templateId)).items.map((p) => p.id), [item.id]);
  });
}

test("a 429 waits for Retry-After", async () => {
  const templateId = await template();
  await arm("limited");
  const started = Date.now();
  await issue(templateId);
  assert.ok(Date.now() - started >= 1000);
});

test("4xx answers are typed errors", async () => {
  await assert.rejects(client.GET("/v1/passes/{pass_id}", { params: { path: { pass_id: "pass_nope" } } }),
    (error) => error instanceof NotFoundError && error.status === 404 &&
      error.type === "not_found_error" && !!error.requestId?.startsWith("req_"));
  const templateId = await template();
  await assert.rejects(client.POST("/v1/passes", { body: { templateId, fieldValues: { colour: "red" } } }),
    (error) => error instanceof InvalidRequestError && error.status === 400 &&
      error.type === "invalid_request_error" && error.param === "fieldValues.colour" && !!error.code);
  const stranger = connect("svc_test_nope", base);
  await assert.rejects(stranger.GET("/v1/me"),
    (error) => error instanceof AuthenticationError && error.code === "invalid_api_key");
});

test("a delivered webhook verifies", async () => {
  const deliveries: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  try {
    const hook = ok(await client.POST("/v1/webhook-endpoints", {
      body: { url: `http://127.0.0.1:${port}/hooks`, enabledEvents: ["pass.created"] },
    }));
    const item = await issue(await template());
    for (let i = 0; i < 100 && deliveries.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const delivery = deliveries[0]!;
    const secret = hook.secret!;
    const event = verifyWebhook(secret, delivery.body, delivery.headers);
    assert.equal(event.type, "pass.created");
    assert.equal((event.data as { object: Pass }).object.id, item.id);
    assert.throws(() => verifyWebhook(secret, Buffer.from(delivery.body.toString().replace("created", "voided")),
      delivery.headers), WebhookVerificationError);
    assert.throws(() => verifyWebhook(secret, delivery.body, delivery.headers,
      { now: Date.now() / 1000 + 600 }), WebhookVerificationError);
  } finally {
    receiver.close();
  }
});

test("network errors are retried, then thrown", async () => {
  let attempts = 0;
  const refused = connect("svc_test_x", "http://127.0.0.1:9", {
    baseDelayMs: 1, maxRetries: 2, fetch: (request: Request) => { attempts += 1; return fetch(request); },
  });
  await assert.rejects(refused.GET("/v1/me"), TypeError);
  assert.equal(attempts, 3);
});

test("a Retry-After longer than maxDelayMs is not waited for: the error is thrown", async () => {
  let attempts = 0;
  const limited = connect("svc_test_x", "http://api.test", {
    maxDelayMs: 5_000, fetch: async () => {
      attempts += 1;
      return new Response(JSON.stringify({ error: { type: "rate_limit_error", message: "slow" },
        requestId: "req_1" }), { status: 429, headers: { "Retry-After": "9" } });
    },
  });
  const started = Date.now();
  await assert.rejects(limited.GET("/v1/me"),
    (error) => error instanceof RateLimitError && error.requestId === "req_1");
  assert.equal(attempts, 1);
  assert.ok(Date.now() - started < 1000);
});
