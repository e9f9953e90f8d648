import { createHash } from "node:crypto";
import { BASE_STYLE } from "@fleet-alerts/core/evidence/report";

/** The claim report's restrained look, plus the players and the acknowledgement form. */
export const PAGE_STYLE = `${BASE_STYLE}figure { margin: 0.75rem 0; }
figcaption { font-size: 0.9rem; color: #444; margin-top: 0.3rem; }
svg, video { display: block; width: 100%; height: auto; max-width: 40rem; }
form.acknowledge { display: grid; gap: 0.5rem; max-width: 30rem; }
form.acknowledge input, form.acknowledge textarea, form.acknowledge button { font: inherit; padding: 0.4rem; }
.acknowledged { border-left: 4px solid #2e7d32; padding-left: 0.75rem; }
`;

/** The CSP allows exactly this `<style>` element by its digest: no other inline style can apply. */
export const PAGE_STYLE_HASH = `'sha256-${createHash("sha256").update(PAGE_STYLE).digest("base64")}'`;
