// The web app's configuration, read and validated once, here.
import { loadWebEnv } from "@secondshift/config";

export const env = loadWebEnv(process.env);
