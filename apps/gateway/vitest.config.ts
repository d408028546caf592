import { workspaceTestConfig } from "../../vitest.shared.ts";

// Startup tests spawn the service (tsx compile + Prisma client load) several times.
export default workspaceTestConfig(import.meta.dirname, { testTimeout: 90_000 });
