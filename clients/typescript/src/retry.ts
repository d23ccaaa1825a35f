/**
 * The fetch under every call: an Idempotency-Key per write, retries, typed errors.
 *
 * A write (POST, PUT, PATCH, DELETE) without an Idempotency-Key gets a new UUID once, before
 * the first attempt, and every retry of that call sends the same key: the server answers a
 * retry with the first attempt's stored answer, so a lost answer never makes a second pass.
 * Retried: network errors, 429, 503, and a 409 with Retry-After (the same key still running),
 * after Retry-After seconds when the server says, else an exponential backoff with jitter.
 */

import { randomUUID } from "node:crypto";

import { errorFrom } from "./errors.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** The first backoff, doubled on each retry (default 500 ms). */
  baseDelayMs?: number;
  /** No backoff is longer; an answer whose Retry-After is longer is not retried (default 30 s). */
  maxDelayMs?: number;
  /** The fetch to wrap (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retried(response: Response): boolean {
  return response.status === 429 || response.status === 503 ||
    (response.status === 409 && response.headers.has("Retry-After"));
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get("Retry-After") ?? "";
  return /^[0-9]+$/.test(value) ? Number(value) * 1000 : undefined;
}

export function retryingFetch(options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const backoff = (attempt: number) => {
    const delay = baseDelayMs * 2 ** attempt;
    return delay + Math.random() * delay / 4;
  };
  return async (original: Request) => {
    const request = original.clone();
    if (WRITES.has(request.method) && !request.headers.has("Idempotency-Key")) {
      request.headers.set("Idempotency-Key", randomUUID());
    }
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await send(request.clone());
      } catch (error) {
        if (attempt >= maxRetries) throw error;
        await sleep(Math.min(backoff(attempt), maxDelayMs));
        continue;
      }
      const wait = retryAfterMs(response);
      // Never sooner than Retry-After says: a longer wait than maxDelayMs is the caller's call.
      if (retried(response) && attempt < maxRetries && (wait ?? 0) <= maxDelayMs) {
        await response.body?.cancel();
        await sleep(wait ?? Math.min(backoff(attempt), maxDelayMs));
        continue;
      }
      if (response.status >= 400) {
        throw errorFrom(response.status, await response.text(), response.headers.get("Request-Id"));
      }
      return response;
    }
  };
}
