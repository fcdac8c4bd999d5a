/** Forms of the API keys screen; bounds from the relay contract. */
import { z } from "zod";
import { apiKeyBounds } from "#relay/contract/index.ts";
import { requiredText } from "./auth.ts";

export const createApiKeySchema = z.object({
  name: requiredText(apiKeyBounds.name.max),
});

export const deleteApiKeySchema = z.object({
  id: z.string().regex(/^\d{1,20}$/),
});
