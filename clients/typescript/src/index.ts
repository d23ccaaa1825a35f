/**
 * TypeScript client for the Pass Issuing Service /v1 API: openapi-fetch over the types that
 * openapi-typescript generates from the service's OpenAPI document (src/schema.ts: `make
 * clients`, never edited by hand), and what a generator cannot do: `connect` (an
 * Idempotency-Key per write, retries, typed errors), `paginate`, `ok`, `verifyWebhook`.
 */

import createClient, { type Client } from "openapi-fetch";

import type { paths } from "./schema.js";
import { retryingFetch, type RetryOptions } from "./retry.js";

export type { components, operations, paths } from "./schema.js";
export * from "./errors.js";
export { retryingFetch, type RetryOptions } from "./retry.js";
export { verifyWebhook, WebhookVerificationError, type VerifyOptions } from "./webhooks.js";

export type PassService = Client<paths>;

/** A client whose calls retry, add an Idempotency-Key to each write, and throw typed errors. */
export function connect(apiKey: string, baseUrl: string, options: RetryOptions = {}): PassService {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${apiKey}` },
    fetch: retryingFetch(options),
  });
}

/** A call's data (errors were thrown already, so it is there). */
export function ok<T>(answer: { data?: T }): T {
  if (answer.data === undefined) throw new TypeError("the answer has no data");
  return answer.data;
}

interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Every item of a list operation, page after page: `fetchPage(cursor)` makes one call. */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ data?: Page<T> }>,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  for (;;) {
    const page = ok(await fetchPage(cursor));
    yield* page.data;
    if (!page.hasMore || page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}
