import { createHash } from "node:crypto";

/**
 * A recipient's id: what messages carry in their `to` attribute and what its subscription filters
 * on. Derived from the address, so the groups file needs no ids of its own and an address in two
 * groups is one recipient, who gets one message per alert.
 */
export function recipientId(channel: "email" | "sms", address: string): string {
  const normalised = channel === "email" ? address.trim().toLowerCase() : address.trim();
  const digest = createHash("sha256").update(`${channel}:${normalised}`).digest("hex");
  return `${channel === "email" ? "e" : "s"}-${digest.slice(0, 16)}`;
}
