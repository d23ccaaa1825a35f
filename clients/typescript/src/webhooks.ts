/**
 * Webhook verification (Standard Webhooks, as the service signs): the webhook-signature header
 * holds `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per signing secret (two during a
 * rotation); the key is the base64 after `whsec_`.
 */

import { createHmac, timingSafeEqual } from "node:crypto";

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

export interface VerifyOptions {
  /** A delivery older or newer than this is refused (default 300 s). */
  toleranceSeconds?: number;
  /** Now, in seconds since the epoch (default: the clock). */
  now?: number;
}

/** The event in `body` (exactly as received), once its webhook-* headers prove it. */
export function verifyWebhook(secret: string, body: string | Uint8Array,
                              headers: Headers | Record<string, string | string[] | undefined>,
                              options: VerifyOptions = {}): Record<string, unknown> {
  // A fetch Headers, or a plain object such as node:http's request.headers.
  const get = (name: string): string | null => {
    if (headers instanceof Headers) return headers.get(name);
    const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  };
  const id = get("webhook-id");
  const stamp = get("webhook-timestamp");
  const signatures = get("webhook-signature");
  if (!id || !stamp || !signatures) {
    throw new WebhookVerificationError("missing webhook-id, -timestamp or -signature header");
  }
  if (!/^[0-9]+$/.test(stamp)) throw new WebhookVerificationError("malformed timestamp");
  const now = options.now ?? Date.now() / 1000;
  if (Math.abs(now - Number(stamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError("the timestamp is outside the tolerance");
  }
  const raw = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
  const expected = createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
    .update(`${id}.${stamp}.`).update(raw).digest();
  for (const candidate of signatures.split(" ")) {
    const [version, value] = candidate.split(",", 2);
    const given = Buffer.from(value ?? "", "base64");
    if (version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)) {
      return JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
    }
  }
  throw new WebhookVerificationError("no signature matches");
}
