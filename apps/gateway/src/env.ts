// The gateway's configuration, read and validated once, here.
import { loadGatewayEnv } from "@secondshift/config";

export const env = loadGatewayEnv(process.env);
