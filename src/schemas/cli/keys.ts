/**
 * `--json` output of `assay keys create|list|revoke`. Objects are strict, so a member added to the output
 * fails test/cli-output until it is described here.
 */
import { z } from 'zod';

/** `keys create --json`: the key and its webhook secret, shown this once. */
export const keysCreateOutputSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** Sent as the x-api-key header; only its hash is kept. */
  key: z.string().startsWith('assay_'),
  /** Signs lab webhooks (Standard Webhooks). */
  webhookSecret: z.string().startsWith('whsec_'),
  createdAt: z.iso.datetime(),
});

/** `keys list --json`: never the keys themselves. */
export const keysListOutputSchema = z.array(
  z.strictObject({
    id: z.string(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    revokedAt: z.iso.datetime().nullable(),
  }),
);

/** `keys revoke --json`. */
export const keysRevokeOutputSchema = z.strictObject({ id: z.string(), revokedAt: z.iso.datetime() });

export type KeysCreateOutput = z.infer<typeof keysCreateOutputSchema>;
export type KeysListOutput = z.infer<typeof keysListOutputSchema>;
export type KeysRevokeOutput = z.infer<typeof keysRevokeOutputSchema>;
