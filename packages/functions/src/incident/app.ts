import { type Context, Hono } from "hono";
import * as z from "zod";
import { acknowledgeFormSchema, proofFieldSchema } from "./acknowledge-form.js";
import { comesFromOrigin } from "./cross-site.js";
import { formProof, isFormProof } from "./form-proof.js";
import { renderIncidentPage } from "./incident-page.js";
import { incidentPaths } from "./incident-paths.js";
import {
  FAILED_PAGE,
  INVALID_FORM_PAGE,
  NOT_FOUND_PAGE,
  PACK_PREPARING_PAGE,
  REFUSED_PAGE,
} from "./page-document.js";
import type { AccessAction, IncidentAppDeps, ShareGrant } from "./ports.js";
import { securityHeaders } from "./security-headers.js";

/** A clip's position in the alert's manifest, as the page numbers them. */
const clipIndexSchema = z
  .string()
  .regex(/^\d{1,4}$/)
  .transform(Number);

/**
 * The incident page app: one alert per share link. The same app is served by Lambda (`hono/aws-lambda`)
 * and by Node (`@hono/node-server`) in local mode and tests. A token that grants nothing, and any
 * path that is not the app's, get the one 404; the app cannot tell why, as the share store does
 * not say.
 */
export function createIncidentApp(deps: IncidentAppDeps): Hono {
  const app = new Hono();
  const notFound = (c: Context) => c.html(NOT_FOUND_PAGE, 404);
  app.use("*", securityHeaders(deps.mediaOrigin));
  app.notFound(notFound);
  app.onError((error, c) => {
    // The route pattern, never the path: the path holds the token.
    const token = c.req.param("token");
    deps.logger.error("incident request failed", {
      route: c.req.routePath,
      error: error.name,
      message: token ? error.message.replaceAll(token, "[token]") : error.message,
    });
    return c.html(FAILED_PAGE, 500);
  });

  const grantOf = (c: Context) => deps.shares.resolve(c.req.param("token") ?? "", deps.now());
  const recordAccess = (c: Context, grant: ShareGrant, action: AccessAction) =>
    deps.audit.recordAccess({
      alertId: grant.alertId,
      tokenId: grant.tokenId,
      action,
      userAgent: c.req.header("user-agent") ?? "",
      atMs: deps.now(),
    });

  app.get("/i/:token", async (c) => {
    const grant = await grantOf(c);
    const incident = grant && (await deps.incidents.load(grant));
    if (!grant || !incident) return notFound(c);
    await recordAccess(c, grant, "view");
    const page = renderIncidentPage(incident, incidentPaths(c.req.param("token")), {
      allowed: grant.scope === "view+ack",
      proof: formProof(deps.formSecret, grant.tokenId),
    });
    return c.html(page);
  });

  app.get("/i/:token/clips/:n", async (c) => {
    const index = clipIndexSchema.safeParse(c.req.param("n"));
    const grant = await grantOf(c);
    const incident = grant && (await deps.incidents.load(grant));
    // Only a key the alert's own manifest lists is ever presigned.
    const clip =
      index.success && incident?.evidence.status === "stored"
        ? incident.evidence.clips[index.data]
        : undefined;
    if (!grant || !clip) return notFound(c);
    await recordAccess(c, grant, "clip");
    return c.redirect(await deps.evidence.presignClip(grant, clip.key), 302);
  });

  // The zip is built on demand by the evidence function (too big for this function's response):
  // asked for while it is not there, downloaded once it is. Only the download is audited; the
  // waiting page reloads itself.
  app.get("/i/:token/pack", async (c) => {
    const grant = await grantOf(c);
    const pack = grant ? await deps.evidence.claimPack(grant) : undefined;
    if (!grant || !pack || pack.status === "none") return notFound(c);
    if (pack.status === "not-built") {
      await deps.evidence.requestClaimPack(grant);
      return c.html(PACK_PREPARING_PAGE);
    }
    await recordAccess(c, grant, "pack");
    return c.redirect(pack.url, 302);
  });

  app.post("/i/:token/ack", async (c) => {
    // Refused before anything is read or written: a forged request learns nothing, not even whether the link lives.
    if (!comesFromOrigin(c.req.raw.headers, deps.publicOrigin)) return c.html(REFUSED_PAGE, 403);
    const grant = await grantOf(c);
    if (!grant) return notFound(c);
    const body = await c.req.parseBody();
    const proof = proofFieldSchema.safeParse(body);
    if (
      grant.scope !== "view+ack" ||
      !proof.success ||
      !isFormProof(deps.formSecret, grant.tokenId, proof.data.proof)
    )
      return c.html(REFUSED_PAGE, 403);
    const form = acknowledgeFormSchema.safeParse(body);
    if (!form.success) return c.html(INVALID_FORM_PAGE, 400);
    await deps.acknowledgements.acknowledge(grant, {
      by: form.data.name,
      ...(form.data.note !== undefined && { note: form.data.note }),
      tokenId: grant.tokenId,
      atMs: deps.now(),
    });
    await recordAccess(c, grant, "ack");
    // Back to the page, which says who acknowledged first (this request or an earlier one).
    return c.redirect(incidentPaths(c.req.param("token")).page, 303);
  });

  return app;
}
