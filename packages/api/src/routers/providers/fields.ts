import { z } from "zod";

export const providerName = z.string().trim().min(1).max(100);
export const baseUrl = z.string().max(2000);
export const modelName = z.string().trim().min(1).max(200);
/** Write-only: accepted here, stored encrypted, never in any output. */
export const apiKey = z.string().min(1).max(10_000);
/** Models runs may use through the gateway; an empty list allows any. */
export const allowedModels = z.array(modelName).max(200);
