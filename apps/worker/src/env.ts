// The worker's configuration, read and validated once, here.
import { loadWorkerEnv } from "@secondshift/config";

export const env = loadWorkerEnv(process.env);
