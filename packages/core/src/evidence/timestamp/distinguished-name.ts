import * as asn1js from "asn1js";
import type { RelativeDistinguishedNames } from "pkijs";

/** RFC 4514's short names, and the few others TSA certificates use (openssl's spelling). */
const SHORT_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.5": "serialNumber",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.9": "STREET",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.97": "organizationIdentifier",
  "0.9.2342.19200300.100.1.1": "UID",
  "0.9.2342.19200300.100.1.25": "DC",
  "1.2.840.113549.1.9.1": "emailAddress",
};

/**
 * A name as RFC 4514 writes it, most specific first: "CN=Example TSA, O=Example, C=DE". pkijs keeps
 * a name's attributes in one flat list, so a multi-valued RDN is written as separate ones ("-ish").
 */
export function formatDistinguishedName(name: RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map(({ type, value }) => `${SHORT_NAMES[type] ?? type}=${attributeValue(value)}`)
    .reverse()
    .join(", ");
}

function attributeValue(value: unknown): string {
  if (value instanceof asn1js.BaseStringBlock) return escapeValue(value.getValue());
  // RFC 4514 §2.4: a value that is not a string is written as '#' and the hex of its BER.
  if (value instanceof asn1js.BaseBlock) return `#${Buffer.from(value.toBER()).toString("hex")}`;
  return "#";
}

/** RFC 4514 §2.4 escaping, so that a comma inside a value cannot pass for a separator. */
function escapeValue(text: string): string {
  return text
    .replace(/[\\"+,;<>]/g, (character) => `\\${character}`)
    .replace(/\0/g, "\\00")
    .replace(/^[ #]/, (character) => `\\${character}`)
    .replace(/ $/, "\\ ");
}
