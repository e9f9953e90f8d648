import * as z from "zod";

/** The field that binds a posted form to its link (see `form-proof.ts`); checked before anything else is read. */
export const proofFieldSchema = z.object({ proof: z.string().max(100) });

/** The acknowledgement form as posted: who (required), an optional note, and the link's form proof. */
export const acknowledgeFormSchema = proofFieldSchema.extend({
  name: z.string().trim().min(1).max(80),
  note: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((note) => (note === "" ? undefined : note)),
});
